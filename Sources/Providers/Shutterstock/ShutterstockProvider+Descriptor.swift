import PhotoCore
import Foundation
import Networking

extension ShutterstockProvider {
    /// Shutterstock as the app's registry knows it.
    public static let descriptor = ProviderDescriptor(
        service: service,
        summary: "Shutterstock's image search (an API token, or a consumer key and secret)",
        credentialVariables: [
            ShutterstockCredentials.tokenVariable, ShutterstockCredentials.keyVariable,
            ShutterstockCredentials.secretVariable,
        ],
        credentialHint: "Set \(ShutterstockCredentials.tokenVariable) (or \(ShutterstockCredentials.keyVariable) and \(ShutterstockCredentials.secretVariable)) to search Shutterstock.",
        endpointVariable: baseURLVariable,
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
