import ArgumentParser
import PhotoCore
import FlickrService
import Foundation
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
        try require(!noWait || verifier == nil, "--no-wait and --verifier are two steps: use one at a time.")
    }

    func run() async throws {
        try await account.withSession { session in
            if let verifier {
                try await finish(session.pendingSignIn(), verifier: verifier, session: session)
                return
            }
            let pending = try await session.oauth.requestToken()
            let address = session.oauth.authorizeURL(for: pending)
            if noWait {
                try session.store.save(pending)
                print(session.link(address))
                FileHandle.standardError.write(Data("Approve the app there, then run: flickr login --verifier CODE\n".utf8))
                return
            }
            FileHandle.standardError.write(Data("Open this address, approve the app, and type the code Flickr shows:\n".utf8))
            print(session.link(address))
            FileHandle.standardError.write(Data("Code: ".utf8))
            let line = readLine(strippingNewline: true) ?? ""
            try require(
                !line.trimmingCharacters(in: .whitespaces).isEmpty,
                CommandFailure(message: "No code was typed, so nobody is signed in. Run `flickr login` again."))
            try await finish(pending, verifier: line, session: session)
        }
    }

    private func finish(_ pending: FlickrPendingLogin, verifier: String, session: FlickrAccountSession) async throws {
        let signedIn = try await session.finish(pending, verifier: verifier)
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
        return try await worded {
            try await FlickrAccountSession.with(
                apiKey: apiKey, apiSecret: apiSecret, apiURL: apiURL, registry: ProviderOptions.registry,
                environment: environment,
                links: isatty(STDOUT_FILENO) == 1 && environment["TERM"].map { $0 != "dumb" } ?? false
            ) { session in
                session.connection.announceSandbox()
                return try await body(session)
            }
        }
    }
}
