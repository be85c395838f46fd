import Foundation

/// Replaces secrets (API keys, client secrets, tokens) in text that could
/// reach a screen or a log: error messages, response excerpts, URLs, headers.
///
/// A secret can appear in many spellings, and each is caught:
/// - as itself;
/// - percent-encoded the way `URLComponents` writes a query (`/` and `+`
///   kept) and the strict way (only letters, digits and `-._~` kept), with
///   either case of hex digits;
/// - form-encoded, with `+` for a space;
/// - escaped inside JSON (`\/`) or HTML/XML (`&amp;`);
/// - inside a Basic credential: base64 of `a:b` for every pair of secrets.
///
/// The values of parameters and headers that always carry credentials
/// (`api_key=…`, `Authorization: Bearer …`) are replaced too, whatever they hold.
public struct SecretRedactor: Sendable {
    public static let placeholder = "[redacted]"

    private let pattern: NSRegularExpression?

    public init(secrets: [String]) {
        let secrets = Array(Set(secrets.filter { !$0.isEmpty }))
        var spellings = Set<String>()
        for secret in secrets {
            spellings.insert(NSRegularExpression.escapedPattern(for: secret))
            for encoded in Self.encodings(of: secret) where encoded != secret {
                spellings.insert(Self.caseInsensitiveHex(encoded))
            }
            for other in secrets {
                let pair = Data("\(secret):\(other)".utf8)
                spellings.insert(NSRegularExpression.escapedPattern(for: pair.base64EncodedString()))
                spellings.insert(NSRegularExpression.escapedPattern(for: Self.urlSafe(pair.base64EncodedString())))
            }
        }
        // Longest first, so a longer spelling wins over one it contains.
        let alternatives = spellings.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        let credentialValues = [
            #"(?<=\b(?:api_key|oauth_consumer_key|oauth_signature|oauth_token|client_secret|access_token|refresh_token)=)[^&\s"'<>]+"#,
            #"(?<=\b(?:api_key|client_secret|access_token|refresh_token)"\s?:\s?")[^"]+"#,
            #"(?i:(?<=\bauthorization:\s?(?:basic|bearer|oauth)\s))[^\r\n]+"#,
        ]
        let combined = (alternatives + credentialValues).joined(separator: "|")
        pattern = try? NSRegularExpression(pattern: combined)
    }

    public init(_ secrets: String...) {
        self.init(secrets: secrets)
    }

    /// `text` with every spelling of every secret replaced by `[redacted]`.
    public func redact(_ text: String) -> String {
        guard let pattern, !text.isEmpty else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return pattern.stringByReplacingMatches(
            in: text, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: Self.placeholder))
    }

    // MARK: - Spellings

    private static func encodings(of secret: String) -> [String] {
        var results: [String] = []
        var queryAllowed = CharacterSet.urlQueryAllowed
        queryAllowed.remove(charactersIn: "&=")
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: queryAllowed) {
            results.append(encoded)
            results.append(encoded.replacingOccurrences(of: "+", with: "%2B"))
        }
        if let strict = secret.addingPercentEncoding(withAllowedCharacters: unreserved) {
            results.append(strict)
            results.append(strict.replacingOccurrences(of: "%20", with: "+"))
        }
        results.append(secret.replacingOccurrences(of: " ", with: "+"))
        results.append(
            secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "/", with: "\\/"))
        results.append(
            secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "'", with: "&#39;"))
        return results
    }

    /// RFC 3986's unreserved characters: everything else gets percent-encoded.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A pattern matching `text` literally, except that each `%XY` escape
    /// matches in upper or lower case.
    private static func caseInsensitiveHex(_ text: String) -> String {
        var pattern = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<percent]))
            let digits = rest[rest.index(after: percent)...].prefix(2)
            if digits.count == 2, digits.allSatisfy(\.isHexDigit) {
                pattern += "%" + digits.map { "[\($0.uppercased())\($0.lowercased())]" }.joined()
                rest = rest[rest.index(percent, offsetBy: 3)...]
            } else {
                pattern += "%"
                rest = rest[rest.index(after: percent)...]
            }
        }
        return pattern + NSRegularExpression.escapedPattern(for: String(rest))
    }

    private static func urlSafe(_ base64: String) -> String {
        base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

// The pattern spells out the secrets: never print or reflect it.
extension SecretRedactor: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "SecretRedactor(\(Self.placeholder))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
