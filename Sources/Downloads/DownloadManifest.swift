import Foundation
import NIOConcurrencyHelpers
import Platform

/// Which photo each file in a download folder is, kept in the folder as
/// `.flickr-manifest.json` (with or without sidecars): provider, id, the
/// file's name and length, the SHA-256 of its bytes, and the file's
/// modification time when it was written. A later run keeps a file only
/// when this says it is the photo wanted and its bytes are still those;
/// the time lets a warm re-run trust an untouched file without reading it.
/// The same goes for the sidecars and CREDITS.md: what they were made from
/// (a digest) and their length and time as written, so a rerun whose works
/// have not changed upstream neither builds nor reads them.
final class DownloadManifest: Sendable {
    static let fileName = ".flickr-manifest.json"

    /// What is known of one file, by its name without extension.
    struct Record: Codable, Sendable, Equatable {
        var provider: String
        var id: String
        var file: String?
        var bytes: Int?
        var sha256: String?
        /// Seconds since 1970 of the file's last change when it was written.
        var modified: Double?
        /// The work's sidecars as last written or checked; absent in
        /// manifests of earlier versions, whose reruns check them in full.
        var sidecars: Stamp?
    }

    /// A length and a modification time, as `stat` gives them.
    struct FileStatus: Codable, Sendable, Equatable {
        var bytes: Int
        var modified: Double

        init(bytes: Int, modified: Double) {
            self.bytes = bytes
            self.modified = modified
        }

        /// The status of the regular file at `path`, or nil.
        init?(of path: String) {
            guard let status = DownloadFolder.status(path) else { return nil }
            bytes = status.size
            modified = status.modified
        }
    }

    /// Files made from `inputs` (see `DownloadCredits.inputs`), as they
    /// were on disk once written.
    struct Stamp: Codable, Sendable, Equatable {
        var inputs: String
        var files: [FileStatus]

        /// Whether the files at `paths` are still the files stamped, one for one.
        func matches(inputs: String, _ paths: [String]) -> Bool {
            inputs == self.inputs && paths.count == files.count && zip(paths, files).allSatisfy { FileStatus(of: $0) == $1 }
        }
    }

    /// The file's contents.
    struct Contents: Codable, Equatable {
        var version = 1
        var files: [String: Record] = [:]
        /// CREDITS.md as last written or checked.
        var credits: Stamp?
    }

    private let url: URL
    /// What the folder held when the job began, read on first use (see `load`).
    private let loaded = NIOLockedValueBox<Contents?>(nil)
    /// The earlier records' photos, by provider and id, made on first use.
    private let recorded = NIOLockedValueBox<Set<String>?>(nil)
    /// This run's files, written over the earlier ones at the end, and CREDITS.md.
    private let written = NIOLockedValueBox<(files: [String: Record], credits: Stamp?)>(([:], nil))

    init(folder: URL) {
        url = folder.appendingPathComponent(Self.fileName, isDirectory: false)
    }

    /// Reads what earlier runs recorded, unless that is done. A job calls it
    /// once its first page requests are out: decoding 300 records took about
    /// 8 ms, which a rerun spent before asking for anything.
    func load() {
        _ = contents
    }

    private var contents: Contents {
        loaded.withLockedValue { loaded in
            if let contents = loaded { return contents }
            let contents = Self.read(try? Data(contentsOf: url))
            loaded = contents
            return contents
        }
    }

    /// The files the folder held when the job began.
    var earlier: [String: Record] { contents.files }

    /// Whether the folder held a file of this photo when the job began,
    /// under whichever name.
    func recordsPhoto(_ id: String, provider: String) -> Bool {
        let key = provider + "\u{0}" + id
        return recorded.withLockedValue { recorded in
            if let known = recorded { return known.contains(key) }
            let known = Set(contents.files.values.map { $0.provider + "\u{0}" + $0.id })
            recorded = known
            return known.contains(key)
        }
    }
    /// CREDITS.md when the job began.
    var earlierCredits: Stamp? { contents.credits }

    private static func read(_ data: Data?) -> Contents {
        data.flatMap(decoded) ?? Contents()
    }

    func note(_ record: Record, baseName: String) {
        written.withLockedValue { $0.files[baseName] = record }
    }

    /// Notes the sidecars of the file noted as `baseName` (nil: not known
    /// to be whole, so the next run checks them in full).
    func note(sidecars: Stamp?, baseName: String) {
        written.withLockedValue { $0.files[baseName]?.sidecars = sidecars }
    }

    func note(credits: Stamp?) {
        written.withLockedValue { $0.credits = credits }
    }

    /// Merges this run's records into what is on disk now (another run may
    /// have added its own since) and writes the whole atomically, unless
    /// this run found every record as it was (a rerun that kept every file).
    func save() throws {
        let mine = written.withLockedValue { $0 }
        guard !mine.files.isEmpty else { return }
        let earlier = contents
        let unchanged = mine.files.allSatisfy { earlier.files[$0.key] == $0.value } && (mine.credits == nil || mine.credits == earlier.credits)
        if unchanged { return }
        let there = try? Data(contentsOf: url)
        var contents = Self.read(there)
        contents.files.merge(mine.files) { _, new in new }
        if let credits = mine.credits { contents.credits = credits }
        let merged = try Self.encoded(contents)
        if merged != there { try AtomicFile.write(merged, to: url, permissions: 0o666) }
    }

    /// The bytes `JSONEncoder` would write for `contents` with `[.sortedKeys,
    /// .withoutEscapingSlashes]`, through `JSONWriter`.
    static func encoded(_ contents: Contents) throws(JSONWriter.NonConformingNumber) -> Data {
        func value(_ stamp: Stamp) throws(JSONWriter.NonConformingNumber) -> JSONWriter.Value {
            var files: [JSONWriter.Value] = []
            for file in stamp.files {
                files.append(.object([("bytes", .number(file.bytes)), ("modified", try .number(file.modified))]))
            }
            return .object([("inputs", .string(stamp.inputs)), ("files", .array(files))])
        }
        var files: [(key: String, value: JSONWriter.Value)] = []
        files.reserveCapacity(contents.files.count)
        for (name, record) in contents.files {
            var members: [(key: String, value: JSONWriter.Value)] = [("provider", .string(record.provider)), ("id", .string(record.id))]
            if let file = record.file { members.append(("file", .string(file))) }
            if let bytes = record.bytes { members.append(("bytes", .number(bytes))) }
            if let sha256 = record.sha256 { members.append(("sha256", .string(sha256))) }
            if let modified = record.modified { members.append(("modified", try .number(modified))) }
            if let sidecars = record.sidecars { members.append(("sidecars", try value(sidecars))) }
            files.append((name, .object(members)))
        }
        var members: [(key: String, value: JSONWriter.Value)] = [("version", .number(contents.version)), ("files", .object(files))]
        if let credits = contents.credits { members.append(("credits", try value(credits))) }
        return JSONWriter.data(.object(members), style: .compact)
    }
}
