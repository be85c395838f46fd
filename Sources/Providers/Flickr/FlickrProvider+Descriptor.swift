import PhotoCore
import Foundation
import Networking

extension FlickrProvider {
    /// Flickr as the app's registry knows it.
    public static let descriptor = ProviderDescriptor(
        service: service,
        summary: "Flickr's photo search (an API key from Flickr; without one, the embedded sandbox)",
        credentials: [
            EnvironmentVariable("FLICKR_API_KEY", "Flickr API key, as --api-key. Without it (and without --api-url) Flickr runs against the embedded sandbox."),
            EnvironmentVariable("FLICKR_API_SECRET", "The secret of the Flickr key, as --api-secret: it signs in and signs a signed-in account's requests. It is never saved."),
        ],
        credentialHint: "Set FLICKR_API_KEY or pass --api-key to search Flickr.",
        endpoint: EnvironmentVariable("FLICKR_API_URL", "Another Flickr-compatible endpoint, as --api-url; for example a sandbox started with flickr sandbox."),
        defaultBaseURL: defaultEndpoint,
        defaultPerPage: 30,
        perPageRange: perPageRange,
        maxResults: resultCap,
        liveSearch: .standard,
        supportedFilters: [.license, .sort, .taken, .uploaded, .user, .tag, .near, .bbox, .type, .safe],
        takesAPIKey: true,
        imageSizes: "thumbnail_url is the 150 px square (q), image_url the 1024 px size (b) or 640 px (z)",
        connect: connect)

    /// A pasted web link to another site: which of Flickr's links open.
    public func foreignLinkSentence(host: String) -> String {
        "That is a link to \(host), not to \(displayName): links to Flickr's photos, people, albums, galleries and group pools are opened. To search for words, type them."
    }

    private static func connect(_ setup: ProviderSetup) throws -> ProviderEndpoint {
        let key = try apiKey(option: setup.apiKey, environment: setup.environment)
        let network = setup.network
        guard key != nil || setup.apiURL != nil else {
            return .sandbox { base in
                FlickrProvider(
                    apiKey: "sandbox", endpoint: base.appendingPathComponent("services/rest/", isDirectory: true),
                    imageHost: base, network: network, displayName: "Flickr (sandbox)")
            }
        }
        let endpoint = setup.apiURL ?? defaultEndpoint
        // Flickr and its mirrors serve images from Flickr's static host (or
        // name them in each answer); only the sandbox serves its own.
        return .remote(FlickrProvider(
            apiKey: key ?? "sandbox", endpoint: endpoint, network: network,
            displayName: endpoint.host == defaultEndpoint.host ? "Flickr" : "Flickr at \(endpoint.host ?? "?")",
            licenseCache: AppPaths(environment: setup.environment).cacheDirectory
                .appendingPathComponent("flickr-licenses.json", isDirectory: false)))
    }
}
