import PhotoCore
import Foundation
import Networking

extension ShutterstockProvider {
    /// Shutterstock as the app's registry knows it.
    public static let descriptor = ProviderDescriptor(
        service: service,
        summary: "Shutterstock's image search (an API token, or a consumer key and secret)",
        credentials: [
            EnvironmentVariable(ShutterstockCredentials.tokenVariable, "Shutterstock API token (Bearer)."),
            EnvironmentVariable(ShutterstockCredentials.keyVariable, "Shutterstock consumer key, with \(ShutterstockCredentials.secretVariable) (Basic authentication) when there is no token."),
            EnvironmentVariable(ShutterstockCredentials.secretVariable, "Shutterstock consumer secret, with \(ShutterstockCredentials.keyVariable)."),
        ],
        credentialHint: "Set \(ShutterstockCredentials.tokenVariable) (or \(ShutterstockCredentials.keyVariable) and \(ShutterstockCredentials.secretVariable)) to search Shutterstock.",
        endpoint: EnvironmentVariable(baseURLVariable, "Another Shutterstock-compatible endpoint, as --api-url."),
        defaultBaseURL: defaultBaseURL,
        defaultPerPage: 20,
        perPageRange: ShutterstockSearchRequest.perPageRange,
        maxResults: nil,
        liveSearch: .standard,
        supportedFilters: [.sort, .uploaded, .user, .type, .orientation, .safe],
        imageSizes: "thumbnail_url is the grid asset, image_url the 1000 px preview",
        connect: connect)

    private static func connect(_ setup: ProviderSetup) throws -> ProviderEndpoint {
        let credentials = try ShutterstockCredentials(environment: setup.environment)
        let network = setup.network
        guard let credentials else {
            if setup.apiURL != nil {
                throw ShutterstockError.credentials(
                    "\(baseURLVariable) or --api-url is set but no credentials are: set \(ShutterstockCredentials.tokenVariable), or \(ShutterstockCredentials.keyVariable) and \(ShutterstockCredentials.secretVariable).")
            }
            return .sandbox { base in
                // A token is always accepted by the sandbox.
                ShutterstockProvider(
                    credentials: .sandbox, baseURL: base, network: network, displayName: "Shutterstock (sandbox)")
            }
        }
        let base = setup.apiURL ?? defaultBaseURL
        return .remote(ShutterstockProvider(
            credentials: credentials, baseURL: base, network: network,
            displayName: base.host == defaultBaseURL.host ? "Shutterstock" : "Shutterstock at \(base.host ?? "?")"))
    }
}
