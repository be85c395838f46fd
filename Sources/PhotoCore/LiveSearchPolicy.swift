import Foundation

/// When a pause in typing starts a search, per provider: services with
/// tight anonymous limits wait longer and skip short partial words.
public struct LiveSearchPolicy: Sendable, Equatable {
    /// The pause used when `--live-delay` is not given.
    public var delay: Duration
    /// No pause is shorter than this, whatever `--live-delay` says.
    public var minimumDelay: Duration
    /// No search while the text ends in a word (not followed by a space)
    /// shorter than this.
    public var shortestPartialWord: Int

    public init(delay: Duration, minimumDelay: Duration = .zero, shortestPartialWord: Int = 1) {
        self.delay = delay
        self.minimumDelay = minimumDelay
        self.shortestPartialWord = max(1, shortestPartialWord)
    }

    public static let standard = LiveSearchPolicy(delay: .milliseconds(300))

    /// The pause to wait given the person's `--live-delay`, if any.
    public func pause(chosen: Duration?) -> Duration {
        max(chosen ?? delay, minimumDelay)
    }

    /// Whether `text` (trimmed on the left only) is worth a search now.
    public func allows(_ text: String) -> Bool {
        guard text.trimmingCharacters(in: .whitespaces).count >= 2 else { return false }
        guard let last = text.last, !last.isWhitespace else { return true }
        let partial = text.split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
        return partial.count >= shortestPartialWord
    }
}
