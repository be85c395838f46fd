import PhotoCore
import Foundation
import Networking

/// A registered Openverse app's client id and secret, exchanged for an
/// access token that allows pages of up to 500.
///
/// The values never leave this type except in the token request's form:
/// its description, debug description and mirror show neither, so printing,
/// logging or dumping credentials cannot leak them.
public struct OpenverseCredentials: Sendable, Equatable {
    public static let clientIDVariable = "OPENVERSE_CLIENT_ID"
    public static let clientSecretVariable = "OPENVERSE_CLIENT_SECRET"

    let clientID: String
    let clientSecret: String

    public init(clientID: String, clientSecret: String) throws(OpenverseError) {
        let id = clientID.trimmingCharacters(in: .whitespacesAndNewlines)
        let secret = clientSecret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !id.isEmpty else {
            throw .credentials("The Openverse client id is empty. Set \(Self.clientIDVariable) to your registered app's client id.")
        }
        guard !secret.isEmpty else {
            throw .credentials("The Openverse client secret is empty. Set \(Self.clientSecretVariable) to your registered app's client secret.")
        }
        self.clientID = id
        self.clientSecret = secret
    }

    /// Reads `OPENVERSE_CLIENT_ID` and `OPENVERSE_CLIENT_SECRET`.
    ///
    /// - Returns: `nil` when neither is set: Openverse is then used anonymously.
    /// - Throws: `.credentials` when only one is set, or one is empty; the
    ///   message names the variable.
    public init?(environment: [String: String]) throws(OpenverseError) {
        let id = environment[Self.clientIDVariable]
        let secret = environment[Self.clientSecretVariable]
        switch (id, secret) {
        case (nil, nil):
            return nil
        case (.some, nil):
            throw .credentials(
                "\(Self.clientIDVariable) is set but \(Self.clientSecretVariable) is not. Set both to your registered app's client id and secret, or unset \(Self.clientIDVariable) to use Openverse without credentials.")
        case (nil, .some):
            throw .credentials(
                "\(Self.clientSecretVariable) is set but \(Self.clientIDVariable) is not. Set both to your registered app's client id and secret, or unset \(Self.clientSecretVariable) to use Openverse without credentials.")
        case (.some(let id), .some(let secret)):
            for (name, text) in [(Self.clientIDVariable, id), (Self.clientSecretVariable, secret)]
            where text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw .credentials(
                    "\(name) is set but empty. Set \(Self.clientIDVariable) and \(Self.clientSecretVariable) to your registered app's client id and secret, or unset both to use Openverse without credentials.")
            }
            try self.init(clientID: id, clientSecret: secret)
        }
    }

    /// The form of `POST /v1/auth_tokens/token/`.
    var tokenForm: [(String, String)] {
        [("client_id", clientID), ("client_secret", clientSecret), ("grant_type", "client_credentials")]
    }

    /// What must never reach a screen; the client id is not secret on its
    /// own, but together with the secret it is the app's identity.
    var secrets: [String] { [clientSecret, clientID] }
}

// MARK: - Descriptions without the values

extension OpenverseCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "OpenverseCredentials(client id and secret: \(SecretRedactor.placeholder))" }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["clientID": SecretRedactor.placeholder, "clientSecret": SecretRedactor.placeholder], displayStyle: .struct)
    }
}
