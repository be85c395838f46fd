import FlickrService
import Foundation
import PhotoCore
import Sandbox

/// What the account commands (`login`, `whoami`) work with: Flickr's
/// sign-in client for the chosen server, the token file, the server's
/// name, and how to show an address.
public struct FlickrAccountSession: Sendable {
    public let oauth: FlickrOAuth
    public let store: FlickrAccountStore
    public let serverName: String
    /// The connection under it, for the sandbox's announcement.
    public let connection: ServiceConnection
    let links: Bool

    /// Connects to Flickr (the embedded sandbox without key or URL), runs
    /// `body` with the session, and closes the connection.
    ///
    /// - Parameter links: whether addresses may be terminal hyperlinks.
    public static func with<Value>(
        apiKey: String?, apiSecret: String?, apiURL: String?, registry: ProviderRegistry,
        environment: [String: String], links: Bool,
        _ body: (FlickrAccountSession) async throws -> Value
    ) async throws -> Value {
        let key = try FlickrProvider.apiKey(option: apiKey, environment: environment)
        let secret = (apiSecret ?? environment["FLICKR_API_SECRET"]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let secret, secret.isEmpty {
            throw ServiceSetupError("\(apiSecret != nil ? "--api-secret" : "FLICKR_API_SECRET") is empty. Set it to your key's secret.")
        }
        let choice = ServiceChoice(provider: FlickrProvider.service.id, apiKey: apiKey, apiURL: apiURL)
        return try await ServiceConnector.withConnection(choice, registry: registry, environment: environment) { connection in
            guard let rest = (connection.provider as? FlickrProvider)?.endpoint else {
                throw ServiceSetupError("Signing in is for Flickr only.")
            }
            // The sandbox (embedded, or named by --api-url without a key) accepts its documented pair.
            let consumerKey = key ?? FlickrOAuthServer.defaultConsumerKey
            guard let consumerSecret = secret ?? (key == nil ? FlickrOAuthServer.defaultConsumerSecret : nil) else {
                throw FlickrAccountError.missingSecret
            }
            let session = FlickrAccountSession(
                oauth: FlickrOAuth(consumerKey: consumerKey, consumerSecret: consumerSecret, restEndpoint: rest,
                                   network: connection.network),
                store: FlickrAccountStore(environment: environment),
                serverName: connection.isSandboxed ? "the Flickr sandbox" : connection.provider.displayName,
                connection: connection, links: links)
            return try await body(session)
        }
    }

    /// The address, as a terminal hyperlink (OSC 8) where stdout is a terminal.
    public func link(_ url: URL) -> String {
        let text = url.absoluteString
        // Built from percent-encoded parts, but checked: nothing below a space reaches the terminal.
        guard links, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return text }
        return "\u{1B}]8;;\(text)\u{1B}\\\(text)\u{1B}]8;;\u{1B}\\"
    }

    /// The sign-in `--verifier` completes: an earlier `--no-wait`'s when it
    /// is this server's, else a fresh one.
    public func pendingSignIn() async throws(FlickrAccountError) -> FlickrPendingLogin {
        if let pending = try store.pending(), pending.issuer == oauth.issuer { return pending }
        return try await oauth.requestToken()
    }

    /// Exchanges the verifier and keeps the account; a refused verifier
    /// leaves nobody signed in.
    public func finish(_ pending: FlickrPendingLogin, verifier: String) async throws(FlickrAccountError) -> FlickrAccount {
        try await oauth.finish(pending, verifier: verifier, store: store)
    }

    /// Who the stored sign-in belongs to, as Flickr answers `flickr.test.login` now.
    public func signedIn() async throws(FlickrAccountError) -> FlickrAccount {
        guard var account = try store.account() else { throw FlickrAccountError.notSignedIn }
        let user = try await oauth.testLogin(account)
        account.userNSID = user.nsid
        if !user.username.isEmpty { account.username = user.username }
        return account
    }
}
