import Foundation

/// A reader of a provider's answers, offered to Scripts/fuzz: the provider
/// module names its own, and the provider list carries them to the fuzz
/// harness, so a new provider is fuzzed without the harness naming it.
///
/// `check` must not crash, hang or overread on any input; it returns the
/// promise the reader broke (an unprintable error sentence, a photo with no
/// id), or nil. The harness turns a broken promise into a crash report.
public struct FuzzEntry: Sendable {
    public let name: String
    /// Files of recorded real answers to seed it with, as shell globs from
    /// the package's root (`Tests/CommonsTests/Recorded/*.json`).
    public let recorded: [String]
    /// Seeds of its own, beyond the recorded answers.
    public let seeds: @Sendable () -> [(name: String, bytes: Data)]
    public let check: @Sendable (Data) -> String?

    public init(
        name: String, recorded: [String] = [], seeds: @escaping @Sendable () -> [(name: String, bytes: Data)],
        check: @escaping @Sendable (Data) -> String?
    ) {
        self.name = name
        self.recorded = recorded
        self.seeds = seeds
        self.check = check
    }

    /// The broken promise when `message` (quoted on screens and in logs)
    /// holds a control character from the input.
    public static func unprintable(_ message: String) -> String? {
        guard let control = message.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else { return nil }
        return "an error message holds control character \(String(control.value, radix: 16)): \(message.debugDescription)"
    }
}
