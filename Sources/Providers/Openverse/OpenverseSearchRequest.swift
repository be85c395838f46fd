import PhotoCore
import Foundation
import Networking

/// Openverse's licence codes (`license=`), as the API spells them.
public enum OpenverseLicense: String, Sendable, Hashable, CaseIterable {
    case by, bySA = "by-sa", byND = "by-nd", byNC = "by-nc", byNCSA = "by-nc-sa", byNCND = "by-nc-nd"
    case cc0, pdm
}

/// Groups of licences (`license_type=`): what a use needs.
public enum OpenverseLicenseType: String, Sendable, Hashable, CaseIterable {
    case all, allCC = "all-cc", commercial, modification
}

public enum OpenverseCategory: String, Sendable, Hashable, CaseIterable {
    case photograph, illustration, digitizedArtwork = "digitized_artwork"
}

public enum OpenverseAspectRatio: String, Sendable, Hashable, CaseIterable {
    case square, tall, wide
}

/// The optional narrowing of one search. Every member left `nil` (or empty)
/// is not sent, so Openverse applies its own default.
public struct OpenverseFilters: Sendable, Hashable {
    /// Any of these licences; sent as one comma-separated `license`.
    public var licenses: [OpenverseLicense]
    public var licenseType: OpenverseLicenseType?
    public var category: OpenverseCategory?
    public var aspectRatio: OpenverseAspectRatio?
    /// Works by this creator. Openverse does not accept it together with `q`.
    public var creator: String?
    /// Where the works come from (`flickr`, `wikimedia`, `nasa`…); comma-separated.
    public var sources: [String]
    /// File extensions (`jpg`, `png`…); comma-separated.
    public var extensions: [String]
    /// Include works marked as mature; Openverse leaves them out by default.
    public var mature: Bool?

    public init(
        licenses: [OpenverseLicense] = [], licenseType: OpenverseLicenseType? = nil,
        category: OpenverseCategory? = nil, aspectRatio: OpenverseAspectRatio? = nil,
        creator: String? = nil, sources: [String] = [], extensions: [String] = [], mature: Bool? = nil
    ) {
        self.licenses = licenses
        self.licenseType = licenseType
        self.category = category
        self.aspectRatio = aspectRatio
        self.creator = creator
        self.sources = sources
        self.extensions = extensions
        self.mature = mature
    }

    public static let none = OpenverseFilters()
}

/// The parameters of one `GET /v1/images/` search, and the URL that asks for them.
public struct OpenverseSearchRequest: Sendable, Equatable {
    public static let defaultPerPage = 20
    /// What anonymous callers may ask for; more is answered with HTTP 401.
    public static let anonymousPerPageRange = 1...20
    /// What a registered app with a token may ask for.
    public static let authenticatedPerPageRange = 1...500
    /// How deep anonymous callers may page.
    public static let anonymousPageLimit = 20
    /// Openverse refuses longer queries.
    public static let maxQueryLength = 200
    public static let path = "v1/images/"

    /// Words to search for, sent as they are (`SearchQuery` has already
    /// trimmed them); `nil` or empty sends no `q` (a creator search).
    public var query: String?
    public var page: Int
    public var perPage: Int
    public var filters: OpenverseFilters

    public init(query: String?, page: Int = 1, perPage: Int = OpenverseSearchRequest.defaultPerPage, filters: OpenverseFilters = .none) {
        self.query = query
        self.page = page
        self.perPage = perPage
        self.filters = filters
    }

    /// The parameters in the order they are sent.
    public var parameters: [(String, String)] {
        var items: [(String, String)] = []
        if let query, !query.isEmpty { items.append(("q", query)) }
        items.append(("page", String(page)))
        items.append(("page_size", String(perPage)))
        if !filters.licenses.isEmpty { items.append(("license", filters.licenses.map(\.rawValue).joined(separator: ","))) }
        if let type = filters.licenseType { items.append(("license_type", type.rawValue)) }
        if let category = filters.category { items.append(("category", category.rawValue)) }
        if let ratio = filters.aspectRatio { items.append(("aspect_ratio", ratio.rawValue)) }
        if let creator = filters.creator?.trimmingCharacters(in: .whitespacesAndNewlines), !creator.isEmpty {
            items.append(("creator", creator))
        }
        let sources = filters.sources.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if !sources.isEmpty { items.append(("source", sources.joined(separator: ","))) }
        let extensions = filters.extensions.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if !extensions.isEmpty { items.append(("extension", extensions.joined(separator: ","))) }
        if let mature = filters.mature { items.append(("mature", mature ? "true" : "false")) }
        return items
    }

    /// `{base}/v1/images/?…`, keeping any path the base has (a proxy prefix).
    ///
    /// - Parameter authenticated: whether a token goes with the request,
    ///   which allows pages of up to 500.
    public func url(base: URL, authenticated: Bool = false) throws(OpenverseError) -> URL {
        let range = authenticated ? Self.authenticatedPerPageRange : Self.anonymousPerPageRange
        guard range.contains(perPage) else {
            if !authenticated, Self.authenticatedPerPageRange.contains(perPage) {
                throw .invalidRequest(OpenverseError.anonymousPageSizeAdvice(asked: perPage))
            }
            throw .invalidRequest(
                "Photos per page must be between \(range.lowerBound) and \(range.upperBound) for Openverse (got \(perPage)).")
        }
        guard page >= 1 else { throw .invalidRequest("The page number must be 1 or more (got \(page)).") }
        if !(query?.isEmpty ?? true), !(filters.creator?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true) {
            throw .invalidRequest("Openverse searches either for words or for a creator's works, not both at once. Leave out the words, or the creator.")
        }
        if let query, query.count > Self.maxQueryLength {
            throw .invalidRequest("Openverse accepts searches of at most \(Self.maxQueryLength) characters (this one has \(query.count)). Use fewer words.")
        }
        return try Self.endpoint(Self.path, base: base, query: parameters)
    }

    /// `{base}/{path}` with `query`, or `.invalidRequest` naming the address.
    static func endpoint(_ path: String, base: URL, query: [(String, String)] = []) throws(OpenverseError) -> URL {
        let unusable = OpenverseError.invalidRequest(
            "The Openverse address (\(base.host ?? "no host")) is not a usable http or https URL. Check --api-url (or \(OpenverseProvider.baseURLVariable)).")
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { throw unusable }
        var prefix = components.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.path = prefix + "/" + path
        if !query.isEmpty {
            components.queryItems = (components.queryItems ?? []) + query.map { URLQueryItem(name: $0.0, value: $0.1) }
            // URLComponents leaves "+" alone, but servers decode it as a space.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        guard let url = components.url else { throw unusable }
        return url
    }
}
