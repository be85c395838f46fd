import PhotoCore
import Foundation

extension OpenverseProvider {
    /// Openverse as the app's registry knows it. It needs no key, so it
    /// always talks to the real API (or the address given): there is no
    /// sandbox stand-in to fall back to silently.
    public static let descriptor = ProviderDescriptor(
        service: service,
        summary: "Openverse's openly licensed images (no key needed; a client id and secret allow larger pages)",
        credentials: [
            EnvironmentVariable(OpenverseCredentials.clientIDVariable, "Openverse client id, with \(OpenverseCredentials.clientSecretVariable): the app fetches a token and may ask for pages of up to 500 (20 without)."),
            EnvironmentVariable(OpenverseCredentials.clientSecretVariable, "Openverse client secret, with \(OpenverseCredentials.clientIDVariable)."),
        ],
        credentialHint: "Openverse needs no key; set \(OpenverseCredentials.clientIDVariable) and \(OpenverseCredentials.clientSecretVariable) for pages of more than 20.",
        endpoint: EnvironmentVariable(baseURLVariable, "Another Openverse-compatible endpoint, as --api-url. Openverse needs no key, so without this it always talks to the real API."),
        defaultBaseURL: defaultBaseURL,
        defaultPerPage: OpenverseSearchRequest.defaultPerPage,
        perPageRange: OpenverseSearchRequest.authenticatedPerPageRange,
        maxResults: OpenverseSearchRequest.anonymousPageLimit * OpenverseSearchRequest.anonymousPerPageRange.upperBound,
        // Anonymous callers get a small hourly budget: wait longer before a live search.
        liveSearch: LiveSearchPolicy(delay: .milliseconds(800), minimumDelay: .milliseconds(800), shortestPartialWord: 3),
        supportedFilters: [.license, .sort, .user, .type, .orientation, .safe],
        needsNoCredentials: true,
        imageSizes: "thumbnail_url is Openverse's thumbnail (up to 600 px), image_url the work's own file",
        photoID: .uuid,
        connect: { setup in
            .remote(OpenverseProvider(
                credentials: try OpenverseCredentials(environment: setup.environment),
                baseURL: setup.apiURL ?? defaultBaseURL, network: setup.network, notices: setup.notices))
        })

    /// A search's filters in Openverse's parameters; what it cannot honour
    /// is refused in a sentence.
    static func filters(for filters: SearchFilters) throws(OpenverseError) -> OpenverseFilters {
        if let refusal = filters.refusal(by: "Openverse", supporting: descriptor.supportedFilters) {
            throw .invalidRequest(refusal)
        }
        var mapped = OpenverseFilters()
        // Licence groups become the exact licences they admit, so
        // `license:commercial,cc0` means any of them, as on Flickr.
        let kinds = filters.licenses.reduce(into: Set<License.Kind>()) { $0.formUnion($1.kinds) }
        mapped.licenses = OpenverseLicense.allCases.filter { license in
            License.Kind(rawValue: license.rawValue).map(kinds.contains) ?? false
        }
        if filters.sort != nil, filters.sort != .relevant {
            throw .invalidRequest("Openverse sorts by relevance only (sort:relevant).")
        }
        mapped.creator = filters.user
        switch filters.type {
        case nil: break
        case .photo?: mapped.category = .photograph
        case .illustration?: mapped.category = .illustration
        case .vector?: throw .invalidRequest("Openverse has no vector images; it has type:photo and type:illustration.")
        }
        switch filters.orientation {
        case nil: break
        case .landscape?: mapped.aspectRatio = .wide
        case .portrait?: mapped.aspectRatio = .tall
        case .square?: mapped.aspectRatio = .square
        }
        if filters.safe == false { mapped.mature = true }
        return mapped
    }
}
