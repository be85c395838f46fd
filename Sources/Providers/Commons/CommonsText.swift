import PhotoCore
import Foundation

/// Commons' text fields as plain text. `Artist`, `Credit` and
/// `ImageDescription` are HTML (links to user pages, spans around "Own
/// work"); titles are page names.
enum CommonsText {
    /// One line: tags removed, entities decoded, every run of white space
    /// (new lines included) one space. For names and licence words.
    static func line(_ html: String?) -> String? {
        guard let html else { return nil }
        let folded = HTMLText.plainText(html)
            .split(whereSeparator: { $0.isWhitespace })
            .joined(separator: " ")
        return folded.isEmpty ? nil : folded
    }

    /// Paragraphs kept: for descriptions.
    static func paragraphs(_ html: String?) -> String? {
        guard let html else { return nil }
        let text = HTMLText.plainText(html)
        return text.isEmpty ? nil : text
    }

    /// `File:Tired 20-year-old cat.jpg` → `Tired 20-year-old cat`: the
    /// namespace and the extension go, underscores (as in URLs) read as spaces.
    static func title(fromPageTitle pageTitle: String) -> String {
        var name = Substring(pageTitle)
        if let colon = name.firstIndex(of: ":"), name[..<colon].lowercased() == "file" || name[..<colon].lowercased() == "image" {
            name = name[name.index(after: colon)...]
        }
        if let dot = name.lastIndex(of: "."), dot > name.startIndex {
            let suffix = name[name.index(after: dot)...]
            if (1...5).contains(suffix.count), suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                name = name[..<dot]
            }
        }
        return name.replacingOccurrences(of: "_", with: " ").trimmingCharacters(in: .whitespaces)
    }

    /// The page title of a file name as a link or a person writes it:
    /// `File:` added when missing, underscores as spaces, first letter
    /// upper case (MediaWiki's own rule for this namespace).
    static func pageTitle(fromFileName name: String) -> String {
        var bare = name.replacingOccurrences(of: "_", with: " ").trimmingCharacters(in: .whitespaces)
        if let colon = bare.firstIndex(of: ":"), ["file", "image"].contains(bare[..<colon].lowercased()) {
            bare = String(bare[bare.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        guard let first = bare.first else { return "File:" }
        return "File:" + first.uppercased() + bare.dropFirst()
    }
}
