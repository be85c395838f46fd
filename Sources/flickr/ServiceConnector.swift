import ArgumentParser
import FlickrKit
import Foundation
import Sandbox

/// Builds one provider per service from the options and the environment.
/// Services without credentials or URL are served by the one embedded
/// sandbox: started now for the chosen service, and on first use for the
/// others (`deferred`), so a launch never pays for a server it does not use.
struct ServiceConnector {
    let options: ProviderOptions
    let environment: [String: String]
    let network: NetworkManager
    let sandbox = EmbeddedSandbox()
    private(set) var sandboxed: Set<PhotoService> = []
    var notes: [String] = []

    init(options: ProviderOptions, environment: [String: String], network: NetworkManager) {
        self.options = options
        self.environment = environment
        self.network = network
    }

    mutating func provider(for service: PhotoService, deferred: Bool = false) async throws -> any PhotoProvider {
        // --api-url belongs to the chosen service; the others read their variable.
        let urlOption = service == options.provider ? options.apiURL : nil
        switch service {
        case .flickr:
            let key = try FlickrProvider.apiKey(option: options.apiKey, environment: environment)
            let urlText = urlOption ?? nonEmpty(environment["FLICKR_API_URL"])
            guard key != nil || urlText != nil else {
                let (sandbox, network) = (self.sandbox, self.network)
                return try await sandboxed(.flickr, deferred: deferred, maxResults: FlickrProvider.resultCap) {
                    let server = try await sandbox.server()
                    return FlickrProvider(
                        apiKey: "sandbox", endpoint: server.restURL, imageHost: server.baseURL,
                        network: network, displayName: "Flickr (sandbox)")
                }
            }
            let endpoint = try url(urlText ?? FlickrProvider.defaultEndpoint.absoluteString, variable: "FLICKR_API_URL")
            // Flickr and its mirrors serve images from Flickr's static host
            // (or name them in each answer); only the sandbox serves its own.
            return FlickrProvider(
                apiKey: key ?? "sandbox", endpoint: endpoint, network: network,
                displayName: endpoint.host == "api.flickr.com" ? "Flickr" : "Flickr at \(endpoint.host ?? "?")")
        case .shutterstock:
            let credentials = try ShutterstockCredentials(environment: environment)
            let urlText = urlOption ?? nonEmpty(environment[ShutterstockProvider.baseURLVariable])
            guard let credentials else {
                if urlText != nil {
                    throw ShutterstockError.credentials(
                        "\(ShutterstockProvider.baseURLVariable) or --api-url is set but no credentials are: set SHUTTERSTOCK_API_TOKEN, or SHUTTERSTOCK_KEY and SHUTTERSTOCK_SECRET.")
                }
                let (sandbox, network) = (self.sandbox, self.network)
                return try await sandboxed(.shutterstock, deferred: deferred, maxResults: nil) {
                    let server = try await sandbox.server()
                    return ShutterstockProvider(
                        credentials: try .token("sandbox"), baseURL: server.baseURL, network: network,
                        displayName: "Shutterstock (sandbox)")
                }
            }
            let base = try url(urlText ?? ShutterstockProvider.defaultBaseURL.absoluteString, variable: ShutterstockProvider.baseURLVariable)
            return ShutterstockProvider(
                credentials: credentials, baseURL: base, network: network,
                displayName: base.host == "api.shutterstock.com" ? "Shutterstock" : "Shutterstock at \(base.host ?? "?")")
        case .openverse:
            // The lead wires Openverse in (registry, flags, sandbox); until then it is not offered.
            throw ValidationError("Openverse is not available in this build yet.")
        }
    }

    /// The sandbox's stand-in for `service`: made now, or on first use.
    private mutating func sandboxed(
        _ service: PhotoService, deferred: Bool, maxResults: Int?,
        make: @escaping @Sendable () async throws -> any PhotoProvider
    ) async throws -> any PhotoProvider {
        sandboxed.insert(service)
        guard deferred else { return try await make() }
        return DeferredProvider(
            service: service, displayName: "\(service.name) (sandbox)", maxResults: maxResults, make: make)
    }

    private func url(_ text: String, variable: String) throws -> URL {
        guard let url = ProviderOptions.restURL(text) else {
            throw ValidationError("\(variable) must be an http or https URL.")
        }
        return url
    }

    private func nonEmpty(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// The embedded sandbox, started at most once, by whichever provider needs
/// it first.
actor EmbeddedSandbox {
    /// The embedded sandbox prefers one fixed loopback port, so image URLs
    /// (the cache keys) stay the same from run to run and the last session's
    /// thumbnails come from the disk cache; another free port if it is taken.
    static let preferredPort = 47_839

    private var starting: Task<SandboxServer, any Error>?
    /// The server, once started.
    private(set) var started: SandboxServer?

    func server() async throws -> SandboxServer {
        let task = starting ?? Task { try await Self.start() }
        starting = task
        let server = try await task.value
        started = server
        return server
    }

    func shutdown() async {
        guard let starting else { return }
        if let server = try? await starting.value { await server.shutdown() }
    }

    private static func start() async throws -> SandboxServer {
        var configuration = SandboxConfiguration()
        configuration.port = preferredPort
        if let preferred = try? await SandboxServer.start(configuration) { return preferred }
        configuration.port = 0
        do {
            return try await SandboxServer.start(configuration)
        } catch {
            throw CommandFailure(message: "Could not start the embedded sandbox: \(error)")
        }
    }
}
