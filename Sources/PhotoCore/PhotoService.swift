import Foundation
import Networking

/// Which service a provider speaks to: its id (what `--provider` and
/// `/provider` take, and what `--json` writes as `provider`) and its name.
///
/// A value, not an enum: each provider module declares its own, so adding a
/// provider changes no switch anywhere.
public struct PhotoService: Sendable, Hashable, CustomStringConvertible {
    /// Lower case, one word: `flickr`, `shutterstock`, `openverse`.
    public let id: String
    /// The service's own name: "Flickr".
    public let name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    public var description: String { id }
}

/// An error already worded for a person (what failed, why, what to do):
/// `userMessage(for:)` shows its description as it is.
public protocol WordedError: Error, CustomStringConvertible {}

/// An error a provider has already worded for a person, with its secrets
/// removed.
public protocol ProviderError: WordedError {}
