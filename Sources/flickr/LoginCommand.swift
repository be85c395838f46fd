import ArgumentParser
import PhotoCore
import FlickrService
import Foundation
import Sandbox
import Services

/// `flickr login`: signs in to Flickr (OAuth 1.0a) and keeps the access
/// token in the config folder.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to Flickr.",
        discussion: """
            Asks Flickr for a sign-in token, prints the address where you approve the app, reads the \
            code Flickr then shows (NNN-NNN-NNN) from a line of standard input, and keeps the access \
            token in $XDG_CONFIG_HOME/flickr/ (~/.config/flickr/, mode 0600). Needs your key and its \
            secret (FLICKR_API_KEY and FLICKR_API_SECRET, or --api-key and --api-secret; both are on your \
            key's page at flickr.com/services/apps/). Without them, signs in to the embedded sandbox.

            In two steps, for scripts: `flickr login --no-wait` keeps the pending token and prints the \
            address; `flickr login --verifier CODE` completes it.
            """)

    @OptionGroup var account: FlickrAccountOptions

    @Flag(name: .customLong("no-wait"), help: "Keep the pending sign-in and print the address; finish with --verifier.")
    var noWait = false

    @Option(help: ArgumentHelp("Complete the pending sign-in with the code Flickr showed.", valueName: "code"))
    var verifier: String?

    func validate() throws {
        if noWait, verifier != nil { throw ValidationError("--no-wait and --verifier are two steps: use one at a time.") }
    }

    func run() async throws {
        try await account.withSession { session in
            let oauth = session.oauth
            let store = session.store
            if let verifier {
                // The pending token of an earlier --no-wait, if it is this server's; else a fresh one.
                var pending = try store.pending().flatMap { $0.issuer == oauth.issuer ? $0 : nil }
                if pending == nil { pending = try await oauth.requestToken() }
                guard let pending else { return }
                try await finish(pending, verifier: verifier, session: session)
                return
            }
            let pending = try await oauth.requestToken()
            let address = oauth.authorizeURL(for: pending)
            if noWait {
                try store.save(pending)
                print(session.link(address))
                FileHandle.standardError.write(Data("Approve the app there, then run: flickr login --verifier CODE\n".utf8))
                return
            }
            FileHandle.standardError.write(Data("Open this address, approve the app, and type the code Flickr shows:\n".utf8))
            print(session.link(address))
            FileHandle.standardError.write(Data("Code: ".utf8))
            guard let line = readLine(strippingNewline: true), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw CommandFailure(message: "No code was typed, so nobody is signed in. Run `flickr login` again.")
            }
            try await finish(pending, verifier: line, session: session)
        }
    }

    /// Exchanges the verifier; a refused one leaves nobody signed in.
    private func finish(_ pending: FlickrPendingLogin, verifier: String, session: FlickrAccountSession) async throws {
        let signedIn: FlickrAccount
        do {
            signedIn = try await session.oauth.exchange(pending, verifier: verifier)
        } catch {
            try session.store.removePending()
            if case .verifierRefused = error { try session.store.removeAccount() }
            throw error
        }
        try session.store.save(signedIn)
        try session.store.removePending()
        print("Signed in to \(session.serverName) as \(signedIn.signedInAs).")
    }
}

/// The options every account command takes: Flickr's key, its secret and
/// address (the OAuth endpoints sit beside the REST one).
struct FlickrAccountOptions: ParsableArguments {
    @Option(name: .customLong("api-key"), help: ArgumentHelp(
        "Flickr API key (default: $FLICKR_API_KEY). Without a key or URL the embedded sandbox is used.", valueName: "key"))
    var apiKey: String?

    @Option(name: .customLong("api-secret"), help: ArgumentHelp(
        "The key's secret, for signing in (default: $FLICKR_API_SECRET).", valueName: "secret"))
    var apiSecret: String?

    @Option(name: .customLong("api-url"), help: ArgumentHelp(
        "Flickr's REST address BASE/services/rest/ (default: $FLICKR_API_URL); sign-in then uses BASE/services/oauth/.",
        valueName: "url"))
    var apiURL: String?

    /// Runs `body` with the sign-in client for the chosen server (the
    /// embedded sandbox without key or URL), then closes the connection.
    func withSession<Value>(_ body: (FlickrAccountSession) async throws -> Value) async throws -> Value {
        let environment = ProcessInfo.processInfo.environment
        let key: String?
        do {
            key = try FlickrProvider.apiKey(option: apiKey, environment: environment)
        } catch {
            throw CommandFailure(error)
        }
        let secret = (apiSecret ?? environment["FLICKR_API_SECRET"]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let secret, secret.isEmpty {
            throw CommandFailure(message: "\(apiSecret != nil ? "--api-secret" : "FLICKR_API_SECRET") is empty. Set it to your key's secret.")
        }
        let connection: ServiceConnection
        do {
            connection = try await ServiceConnector.connect(
                ServiceChoice(provider: FlickrProvider.service.id, apiKey: apiKey, apiURL: apiURL),
                registry: ProviderOptions.registry, environment: environment)
        } catch {
            throw CommandFailure(message: error.description)
        }
        do {
            guard let rest = (connection.provider as? FlickrProvider)?.endpoint else {
                throw CommandFailure(message: "Signing in is for Flickr only.")
            }
            // The sandbox (embedded, or named by --api-url without a key) accepts its documented pair.
            let consumerKey = key ?? FlickrOAuthServer.defaultConsumerKey
            guard let consumerSecret = secret ?? (key == nil ? FlickrOAuthServer.defaultConsumerSecret : nil) else {
                throw FlickrAccountError.missingSecret
            }
            if connection.isSandboxed { connection.announceSandbox() }
            let session = FlickrAccountSession(
                oauth: FlickrOAuth(consumerKey: consumerKey, consumerSecret: consumerSecret, restEndpoint: rest,
                                   network: connection.network),
                store: FlickrAccountStore(environment: environment),
                serverName: connection.isSandboxed ? "the Flickr sandbox" : connection.provider.displayName,
                links: isatty(STDOUT_FILENO) == 1 && environment["TERM"].map { $0 != "dumb" } ?? false)
            let value = try await body(session)
            await connection.close()
            return value
        } catch {
            await connection.close()
            if error is CommandFailure { throw error }
            throw CommandFailure(error)
        }
    }
}

/// One account command's tools: the sign-in client, the token file, and how to show an address.
struct FlickrAccountSession {
    let oauth: FlickrOAuth
    let store: FlickrAccountStore
    let serverName: String
    let links: Bool

    /// The address, as a terminal hyperlink (OSC 8) where stdout is a terminal.
    func link(_ url: URL) -> String {
        let text = url.absoluteString
        // Built from percent-encoded parts, but checked: nothing below a space reaches the terminal.
        guard links, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return text }
        return "\u{1B}]8;;\(text)\u{1B}\\\(text)\u{1B}]8;;\u{1B}\\"
    }
}
