import Foundation

/// What a service's photo ids look like, so a command can refuse a mistyped
/// one before asking the service, in a sentence that says the shape.
public struct PhotoIDShape: Sendable {
    /// The shape, for a refusal: "letters and digits".
    public let wording: String
    private let test: @Sendable (String) -> Bool

    public init(wording: String, accepts test: @escaping @Sendable (String) -> Bool) {
        self.wording = wording
        self.test = test
    }

    public func accepts(_ id: String) -> Bool { test(id) }

    /// Flickr's and Shutterstock's numbers, and most services' keys.
    public static let lettersAndDigits = PhotoIDShape(wording: "letters and digits") { id in
        !id.isEmpty && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// `8-4-4-4-12` hexadecimal digits, as Openverse names its works.
    public static let uuid = PhotoIDShape(wording: "a UUID such as 4bc43a04-ef46-4544-a0c1-63c63f56e276") { id in
        UUID(uuidString: id) != nil
    }
}
