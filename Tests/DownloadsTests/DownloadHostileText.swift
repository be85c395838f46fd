import PhotoCore
import OpenverseService
@testable import Downloads
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Sandbox
import TestSupport
import FlickrService

/// Text a hostile server puts in titles, names and licence fields, pieced
/// together by a seeded generator so that a failing case can be replayed.
enum DownloadHostileText {
    static let pieces: [String] = [
        "[click](javascript:alert(1))", "<img src=x onerror=alert(1)>", "![x](http://e.test/x.png)", "<script>", "</a>",
        "<a href=\"javascript:x\">", "`", "``", "```", " ` ", "\u{202E}", "\u{2066}", "\u{2069}", "\u{061C}", "\u{200B}",
        "\u{200C}", "\u{200D}", "\u{2060}", "\u{2064}", "\u{FEFF}", "\u{E0041}", "\u{E007F}", scalar(0xFFFE), scalar(0xFFFF),
        scalar(0xFDD0), scalar(0x1FFFE), scalar(0x10FFFF), "\u{0}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{9B}", "\n", "\r\n", "\t",
        "*", "**", "_", "__", "~~", "#", "|", "!", "\\", "\\[", "&", "&lt;", "&#60;", "&amp;", "]]>", "<!--", "-->",
        "<?xml?>", "\"", "'", "(", ")", "]", "[", "<", ">", "{", "}", "=", "é", "e\u{301}", "🏳️‍🌈", "日本", "Ana", "Lighthouse",
        " ", "DSC_0001", "Untitled", "<https://evil.example>", "http://evil.example", "www.evil.example",
    ]

    /// A scalar Swift's string literals refuse (the non-characters).
    static func scalar(_ value: UInt32) -> String { Unicode.Scalar(value).map { String(Character($0)) } ?? "" }

    /// Records `photos` as a download would, and reads back `CREDITS.md`.
    static func write(_ photos: [Photo], files: [String]? = nil) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let credits = DownloadCredits(folder: directory.url, provider: CollectionProvider(photos: photos), sidecars: true, size: "q")
        for (offset, photo) in photos.enumerated() {
            let file = files?[offset] ?? "\(photo.id).jpg"
            try credits.record(photo, baseName: String(file.prefix { $0 != "." }), file: file, bytes: 1)
        }
        try credits.finish()
        let text = try String(contentsOf: directory.url.appendingPathComponent("CREDITS.md"), encoding: .utf8)
        return (directory, text)
    }

    static func text(_ random: inout SplitMix64) -> String {
        if random.chance(0.03) { return String(repeating: random.pick(["a", "é", "`", "["]), count: 400 + random.below(2_000)) }
        return (0..<(1 + random.below(10))).map { _ in random.pick(pieces) }.joined()
    }

    /// A photo whose every text field is hostile.
    static func photo(_ random: inout SplitMix64, id: Int) -> Photo {
        let license = random.chance(0.5)
            ? LicenseTable.openverse(slug: random.pick(["by", "cc0", "pdm", "sampling+", text(&random)]), version: text(&random), url: nil)
            : FlickrLicenseTable.builtIn.flickr(id: random.below(18))
        return Photo(
            id: "\(id)", owner: "99@N00", ownerName: text(&random), title: text(&random),
            credit: PhotoCredit(license: license, creator: random.chance(0.5) ? text(&random) : nil,
                                attribution: random.chance(0.3) ? text(&random) : nil,
                                pageURL: URL(string: "https://example.test/\(id)")))
    }

    /// Scalars CREDITS.md must never carry: controls, bidirectional marks,
    /// zero-width and tag characters, non-characters.
    static func isForbiddenInCredits(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF, 0xE0000...0xE007F: true
        case 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }

    /// What in `markdown` would be live Markdown or HTML: a `[`, `]`, `<`,
    /// `>`, `*`, `_`, `~`, `|` or backtick that no backslash escapes, outside
    /// a code span, or a `&` that starts anything but `&amp;`, `&lt;`, `&gt;`,
    /// `&#91;` or `&#93;`.
    /// Returns the code spans' contents as CommonMark reads them, in order.
    /// What CommonMark lets a backslash escape.
    static let asciiPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

    static func liveMarkup(in markdown: String) -> (live: [String], codeSpans: [String]) {
        let characters = Array(markdown.unicodeScalars)
        var live: [String] = []
        var spans: [String] = []
        var index = 0
        func context(_ at: Int) -> String {
            String(String.UnicodeScalarView(characters[max(0, at - 20)..<min(characters.count, at + 20)]))
        }
        while index < characters.count {
            let scalar = characters[index]
            if scalar == "\\", index + 1 < characters.count, 
               Self.asciiPunctuation.unicodeScalars.contains(characters[index + 1]) {
                index += 2
                continue
            }
            if scalar == "`" {
                var run = 0
                while index + run < characters.count, characters[index + run] == "`" { run += 1 }
                // The closing run: exactly as long, not part of a longer one.
                var search = index + run
                var close: Int?
                while search < characters.count {
                    if characters[search] == "`" {
                        var length = 0
                        while search + length < characters.count, characters[search + length] == "`" { length += 1 }
                        if length == run { close = search; break }
                        search += length
                    } else {
                        search += 1
                    }
                }
                guard let close else {
                    live.append("unclosed backticks near \(context(index))")
                    index += run
                    continue
                }
                var content = String(String.UnicodeScalarView(characters[(index + run)..<close]))
                if content.hasPrefix(" "), content.hasSuffix(" "), content.count > 1, content.contains(where: { $0 != " " }) {
                    content = String(content.dropFirst().dropLast())
                }
                spans.append(content)
                index = close + run
                continue
            }
            if "[]<>*_~|".unicodeScalars.contains(scalar) {
                live.append("\(scalar) near \(context(index))")
            } else if scalar == "&" {
                let rest = String(String.UnicodeScalarView(characters[index..<min(characters.count, index + 5)]))
                if !["&amp;", "&lt;", "&gt;", "&#91;", "&#93;"].contains(where: rest.hasPrefix) {
                    live.append("& near \(context(index))")
                }
            }
            index += 1
        }
        return (live, spans)
    }
}

/// Parses XML with Foundation's parser, which refuses what XML 1.0 does not
/// allow (checked in `strictParserRefusesNonCharacters`).
final class StrictXML: NSObject, XMLParserDelegate {
    private(set) var error: Error?

    static func error(in data: Data) -> String? {
        let parser = XMLParser(data: data)
        let delegate = StrictXML()
        parser.delegate = delegate
        if parser.parse() { return nil }
        return String(describing: parser.parserError ?? delegate.error ?? CocoaError(.coderReadCorrupt))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
}
