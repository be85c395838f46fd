import PhotoCore
import Foundation
import Networking

/// How requests to Shutterstock prove who is asking: an API token (sent as
/// `Authorization: Bearer`) or an app's consumer key and secret (HTTP Basic).
///
/// The values never leave this type except as the `Authorization` header:
/// its description, debug description and mirror show only which kind it is,
/// so printing, logging or dumping credentials cannot leak them.
public struct ShutterstockCredentials: Sendable, Equatable {
    /// The environment variables Shutterstock's own command-line tool reads.
    public static let tokenVariable = "SHUTTERSTOCK_API_TOKEN"
    public static let keyVariable = "SHUTTERSTOCK_KEY"
    public static let secretVariable = "SHUTTERSTOCK_SECRET"

    private enum Value: Sendable, Equatable {
        case token(String)
        case keyAndSecret(key: String, secret: String)
    }

    private let value: Value

    /// What the embedded sandbox is sent: it accepts any token.
    static let sandbox = ShutterstockCredentials(value: .token("sandbox"))

    /// A token from `POST /v2/oauth/access_token` or the developer console.
    public static func token(_ token: String) throws(ShutterstockError) -> ShutterstockCredentials {
        let token = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw .credentials("The Shutterstock API token is empty. Set \(tokenVariable) to your token.")
        }
        return ShutterstockCredentials(value: .token(token))
    }

    /// An app's consumer key and secret.
    public static func key(_ key: String, secret: String) throws(ShutterstockError) -> ShutterstockCredentials {
        let key = key.trimmingCharacters(in: .whitespacesAndNewlines)
        let secret = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else {
            throw .credentials("The Shutterstock consumer key is empty. Set \(keyVariable) to your app's consumer key.")
        }
        guard !secret.isEmpty else {
            throw .credentials("The Shutterstock consumer secret is empty. Set \(secretVariable) to your app's consumer secret.")
        }
        // Basic auth splits "key:secret" at the first colon, so a key holding one could never work.
        guard !key.contains(":") else {
            throw .credentials("The Shutterstock consumer key contains “:”, which HTTP Basic cannot carry. Check \(keyVariable).")
        }
        return ShutterstockCredentials(value: .keyAndSecret(key: key, secret: secret))
    }

    private init(value: Value) {
        self.value = value
    }

    /// Reads `SHUTTERSTOCK_API_TOKEN`, else `SHUTTERSTOCK_KEY` with
    /// `SHUTTERSTOCK_SECRET`.
    ///
    /// - Returns: `nil` when none of the three is set (the caller may fall
    ///   back to the sandbox).
    /// - Throws: `.credentials` when a variable is set but empty, or only one
    ///   of the key and the secret is set; the message names the variable.
    public init?(environment: [String: String]) throws(ShutterstockError) {
        let token = environment[Self.tokenVariable]
        let key = environment[Self.keyVariable]
        let secret = environment[Self.secretVariable]
        if let token {
            guard !token.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw .credentials(
                    "\(Self.tokenVariable) is set but empty. Put your Shutterstock API token in it, or unset it and set \(Self.keyVariable) and \(Self.secretVariable).")
            }
            self = try .token(token)
            return
        }
        switch (key, secret) {
        case (nil, nil):
            return nil
        case (.some, nil):
            throw .credentials(
                "\(Self.keyVariable) is set but \(Self.secretVariable) is not. Set both to your app's consumer key and secret, or set \(Self.tokenVariable) instead.")
        case (nil, .some):
            throw .credentials(
                "\(Self.secretVariable) is set but \(Self.keyVariable) is not. Set both to your app's consumer key and secret, or set \(Self.tokenVariable) instead.")
        case (.some(let key), .some(let secret)):
            for (name, text) in [(Self.keyVariable, key), (Self.secretVariable, secret)]
            where text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw .credentials(
                    "\(name) is set but empty. Set \(Self.keyVariable) and \(Self.secretVariable) to your app's consumer key and secret, or set \(Self.tokenVariable) instead.")
            }
            self = try .key(key, secret: secret)
        }
    }

    /// "API token" or "consumer key and secret", for messages.
    public var kind: String {
        switch value {
        case .token: "API token"
        case .keyAndSecret: "consumer key and secret"
        }
    }

    /// The value of the `Authorization` header.
    var authorization: String {
        switch value {
        case .token(let token):
            return "Bearer \(token)"
        case .keyAndSecret(let key, let secret):
            return "Basic \(Data("\(key):\(secret)".utf8).base64EncodedString())"
        }
    }

    /// Every form in which the credentials could come back in server text.
    var secrets: [String] {
        switch value {
        case .token(let token):
            return [token]
        case .keyAndSecret(let key, let secret):
            return [secret, key, Data("\(key):\(secret)".utf8).base64EncodedString()]
        }
    }
}

// MARK: - Descriptions without the values

extension ShutterstockCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "ShutterstockCredentials(\(kind): \(SecretRedactor.placeholder))" }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["kind": kind, "value": SecretRedactor.placeholder], displayStyle: .struct)
    }
}
