import Foundation
import Networking

/// Turns the bit of HTML a photo description holds into plain text: tags
/// go (line breaks and paragraphs become new lines), character references
/// (`&quot;`, `&#039;`, `&#x1F431;`) become their characters, in one pass so
/// `&amp;lt;` ends as the text `&lt;`.
///
/// Not a sanitiser: the result may hold any character, and the view layer
/// makes it safe for a terminal.
public enum HTMLText {
    public static func plainText(_ html: String) -> String {
        decodeEntities(stripTags(html))
            .replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: #"[ \t]+\n"#, with: "\n", options: .regularExpression)
            .replacingOccurrences(of: #"\n{3,}"#, with: "\n\n", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Drops `<…>` tags and `<!-- … -->` comments; a `<` that does not start
    /// a tag ("a < b") stays.
    static func stripTags(_ html: String) -> String {
        var result = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if after.hasPrefix("!--") {
                guard let end = after.range(of: "-->") else { return result }
                rest = after[end.upperBound...]
                continue
            }
            guard let first = after.first, first.isLetter || first == "/" || first == "!",
                  let close = after.firstIndex(of: ">")
            else {
                result += "<"
                rest = after
                continue
            }
            let name = after.prefix { $0 != ">" && !$0.isWhitespace }.lowercased()
                .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            if lineBreakingTags.contains(name) { result += "\n" }
            rest = after[after.index(after: close)...]
        }
        return result + rest
    }

    private static let lineBreakingTags: Set<String> = ["br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "blockquote"]

    /// Replaces character references; unknown names stay as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            let body = after.prefix { $0 != ";" && $0 != "&" && !$0.isWhitespace }
            let end = after.index(after.startIndex, offsetBy: body.count, limitedBy: after.endIndex) ?? after.endIndex
            if body.count <= 32, end < after.endIndex, after[end] == ";", let decoded = character(for: body) {
                result.append(decoded)
                rest = after[after.index(after: end)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    private static func character(for reference: Substring) -> Character? {
        if reference.hasPrefix("#") {
            let digits = reference.dropFirst()
            let value = digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            // NUL and surrogates are not characters; show the replacement mark.
            guard let value else { return nil }
            guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
            return Character(scalar)
        }
        return namedEntities[String(reference)]
    }

    /// The references descriptions use in practice; HTML has some 2,000 more.
    private static let namedEntities: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "copy": "©", "reg": "®", "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»",
        "middot": "·", "bull": "•", "deg": "°", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢",
        "times": "×", "divide": "÷", "sect": "§", "para": "¶", "eacute": "é", "egrave": "è",
        "agrave": "à", "aacute": "á", "uuml": "ü", "ouml": "ö", "auml": "ä", "szlig": "ß", "ccedil": "ç",
        "ntilde": "ñ", "iacute": "í", "oacute": "ó", "uacute": "ú",
    ]
}

extension HTMLText {
    /// The text of an HTML page's `<h1>`, else its `<title>`, without tags:
    /// what an error page served in place of an API answer says. `nil` when
    /// it has neither.
    public static func headline(_ html: String) -> String? {
        for tag in ["h1", "title"] {
            guard let open = html.range(of: "<\(tag)", options: .caseInsensitive),
                  let openEnd = html[open.upperBound...].firstIndex(of: ">"),
                  let close = html[openEnd...].range(of: "</\(tag)", options: .caseInsensitive)
            else { continue }
            var inner = ""
            var inTag = false
            for character in html[html.index(after: openEnd)..<close.lowerBound] {
                if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { inner.append(character) }
            }
            if !inner.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return inner }
        }
        return nil
    }
}
