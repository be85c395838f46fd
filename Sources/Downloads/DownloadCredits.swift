import PhotoCore
import Foundation
import NIOConcurrencyHelpers
import Platform

/// What `flickr download` writes about each work beside its file: a
/// `NAME.json` sidecar (who made it, under which terms, where it came from,
/// and the record the provider sent), a `NAME.xmp` sidecar that photo tools
/// read (Dublin Core and Creative Commons' XMP terms), and, at the end,
/// `CREDITS.md`: one credit line per work, grouped by licence.
final class DownloadCredits: Sendable {
    /// The folder, as a path: URL's accessors cost microseconds each, and
    /// a rerun looks at two sidecars per work.
    private let folderPath: String
    private let provider: any PhotoProvider
    private let sidecars: Bool
    private let size: String
    /// Where the sidecars' stamps are kept; nil keeps none (every run checks in full).
    private let manifest: DownloadManifest?
    private let entries = NIOLockedValueBox<[String: Entry]>([:])
    /// Sidecars and CREDITS.md built so far, written or not: what a rerun
    /// over unchanged works should not spend.
    private let builds = NIOLockedValueBox(0)
    /// One sidecar at a time, beside the transfers (see `recordSoon`).
    private let writer = DispatchQueue(label: "flickr.download.sidecars", qos: .userInitiated)

    /// A work as CREDITS.md lists it; its line is made only when the file is.
    private struct Entry: Sendable {
        var file: String
        var photo: Photo
        var pageURL: URL?
        /// What its sidecars and line are made from (see `inputs`).
        var inputs: String
        /// Its line, made beside the transfers when its sidecars are, so the
        /// end of a download does not make 300 at once; nil until then.
        var line: CreditLine?
    }

    /// A work's entry in CREDITS.md: its licence, and its line as written there.
    struct CreditLine: Sendable {
        var license: License?
        var file: String
        /// "- {the credit line, inert in Markdown} — {the file as code}\n".
        var text: String

        init(license: License?, line: String, file: String) {
            self.license = license
            self.file = file
            text = "- \(DownloadCredits.markdown(line)) — \(DownloadCredits.codeSpan(file))\n"
        }
    }

    init(folder: URL, provider: any PhotoProvider, sidecars: Bool, size: String, manifest: DownloadManifest? = nil) {
        folderPath = folder.path
        self.provider = provider
        self.sidecars = sidecars
        self.size = size
        self.manifest = manifest
    }

    var filesBuilt: Int { builds.withLockedValue { $0 } }

    /// Notes `photo`, saved as `file` (`baseName` plus its extension, `bytes`
    /// long), and writes its sidecars. Throws when a sidecar cannot be written.
    /// A file `kept` from an earlier run keeps the time it was retrieved; its
    /// sidecars are not even built when the manifest says they were made from
    /// the same inputs and are untouched since, and a sidecar that would come
    /// out the same is not written again.
    func record(
        _ photo: Photo, baseName: String, file: String, bytes: Int?, sha256: String? = nil, retrieved: Date = Date(), kept: Bool = false
    ) throws {
        // Without sidecars there is no CREDITS.md either.
        guard sidecars else { return }
        let pageURL = photo.credit?.pageURL ?? provider.photoPageURL(for: photo)
        let inputs = Self.inputs(of: photo, provider: provider.service.id, file: file, bytes: bytes, sha256: sha256, size: size, pageURL: pageURL)
        entries.withLockedValue { $0[baseName] = Entry(file: file, photo: photo, pageURL: pageURL, inputs: inputs) }
        let jsonPath = "\(folderPath)/\(baseName).json"
        let xmpPath = "\(folderPath)/\(baseName).xmp"
        if kept, let stamp = manifest?.earlier[baseName]?.sidecars, stamp.matches(inputs: inputs, [jsonPath, xmpPath]) { return }
        let creditLine = Self.creditLine(photo, pageURL: pageURL, file: file)
        entries.withLockedValue { $0[baseName]?.line = creditLine }
        let jsonURL = URL(fileURLWithPath: jsonPath, isDirectory: false)
        let xmpURL = URL(fileURLWithPath: xmpPath, isDirectory: false)
        // Unknown until both are written.
        manifest?.note(sidecars: nil, baseName: baseName)
        builds.withLockedValue { $0 += 2 }
        let line = photo.attributionLine(pageURL: pageURL)
        let earlierJSON = kept ? try? Data(contentsOf: jsonURL) : nil
        let when = earlierJSON.flatMap(Self.retrieved(in:)) ?? retrieved.formatted(.iso8601)
        let json = try Self.json(Sidecar(photo, provider: provider.service.id, file: file, bytes: bytes, sha256: sha256, size: size, pageURL: pageURL,
                                          attribution: line, retrieved: when))
        // Each sidecar is tried even when the other cannot be written.
        var failure: AtomicFileError?
        if json != earlierJSON {
            do { try AtomicFile.write(json, to: jsonURL, permissions: 0o666) } catch { failure = error }
        }
        let xmp = Data(Self.xmp(photo, pageURL: pageURL, attribution: line).utf8)
        if !kept || (try? Data(contentsOf: xmpURL)) != xmp {
            do { try AtomicFile.write(xmp, to: xmpURL, permissions: 0o666) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        if let jsonStatus = DownloadManifest.FileStatus(of: jsonPath), let xmpStatus = DownloadManifest.FileStatus(of: xmpPath) {
            manifest?.note(sidecars: .init(inputs: inputs, files: [jsonStatus, xmpStatus]), baseName: baseName)
        }
    }

    /// Records `photo` on the sidecar queue: the transfer that brought it
    /// frees its slot at once, and the sidecars are written while the other
    /// transfers run. `failed` hears a sidecar that could not be written.
    func recordSoon(
        _ photo: Photo, baseName: String, file: String, bytes: Int?, sha256: String?, kept: Bool,
        failed: @escaping @Sendable (any Error) -> Void
    ) {
        writer.async { [self] in
            do {
                try record(photo, baseName: baseName, file: file, bytes: bytes, sha256: sha256, kept: kept)
            } catch {
                failed(error)
            }
        }
    }

    /// Returns once every sidecar queued so far is written.
    func written() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            writer.async { done.resume() }
        }
    }

    /// When an earlier sidecar says its file was retrieved.
    private static func retrieved(in sidecar: Data) -> String? {
        struct Retrieved: Decodable { var retrieved: String }
        return try? JSONDecoder().decode(Retrieved.self, from: sidecar).retrieved
    }

    /// Writes `CREDITS.md` for every work recorded (nothing when none was,
    /// or when the folder is to hold the images alone, or when the one there
    /// says the same). Not even built when the works are those it was last
    /// made from and the file is untouched since.
    func finish() throws {
        let entries = self.entries.withLockedValue { $0 }
        guard sidecars, !entries.isEmpty else { return }
        let targetPath = "\(folderPath)/CREDITS.md"
        var works = FieldBytes()
        for (baseName, entry) in entries.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            works.add(baseName)
            works.add(entry.inputs)
        }
        let inputs = SHA256.hex(Data(works.bytes))
        if let stamp = manifest?.earlierCredits, stamp.matches(inputs: inputs, [targetPath]) { return }
        let target = URL(fileURLWithPath: targetPath, isDirectory: false)
        builds.withLockedValue { $0 += 1 }
        let text = Data(Self.credits(lines: entries.values.map { $0.line ?? Self.creditLine($0.photo, pageURL: $0.pageURL, file: $0.file) }).utf8)
        if (try? Data(contentsOf: target)) != text { try AtomicFile.write(text, to: target, permissions: 0o666) }
        manifest?.note(credits: DownloadManifest.FileStatus(of: targetPath).map { .init(inputs: inputs, files: [$0]) })
    }

    // MARK: - The files

    /// Dublin Core's title and creator, and Creative Commons' rights terms
    /// (`xmpRights:Marked` is False for public-domain works).
    static func xmp(_ photo: Photo, pageURL: URL?, attribution: String) -> String {
        let license = photo.credit?.license
        let creator = photo.credit?.creator ?? photo.ownerName
        var fields: [String] = []
        if !photo.title.isEmpty {
            fields.append("   <dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(photo.title))</rdf:li></rdf:Alt></dc:title>")
        }
        if let creator, !creator.isEmpty {
            fields.append("   <dc:creator><rdf:Seq><rdf:li>\(escaped(creator))</rdf:li></rdf:Seq></dc:creator>")
            fields.append("   <cc:attributionName>\(escaped(creator))</cc:attributionName>")
        }
        if let license {
            fields.append("   <xmpRights:Marked>\(license.isPublicDomain ? "False" : "True")</xmpRights:Marked>")
            if let url = license.url?.absoluteString {
                fields.append("   <xmpRights:WebStatement>\(escaped(url))</xmpRights:WebStatement>")
                // `cc:license` names a licence's deed: not the help page of
                // All Rights Reserved, nor a statement such as Flickr Commons'.
                if license.url?.host == "creativecommons.org" {
                    fields.append("   <cc:license rdf:resource=\"\(escaped(url))\"/>")
                }
            }
        }
        fields.append("   <xmpRights:UsageTerms><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(attribution))</rdf:li></rdf:Alt></xmpRights:UsageTerms>")
        if let pageURL {
            fields.append("   <cc:attributionURL rdf:resource=\"\(escaped(pageURL.absoluteString))\"/>")
        }
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/"
                xmlns:cc="http://creativecommons.org/ns#">
            \(fields.joined(separator: "\n"))
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>

            """
    }

    /// `CREDITS.md`: a heading per licence (most works first), a credit line
    /// per work under it, in file order.
    static func credits(_ works: [(license: License?, line: String, file: String)]) -> String {
        credits(lines: works.map { CreditLine(license: $0.license, line: $0.line, file: $0.file) })
    }

    static func credits(lines works: [CreditLine]) -> String {
        let groups = Dictionary(grouping: works) { $0.license?.shortName ?? "Licence not stated" }
        let ordered = groups.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }
        var text = "# Credits\n\nThe works in this folder, by licence. Keep these lines with the files you use.\n"
        for (name, works) in ordered {
            let deed = works.first?.license?.url.map { " (\(markdown($0.absoluteString)))" } ?? ""
            text += "\n## \(markdown(name))\(deed)\n\n"
            for work in works.sorted(by: { $0.file < $1.file }) {
                text += work.text
            }
        }
        return text
    }

    /// `photo`'s entry in CREDITS.md, its title and creator shortened.
    private static func creditLine(_ photo: Photo, pageURL: URL?, file: String) -> CreditLine {
        CreditLine(license: photo.credit?.license, line: shortened(photo).attributionLine(pageURL: pageURL), file: file)
    }

    /// The longest a title or creator runs in `CREDITS.md`: a 10,000-character
    /// title would bury the licence the line is there to state.
    static let fieldLimit = 300
    /// The longest any one text runs in `CREDITS.md` (a service's own credit
    /// line holds two fields, two links and a licence).
    static let lineLimit = 800

    /// `photo` with its title and creator cut to `fieldLimit`, for its line
    /// in `CREDITS.md` (the sidecars keep them whole).
    private static func shortened(_ photo: Photo) -> Photo {
        var photo = photo
        photo.title = cut(photo.title, to: fieldLimit)
        photo.ownerName = photo.ownerName.map { cut($0, to: fieldLimit) }
        if let creator = photo.credit?.creator { photo.credit?.creator = cut(creator, to: fieldLimit) }
        return photo
    }

    /// `text`, or its first `limit - 1` characters and "…".
    static func cut(_ text: String, to limit: Int) -> String {
        text.count > limit ? text.prefix(limit - 1) + "…" : text
    }

    /// `file` as a code span no backtick in it can close: fenced by a run
    /// one longer than its longest, and padded with the spaces CommonMark
    /// strips when it starts or ends with a backtick.
    static func codeSpan(_ file: String) -> String {
        var longest = 0
        var run = 0
        for scalar in file.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = file.hasPrefix("`") || file.hasSuffix("`") || (file.hasPrefix(" ") && file.hasSuffix(" "))
        return padded ? "\(fence) \(file) \(fence)" : fence + file + fence
    }

    /// Text from a server in XML: the five entities, line breaks and tabs as
    /// spaces (each field is one line), and only what XML 1.0 allows: a
    /// parser must refuse a file holding U+FFFE, U+FFFF or a control
    /// character, and would refuse the whole sidecar.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += " "
            default:
                if isAllowedInXML(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// XML 1.0's `Char`, less the C1 controls and non-characters it only
    /// discourages (photo tools choke on them all the same).
    static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0xD7FF: true
        case 0xFDD0...0xFDEF: false
        case 0xE000...0x10FFFF: scalar.value & 0xFFFE != 0xFFFE
        default: false
        }
    }

    /// Server text as one line of inert Markdown: what CommonMark, GitHub
    /// and HTML would read as a link, image, tag, emphasis, code, heading or
    /// table is escaped; line breaks and controls become spaces; marks that
    /// reorder or hide text (bidirectional controls, zero-width and tag
    /// characters) and non-characters are dropped; cut at `lineLimit`.
    static func markdown(_ text: String) -> String {
        var visible = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isHidden(scalar) {
            visible.append(isLineBreakOrControl(scalar) ? " " : scalar)
        }
        var out = ""
        for scalar in cut(String(visible), to: lineLimit).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            // Brackets as references, not `\[`: no `](` is left for a reader
            // (or a grep) to take for a link, and parentheses can stay as
            // they are in the credit line's links.
            case "[": out += "&#91;"
            case "]": out += "&#93;"
            // `=` too: `onerror=` stays inert but reads as an attack to any grep.
            case "\\", "`", "*", "_", "#", "!", "|", "~", "=":
                out += "\\"
                out.unicodeScalars.append(scalar)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isLineBreakOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Bidirectional controls, zero-width and tag characters, non-characters.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF, 0xE0000...0xE007F, 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }
}
