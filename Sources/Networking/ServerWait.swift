import Foundation

/// A wait a server names (`Retry-After`, a throttle's "available in N
/// seconds", a token's lifetime), read and worded without arithmetic that
/// can overflow: every number from outside is held to `0...ceiling` before
/// anything adds to it, and every conversion from `Double` is checked first.
public enum ServerWait {
    /// The longest wait kept (about 68 years). A longer one means the same
    /// to a person and to a retry policy: far longer than anyone waits.
    public static let ceiling: Duration = .seconds(Int64(Int32.max))

    /// The longest wait a sentence names in units; past it, "more than a day".
    public static let longestNamed: Duration = .seconds(86_400)

    /// Whole seconds written as ASCII digits, any number of them: too many
    /// for an `Int64` is still the ceiling. `nil` for no digits or any other
    /// character.
    public static func seconds<Text: StringProtocol>(digits: Text) -> Duration? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        let ceilingSeconds = ceiling.components.seconds
        var value: Int64 = 0
        for byte in digits.utf8 {
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            if value >= ceilingSeconds { return ceiling }
        }
        return .seconds(value)
    }

    /// A wait of `seconds` (from a date's distance, say), rounded up to the
    /// millisecond: not-a-number and negatives are no wait, huge ones the
    /// ceiling.
    public static func seconds(_ seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? ceiling : .zero }
        let ceilingSeconds = Double(ceiling.components.seconds)
        guard seconds < ceilingSeconds else { return ceiling }
        return .milliseconds(Int64((seconds * 1_000).rounded(.up)))
    }

    /// Whole seconds as a wait, negatives none and huge ones the ceiling.
    public static func seconds<Whole: BinaryInteger>(whole: Whole) -> Duration {
        .seconds(Int64(clamping: whole).clamped(to: 0...ceiling.components.seconds))
    }

    /// `duration` held to `0...ceiling`: a `Duration` can hold more seconds
    /// than its `components` can report, so this comes before reading them.
    public static func clamped(_ duration: Duration) -> Duration {
        min(max(duration, .zero), ceiling)
    }

    /// The wait in whole seconds, rounded up, within `0...ceiling`.
    public static func wholeSeconds(_ duration: Duration) -> Int64 {
        let parts = clamped(duration).components
        return parts.seconds + (parts.attoseconds > 0 ? 1 : 0)
    }

    /// "1 second", "45 seconds", "2 minutes", "3 hours" (rounded up, never
    /// below one second), or "more than a day".
    public static func phrase(_ duration: Duration) -> String {
        guard clamped(duration) <= longestNamed else { return "more than a day" }
        let seconds = max(1, wholeSeconds(duration))
        func unit(_ count: Int64, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        if seconds < 120 { return unit(seconds, "second") }
        if seconds < 3_600 { return unit((seconds + 59) / 60, "minute") }
        return unit((seconds + 3_599) / 3_600, "hour")
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
