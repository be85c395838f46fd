import ArgumentParser
import FlickrKit
import Foundation
import Sandbox

/// Builds one provider per service from the options and the environment,
/// starting the embedded sandbox once, for whichever services need it.
struct ServiceConnector {
    let options: ProviderOptions
    let environment: [String: String]
    let network: NetworkManager
    private(set) var sandbox: SandboxServer?
    private(set) var sandboxed: Set<PhotoService> = []
    var notes: [String] = []

    init(options: ProviderOptions, environment: [String: String], network: NetworkManager) {
        self.options = options
        self.environment = environment
        self.network = network
    }

    /// The embedded sandbox prefers one fixed loopback port, so image URLs
    /// (the cache keys) stay the same from run to run and the last session's
    /// thumbnails come from the disk cache; another free port if it is taken.
    static let preferredSandboxPort = 47_839

    mutating func provider(for service: PhotoService) async throws -> any PhotoProvider {
        // --api-url belongs to the chosen service; the others read their variable.
        let urlOption = service == options.provider ? options.apiURL : nil
        switch service {
        case .flickr:
            let key = try FlickrProvider.apiKey(option: options.apiKey, environment: environment)
            let urlText = urlOption ?? nonEmpty(environment["FLICKR_API_URL"])
            guard key != nil || urlText != nil else {
                let server = try await startSandbox(for: .flickr)
                return FlickrProvider(
                    apiKey: "sandbox", endpoint: server.restURL, imageHost: server.baseURL,
                    network: network, displayName: "Flickr (sandbox)")
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
                let server = try await startSandbox(for: .shutterstock)
                return ShutterstockProvider(
                    credentials: try .token("sandbox"), baseURL: server.baseURL, network: network,
                    displayName: "Shutterstock (sandbox)")
            }
            let base = try url(urlText ?? ShutterstockProvider.defaultBaseURL.absoluteString, variable: ShutterstockProvider.baseURLVariable)
            return ShutterstockProvider(
                credentials: credentials, baseURL: base, network: network,
                displayName: base.host == "api.shutterstock.com" ? "Shutterstock" : "Shutterstock at \(base.host ?? "?")")
        }
    }

    private mutating func startSandbox(for service: PhotoService) async throws -> SandboxServer {
        sandboxed.insert(service)
        if let sandbox { return sandbox }
        var configuration = SandboxConfiguration()
        configuration.port = Self.preferredSandboxPort
        let server: SandboxServer
        do {
            if let preferred = try? await SandboxServer.start(configuration) {
                server = preferred
            } else {
                configuration.port = 0
                server = try await SandboxServer.start(configuration)
            }
        } catch {
            throw CommandFailure(message: "Could not start the embedded sandbox: \(error)")
        }
        sandbox = server
        return server
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
