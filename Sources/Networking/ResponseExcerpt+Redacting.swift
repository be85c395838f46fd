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
    /// not recognised, so as much as its longest spelling is dropped there.
    public static func make(_ text: String, limit: Int = 80, redacting secrets: [String]) -> String {
        guard !secrets.isEmpty else { return cut(text, limit: limit) }
        let redactor = redactor(for: secrets)
        // A character of a secret is at most 12 characters in any spelling (`%F0%9F%98%80`).
        let cutRoom = secrets.reduce(0) { max($0, $1.unicodeScalars.count) } * 12
        let shown = limit * 8
        let scalars = text.unicodeScalars
        guard scalars.count > shown + cutRoom else {
            return cut(redactor.redact(text), limit: limit)
        }
        let redacted = redactor.redact(String(String.UnicodeScalarView(scalars.prefix(shown + cutRoom)))).unicodeScalars
        let excerpt = cut(String(String.UnicodeScalarView(redacted.dropLast(cutRoom))), limit: limit)
        return excerpt.hasSuffix("…") ? excerpt : excerpt + "…"
    }

    /// The start of a body, redacted; only as much is decoded as can show.
    public static func make(_ data: Data, limit: Int = 80, redacting secrets: [String]) -> String {
        // Room for the secrets themselves before the cut.
        let room = limit * 4 + secrets.reduce(0) { $0 + $1.utf8.count * 3 }
        return make(String(decoding: data.prefix(room), as: UTF8.self), limit: limit, redacting: secrets)
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
