/// Synchronized output (DEC private mode 2026): between `ESC[?2026h` and
/// `ESC[?2026l` the terminal keeps showing the old screen and then presents
/// the new one at once, so a row of thumbnails appears whole instead of
/// being painted piece by piece while its bytes arrive.
///
/// Enabled only when the terminal said it knows the mode (its DECRQM answer,
/// see `TerminalProbe`); terminals that do not know it would ignore the
/// codes anyway, but then they are bytes for nothing.
public struct SynchronizedOutput: Sendable, Equatable {
    public static let begin = "\u{1B}[?2026h"
    public static let end = "\u{1B}[?2026l"

    public var isEnabled: Bool

    public init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    public static let disabled = SynchronizedOutput(isEnabled: false)

    /// Whether the terminal that answered XTVERSION with `name` is known to
    /// mishandle the mode: kitty before 0.28 (seen in 0.26.5) drops graphics
    /// commands that arrive inside an update in several writes.
    public static func isKnownBroken(terminalName name: String?) -> Bool {
        guard let name, name.hasPrefix("kitty("), let close = name.firstIndex(of: ")") else { return false }
        let version = name[name.index(name.startIndex, offsetBy: 6)..<close].split(separator: ".").map { Int($0) ?? 0 }
        guard version.count >= 2 else { return false }
        return version[0] == 0 && version[1] < 28
    }

    /// `text` as one update: between begin and end when enabled, unchanged
    /// otherwise (and always unchanged when empty).
    public func wrap(_ text: String) -> String {
        guard isEnabled, !text.isEmpty else { return text }
        return Self.begin + text + Self.end
    }
}
