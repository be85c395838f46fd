import ArgumentParser
import FlickrKit
import Foundation
import Sandbox

/// Which service to talk to, shared by every subcommand.
///
/// `--api-key` (or `FLICKR_API_KEY`) selects Flickr; `--api-url` (or
/// `FLICKR_API_URL`) overrides the REST endpoint; neither starts the embedded
/// sandbox. The key is held in memory only.
struct ProviderOptions: ParsableArguments {
    @Option(name: .customLong("api-key"), help: ArgumentHelp(
        "Flickr API key (default: $FLICKR_API_KEY). Without a key or URL the embedded sandbox is used.",
        valueName: "key"))
    var apiKey: String?

    @Option(name: .customLong("api-url"), help: ArgumentHelp(
        "Flickr-compatible REST endpoint (default: $FLICKR_API_URL, else https://api.flickr.com/services/rest/).",
        valueName: "url"))
    var apiURL: String?

    @Option(name: .customLong("per-page"), help: "Results per page, 1–500.")
    var perPage: Int = 30

    func validate() throws {
        guard (1...500).contains(perPage) else {
            throw ValidationError("--per-page must be between 1 and 500 (got \(perPage)).")
        }
        if let apiURL, Self.restURL(apiURL) == nil {
            throw ValidationError("--api-url must be an http or https URL (got \"\(apiURL)\").")
        }
    }

    /// The key in use, from the flag or the environment (never printed).
    func resolvedKey(environment: [String: String]) -> String? {
        (apiKey ?? environment["FLICKR_API_KEY"]).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Connects to the selected service, starting the embedded sandbox when needed.
    func connect(environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> ServiceConnection {
        let key = resolvedKey(environment: environment)
        let urlText = (apiURL ?? environment["FLICKR_API_URL"]).flatMap { $0.isEmpty ? nil : $0 }
        let network = NetworkManager()

        if key == nil, urlText == nil {
            let sandbox: SandboxServer
            do {
                sandbox = try await Self.startEmbeddedSandbox()
            } catch {
                await network.shutdown()
                throw CommandFailure(message: "Could not start the embedded sandbox: \(error)")
            }
            let provider = FlickrProvider(
                apiKey: "sandbox", endpoint: sandbox.restURL, imageHost: sandbox.baseURL,
                network: network, displayName: "sandbox")
            return ServiceConnection(provider: provider, network: network, sandbox: sandbox)
        }

        guard let endpoint = Self.restURL(urlText ?? "https://api.flickr.com/services/rest/") else {
            await network.shutdown()
            throw ValidationError("FLICKR_API_URL must be an http or https URL.")
        }
        let isFlickr = endpoint.host == "api.flickr.com"
        // Flickr and its mirrors serve images from Flickr's static host (or
        // name them in each answer); only the sandbox serves its own.
        let provider = FlickrProvider(
            apiKey: key ?? "sandbox", endpoint: endpoint, network: network,
            displayName: isFlickr ? "Flickr" : (endpoint.host ?? "Flickr"))
        return ServiceConnection(provider: provider, network: network, sandbox: nil)
    }

    /// The embedded sandbox prefers one fixed loopback port, so image URLs
    /// (the cache keys) stay the same from run to run and the last session's
    /// thumbnails come from the disk cache; another free port if it is taken.
    static let preferredSandboxPort = 47_839

    private static func startEmbeddedSandbox() async throws -> SandboxServer {
        var configuration = SandboxConfiguration()
        configuration.port = preferredSandboxPort
        if let server = try? await SandboxServer.start(configuration) { return server }
        configuration.port = 0
        return try await SandboxServer.start(configuration)
    }

    static func restURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        return url
    }
}

/// A connected service: the provider, the one `NetworkManager`, and the
/// embedded sandbox when one was started. Call `close()` before exiting.
struct ServiceConnection: Sendable {
    let provider: FlickrProvider
    let network: NetworkManager
    let sandbox: SandboxServer?

    /// One line for the banner: which service, and whether it is synthetic.
    var banner: String {
        if let sandbox {
            return """
                No API key: searching the embedded sandbox (synthetic photos, \(sandbox.baseURL.absoluteString)).
                Set FLICKR_API_KEY or pass --api-key to search Flickr.
                """
        }
        return "Searching \(provider.displayName)."
    }

    func close() async {
        await network.shutdown()
        await sandbox?.shutdown()
    }
}
