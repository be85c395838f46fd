import Foundation
import NIOConcurrencyHelpers

/// Plays the terminal's side of a start-up probe: watches what the program
/// writes and, when it asks for the primary device attributes (`ESC[c`),
/// answers like the configured terminal would, DA1 last. Answers once.
///
/// Runs on the pty reader thread, so the answer leaves as soon as the query
/// arrives (the program waits only a fraction of a second for it).
public final class TerminalResponder: Sendable {
    /// What the pretend terminal says about itself.
    public struct Answers: Sendable {
        /// Answer kitty's graphics query with OK.
        public var kittyGraphics = false
        /// Answer the graphics query that carries `U=1` (Unicode
        /// placeholders, kitty 0.28 and later) too; kitty 0.26 does not.
        public var kittyPlaceholders = false
        /// DECRQM 2026: nil says nothing; true "reset" (known), false "unknown".
        public var synchronizedOutput: Bool?
        /// `ESC[16t` answer (width, height in pixels).
        public var cellPixelSize: (width: Int, height: Int)?
        /// XTVERSION answer.
        public var name: String?
        /// DA1 attributes (4 is sixel).
        public var deviceAttributes = [62, 22]

        public init() {}

        /// kitty 0.35: graphics, synchronized output, 10×20 cells.
        public static var kitty: Answers {
            var answers = Answers()
            answers.kittyGraphics = true
            answers.kittyPlaceholders = true
            answers.synchronizedOutput = true
            answers.cellPixelSize = (10, 20)
            answers.name = "kitty(0.35.2)"
            return answers
        }
    }

    private struct State {
        var seen: [UInt8] = []
        var answered = false
    }

    public let answers: Answers
    private let state = NIOLockedValueBox(State())

    public init(_ answers: Answers) {
        self.answers = answers
    }

    /// Whether the query was seen and answered.
    public var hasAnswered: Bool { state.withLockedValue { $0.answered } }

    /// Feeds program output; returns the bytes to type back, if any.
    public func reply(to output: some Sequence<UInt8>) -> [UInt8]? {
        state.withLockedValue { state -> [UInt8]? in
            guard !state.answered else { return nil }
            state.seen.append(contentsOf: output)
            let query: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "c")]
            guard state.seen.firstRange(of: query) != nil else { return nil }
            state.answered = true
            return Array(answerText(kittyQueries: Self.kittyQueries(in: state.seen)).utf8)
        }
    }

    private func answerText(kittyQueries: [(id: String, placeholders: Bool)]) -> String {
        var text = ""
        if let sync = answers.synchronizedOutput { text += "\u{1B}[?2026;\(sync ? 2 : 0)$y" }
        if let name = answers.name { text += "\u{1B}P>|\(name)\u{1B}\\" }
        if let cell = answers.cellPixelSize { text += "\u{1B}[6;\(cell.height);\(cell.width)t" }
        for query in kittyQueries where answers.kittyGraphics && (!query.placeholders || answers.kittyPlaceholders) {
            text += "\u{1B}_Gi=\(query.id);OK\u{1B}\\"
        }
        return text + "\u{1B}[?" + answers.deviceAttributes.map(String.init).joined(separator: ";") + "c"
    }

    /// The `i=` of each kitty query action (`a=q`) in `bytes`, in order, and
    /// whether it asks about placeholders (`U=1`).
    static func kittyQueries(in bytes: [UInt8]) -> [(id: String, placeholders: Bool)] {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.components(separatedBy: "\u{1B}_G").dropFirst().compactMap { command in
            let keys = command.prefix { $0 != ";" }.split(separator: ",")
            guard keys.contains("a=q"), let id = keys.first(where: { $0.hasPrefix("i=") }) else { return nil }
            return (String(id.dropFirst(2)), keys.contains("U=1"))
        }
    }
}
