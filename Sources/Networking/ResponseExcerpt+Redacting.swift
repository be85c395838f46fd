import Foundation
import NIOConcurrencyHelpers

extension ResponseExcerpt {
    /// Secrets every excerpt made in this task is redacted of before it is
    /// cut: a decoder that quotes an answer does not know them, and a
    /// provider redacting its error afterwards cannot recognise a secret
    /// the cut went through.
    @TaskLocal public static var secrets: [String] = []

    /// Runs `body` (a decoder reading an answer) with `secrets` redacted
    /// from every excerpt it makes.
    public static func redacting<Value, Failure: Error>(
        _ secrets: [String], _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        let result: Result<Value, Failure> = $secrets.withValue(secrets.filter { !$0.isEmpty }) { Result(catching: body) }
        return try result.get()
    }

    /// A short, printable slice of server text with every secret replaced
    /// first (cutting first could leave part of one behind).
    ///
    /// Only the start of a long text is redacted: the time redaction takes
    /// grows with the text (a server's error page may be 64 KB), and the
    /// excerpt shows a few lines. A secret cut at the end of that start is
    /// not recognised, so the end is dropped back past anything a spelling
    /// of a secret could be made of. `alreadyCut`: the text is the start of
    /// a longer one (a body decoded only as far as can show).
    public static func make(_ text: String, limit: Int = 80, redacting secrets: [String], alreadyCut: Bool = false) -> String {
        guard !secrets.isEmpty else { return cut(text, limit: limit) }
        let redactor = redactor(for: secrets)
        let scalars = text.unicodeScalars
        let kept = keptLength(limit: limit, secrets: secrets)
        guard alreadyCut || scalars.count > kept else {
            return cut(redactor.redact(text), limit: limit)
        }
        var redacted = Substring(redactor.redact(String(String.UnicodeScalarView(scalars.prefix(kept))))).unicodeScalars
        // As much as a secret's longest usual spelling, then the rest of a
        // run that could be one (an unusual spelling, `&#x000…4b;`): white
        // space collapses when the excerpt is made, so the end of what was
        // kept can come into view however far it is from the start.
        redacted.removeLast(min(redacted.count, cutRoom(secrets)))
        let secretScalars = Set(secrets.flatMap(\.unicodeScalars).filter { !$0.properties.isWhitespace })
        while let last = redacted.last, mayBelongToASpelling(last) || secretScalars.contains(last) {
            redacted.removeLast()
        }
        let excerpt = cut(String(Substring(redacted)), limit: limit)
        return excerpt.hasSuffix("…") ? excerpt : excerpt + "…"
    }

    /// The start of a body, redacted; only as much is decoded as can show.
    public static func make(_ data: Data, limit: Int = 80, redacting secrets: [String]) -> String {
        // Four bytes at most to a scalar.
        let room = keptLength(limit: limit, secrets: secrets) * 4
        return make(String(decoding: data.prefix(room), as: UTF8.self), limit: limit, redacting: secrets, alreadyCut: data.count > room)
    }

    /// Scalars of a long text that are redacted and looked at: enough for
    /// the excerpt, and for a secret in its longest usual spelling across
    /// the end (`%F0%9F%98%80` is 12 to a character).
    private static func keptLength(limit: Int, secrets: [String]) -> Int {
        limit * 8 + cutRoom(secrets)
    }

    private static func cutRoom(_ secrets: [String]) -> Int {
        secrets.reduce(0) { max($0, $1.unicodeScalars.count) } * 12
    }

    /// What a spelling of a secret is made of besides the secret's own
    /// characters: letters and digits (hex digits, `\u`, entity names) and
    /// the marks of percent, JSON, HTML and form encodings.
    private static func mayBelongToASpelling(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "%", "&", "#", ";", "\\", "+", "/", "=", "-", "_": return true
        default: return false
        }
    }

    /// The redactor of the last secrets asked for: building one compiles a
    /// large regular expression, and every excerpt of one provider's answers
    /// redacts the same secrets.
    private static let lastRedactor = NIOLockedValueBox<(secrets: [String], redactor: SecretRedactor)?>(nil)

    private static func redactor(for secrets: [String]) -> SecretRedactor {
        if let last = lastRedactor.withLockedValue({ $0 }), last.secrets == secrets { return last.redactor }
        let made = SecretRedactor(secrets: secrets)
        lastRedactor.withLockedValue { $0 = (secrets, made) }
        return made
    }
}
