import PhotoCore
import Foundation

extension CommonsProvider {
    /// Wikimedia Commons as the app's registry knows it. It needs no key,
    /// so it always talks to the real API (or the address given): there is
    /// no sandbox stand-in to fall back to silently.
    public static let descriptor = ProviderDescriptor(
        service: service,
        summary: "Wikimedia Commons' freely licensed files (no key needed)",
        credentials: [],
        credentialHint: "Wikimedia Commons needs no key.",
        endpoint: EnvironmentVariable(endpointVariable, "Another MediaWiki api.php for Wikimedia Commons, as --api-url; for example the sandbox's, http://127.0.0.1:8080/w/api.php. Commons needs no key."),
        defaultBaseURL: defaultEndpoint,
        defaultPerPage: CommonsSearchRequest.defaultPerPage,
        perPageRange: CommonsSearchRequest.perPageRange,
        maxResults: CommonsSearchRequest.resultCap,
        // Wikimedia asks clients to send requests in series and not to hammer search.
        liveSearch: LiveSearchPolicy(delay: .milliseconds(600), minimumDelay: .milliseconds(400), shortestPartialWord: 3),
        supportedFilters: [.sort, .type],
        needsNoCredentials: true,
        imageSizes: "thumbnail_url is Commons' \(CommonsSearchRequest.defaultThumbnailWidth) px thumbnail, image_url a 1,280 px one (or the file itself when smaller)",
        photoID: PhotoIDShape(wording: "a page id such as 9809267") { isPageID($0) },
        connect: { setup in
            .remote(CommonsProvider(endpoint: setup.apiURL ?? defaultEndpoint, network: setup.network, notices: setup.notices))
        })

    /// A pasted web link to another site: only Commons' file pages open.
    public func foreignLinkSentence(host: String) -> String {
        "That is a link to \(host), not to \(displayName): Wikimedia Commons' file pages (commons.wikimedia.org/wiki/File:…) are opened. To search for words, type them."
    }

    /// What `gsrsearch` and `gsrsort` become for a query.
    struct SearchTerms: Equatable {
        var search: String
        var sort: String?
    }

    /// The query's words with its filters as Commons search keywords
    /// (`type:` as `filetype:`), and its sort; what Commons search cannot
    /// express is refused in a sentence.
    static func searchTerms(for query: SearchQuery) throws(CommonsError) -> SearchTerms {
        let filters = query.filters
        if let refusal = filters.refusal(by: service.name, supporting: descriptor.supportedFilters) {
            throw .invalidRequest(refusal)
        }
        var words = query.text.isEmpty ? [] : [query.text]
        switch filters.type {
        case nil: break
        // Commons calls every raster image a bitmap, photo or not.
        case .photo?: words.insert("filetype:bitmap", at: 0)
        case .vector?: words.insert("filetype:drawing", at: 0)
        case .illustration?:
            throw .invalidRequest("Wikimedia Commons cannot tell illustrations from photos; it has type:photo (bitmaps) and type:vector (drawings).")
        }
        let sort: String?
        switch filters.sort {
        case nil, .relevant?: sort = nil
        case .newest?: sort = "create_timestamp_desc"
        case .oldest?: sort = "create_timestamp_asc"
        case let other?:
            throw .invalidRequest("Wikimedia Commons sorts by relevance or upload date only (sort:relevant, sort:newest, sort:oldest), not sort:\(other.rawValue).")
        }
        guard !query.text.isEmpty else {
            throw .invalidRequest("Wikimedia Commons needs words to search for; add some to the filters.")
        }
        return SearchTerms(search: words.joined(separator: " "), sort: sort)
    }
}
