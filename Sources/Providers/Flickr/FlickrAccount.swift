import Foundation
import Networking

/// The person signed in: their access token and who they are. Stored in the
/// config folder only (see `FlickrAccountStore`), never printed: the
/// description and mirror show the names, not the token.
public struct FlickrAccount: Codable, Sendable, Equatable {
    /// The OAuth folder the token was issued by (`…/services/oauth/`).
    public var issuer: String
    public var token: String
    public var tokenSecret: String
    public var userNSID: String
    public var username: String
    public var fullname: String
    /// The API key the token was issued to (nil in files written before it
    /// was kept): a token signs only that key's calls.
    public var consumerKey: String?

    public init(
        issuer: String, token: String, tokenSecret: String, userNSID: String, username: String, fullname: String,
        consumerKey: String? = nil
    ) {
        self.issuer = issuer
        self.token = token
        self.tokenSecret = tokenSecret
        self.userNSID = userNSID
        self.username = username
        self.fullname = fullname
        self.consumerKey = consumerKey
    }

    enum CodingKeys: String, CodingKey {
        case issuer, token = "oauth_token", tokenSecret = "oauth_token_secret"
        case userNSID = "user_nsid", username, fullname, consumerKey = "consumer_key"
    }

    /// "Ana Paula Souza (Ana Souza, 12345678@N01)", from names that came over the wire.
    public var signedInAs: String {
        let name = FlickrAccount.printable(fullname)
        let user = FlickrAccount.printable(username)
        let nsid = FlickrAccount.printable(userNSID)
        return name.isEmpty || name == user ? "\(user) (\(nsid))" : "\(name) (\(user), \(nsid))"
    }

    /// Text from a server, without control characters, short enough for one line.
    static func printable(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint && $0.properties.generalCategory != .control }
        return String(String.UnicodeScalarView(kept).prefix(80))
    }
}

/// A request token waiting for its verifier (`flickr login --no-wait`).
public struct FlickrPendingLogin: Codable, Sendable, Equatable {
    public var issuer: String
    public var token: String
    public var tokenSecret: String

    enum CodingKeys: String, CodingKey {
        case issuer, token = "oauth_token", tokenSecret = "oauth_token_secret"
    }
}

// Tokens are secrets: never print or reflect them.
extension FlickrAccount: CustomStringConvertible, CustomReflectable {
    public var description: String { "FlickrAccount(\(signedInAs), token: \(SecretRedactor.placeholder))" }
    public var customMirror: Mirror { Mirror(self, children: ["signedInAs": signedInAs]) }
}

extension FlickrPendingLogin: CustomStringConvertible, CustomReflectable {
    public var description: String { "FlickrPendingLogin(\(SecretRedactor.placeholder))" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
