import Foundation
import NIOConcurrencyHelpers

/// Replaces secrets (API keys, client secrets, tokens) in text that could
/// reach a screen or a log: error messages, response excerpts, URLs, headers.
///
/// A secret can appear in many spellings, and encoders mix them freely (one
/// keeps "/" and writes a space as "+", the next encodes "/" and keeps "+"),
/// so each character of a secret may appear in any of its forms:
/// - as itself;
/// - percent-encoded, with either case of hex digits;
/// - `+` for a space (form encoding);
/// - escaped inside JSON (`\/`, `\u002F`) or HTML/XML (`&amp;`, `&#x2F;`, `&#47;`);
/// and a Basic credential, base64 of `a:b`, is caught for every pair of secrets.
///
/// The values of parameters and headers that always carry credentials
/// (`api_key=…`, `Authorization: Bearer …`) are replaced too, whatever they hold.
public struct SecretRedactor: Sendable {
    public static let placeholder = "[redacted]"
    /// Secrets this long or longer are replaced even inside a word.
    public static let shortestReplacedInsideWords = 8

    /// Built the first time text is redacted: most runs never meet an error
    /// to redact, and building and compiling every spelling of every secret
    /// took 5 ms on the way to a download's first request.
    private let pattern: Pattern

    public init(secrets: [String]) {
        pattern = Pattern(secrets: secrets)
    }

    public init(_ secrets: String...) {
        self.init(secrets: secrets)
    }

    /// `text` with every spelling of every secret replaced by `[redacted]`.
    public func redact(_ text: String) -> String {
        guard !text.isEmpty, let pattern = pattern.compiled else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return pattern.stringByReplacingMatches(
            in: text, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: Self.placeholder))
    }

    /// The redactor's one regular expression, compiled once, on first use.
    /// Its text spells out the secrets, so it is never printed.
    private final class Pattern: Sendable {
        private let secrets: [String]
        private let cache = NIOLockedValueBox<NSRegularExpression??>(nil)

        init(secrets: [String]) {
            self.secrets = secrets
        }

        var compiled: NSRegularExpression? {
            cache.withLockedValue { cache in
                if let built = cache { return built }
                let built = try? NSRegularExpression(pattern: SecretRedactor.pattern(for: secrets))
                cache = .some(built)
                return built
            }
        }
    }

    /// Every spelling of every secret, and every credential parameter, as
    /// one alternation.
    private static func pattern(for secrets: [String]) -> String {
        // Longest first, so a longer secret wins over one it contains.
        let secrets = Set(secrets.filter { !$0.isEmpty }).sorted {
            $0.unicodeScalars.count != $1.unicodeScalars.count ? $0.unicodeScalars.count > $1.unicodeScalars.count : $0 < $1
        }
        // A short secret (a test's "id", a sandbox's "k") is also a piece of
        // many words: it is replaced only where it stands whole, so
        // "Invalid client" stays readable. A real key is long, and is
        // replaced wherever it appears, inside a word too.
        func isShort(_ secret: String) -> Bool { secret.unicodeScalars.count < Self.shortestReplacedInsideWords }
        func whole(_ pattern: String) -> String { #"(?<![\p{L}\p{N}_])"# + pattern + #"(?![\p{L}\p{N}_])"# }
        var alternatives = secrets.map { isShort($0) ? whole(Self.anySpelling(of: $0)) : Self.anySpelling(of: $0) }
        for secret in secrets {
            for other in secrets {
                let pair = Data("\(secret):\(other)".utf8).base64EncodedString()
                for spelling in [pair, Self.urlSafe(pair)].map(NSRegularExpression.escapedPattern(for:)) {
                    alternatives.append(isShort(secret) && isShort(other) ? whole(spelling) : spelling)
                }
            }
        }
        let credentialValues = [
            #"(?<=\b(?:api_key|oauth_consumer_key|oauth_signature|oauth_token|client_secret|access_token|refresh_token)=)[^&\s"'<>]+"#,
            #"(?<=\b(?:api_key|client_secret|access_token|refresh_token)"\s?:\s?")[^"]+"#,
            #"(?i:(?<=\bauthorization:\s?(?:basic|bearer|oauth)\s))[^\r\n]+"#,
        ]
        return (alternatives + credentialValues).joined(separator: "|")
    }

    // MARK: - Spellings

    /// A pattern matching `secret` with each character in any of its forms.
    private static func anySpelling(of secret: String) -> String {
        secret.unicodeScalars.map { forms(of: $0) }.joined()
    }

    private static func forms(of scalar: Unicode.Scalar) -> String {
        var forms = [NSRegularExpression.escapedPattern(for: String(scalar))]
        forms.append(String(scalar).utf8.map { "%" + hexPattern(Int($0), digits: 2) }.joined())
        if scalar.value <= 0xFFFF {
            forms.append(#"\\u"# + hexPattern(Int(scalar.value), digits: 4))
        }
        forms.append("&#(?:0*\(scalar.value)|[xX]0*\(hexPattern(Int(scalar.value), digits: 1)));")
        switch scalar {
        case " ": forms.append(#"\+"#)
        case "/": forms.append(#"\\/"#)
        case "\"": forms += [#"\\""#, "&quot;"]
        case "\\": forms.append(#"\\\\"#)
        case "&": forms.append("&amp;")
        case "<": forms.append("&lt;")
        case ">": forms.append("&gt;")
        case "'": forms.append("&apos;")
        default: break
        }
        return "(?:" + forms.joined(separator: "|") + ")"
    }

    /// `value` in hex, at least `digits` long, each letter in either case.
    private static func hexPattern(_ value: Int, digits: Int) -> String {
        let hex = String(value, radix: 16)
        let padded = String(repeating: "0", count: max(0, digits - hex.count)) + hex
        return padded.map { $0.isLetter ? "[\($0.uppercased())\($0)]" : String($0) }.joined()
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
