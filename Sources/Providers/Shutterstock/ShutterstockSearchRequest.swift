import PhotoCore
import Foundation
import Networking

/// Result orders of `GET /v2/images/search`.
public enum ShutterstockSort: String, Sendable, Hashable, CaseIterable {
    /// Shutterstock's default.
    case popular
    case relevance
    /// What "recent" means here.
    case newest
    case random
}

public enum ShutterstockImageType: String, Sendable, Hashable, CaseIterable {
    case photo, illustration, vector
}

public enum ShutterstockOrientation: String, Sendable, Hashable, CaseIterable {
    case horizontal, vertical
}

/// The parameters of one image search, and the URL that asks for them.
public struct ShutterstockSearchRequest: Sendable, Equatable {
    public static let defaultPerPage = 20
    /// Shutterstock's limit on `per_page`.
    public static let perPageRange = 1...500
    public static let path = "v2/images/search"

    /// Words that must all match; `-word` excludes. `nil` or empty asks for
    /// everything, which the API accepts (sorted by `sort`).
    public var query: String?
    public var page: Int
    public var perPage: Int
    public var sort: ShutterstockSort
    /// Sent as one `image_type` parameter per type.
    public var imageTypes: [ShutterstockImageType]
    public var orientation: ShutterstockOrientation?
    public var safe: Bool
    /// Only this contributor's images.
    public var contributor: String?
    /// Added on or after / on or before these days (`YYYY-MM-DD`).
    public var addedFrom: String?
    public var addedTo: String?

    public init(
        query: String?, page: Int = 1, perPage: Int = ShutterstockSearchRequest.defaultPerPage,
        sort: ShutterstockSort = .popular, imageTypes: [ShutterstockImageType] = [],
        orientation: ShutterstockOrientation? = nil, safe: Bool = true
    ) {
        self.query = query
        self.page = page
        self.perPage = perPage
        self.sort = sort
        self.imageTypes = imageTypes
        self.orientation = orientation
        self.safe = safe
    }

    /// The parameters in the order they are sent; arrays repeat their name.
    public var parameters: [(String, String)] {
        var items: [(String, String)] = []
        if let query = query.map(Self.apiQuery), !query.isEmpty { items.append(("query", query)) }
        items.append(("page", String(page)))
        items.append(("per_page", String(perPage)))
        items.append(("sort", sort.rawValue))
        items += imageTypes.map { ("image_type", $0.rawValue) }
        if let orientation { items.append(("orientation", orientation.rawValue)) }
        if let contributor { items.append(("contributor", contributor)) }
        if let addedFrom { items.append(("added_date_start", addedFrom)) }
        if let addedTo { items.append(("added_date_end", addedTo)) }
        items.append(("view", "minimal"))
        items.append(("safe", safe ? "true" : "false"))
        return items
    }

    /// `{base}/v2/images/search?…`, keeping any path the base has (a proxy
    /// prefix) and any query it carries.
    public func url(base: URL) throws(ShutterstockError) -> URL {
        guard perPage >= Self.perPageRange.lowerBound, perPage <= Self.perPageRange.upperBound else {
            throw .invalidRequest(
                "Photos per page must be between \(Self.perPageRange.lowerBound) and \(Self.perPageRange.upperBound) for Shutterstock (got \(perPage)).")
        }
        guard page >= 1 else { throw .invalidRequest("The page number must be 1 or more (got \(page)).") }
        let unusable = ShutterstockError.invalidRequest(
            "The Shutterstock address (\(base.host ?? "no host")) is not a usable http or https URL. Check --api-url (or SHUTTERSTOCK_API_URL).")
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { throw unusable }
        var prefix = components.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.path = prefix + "/" + Self.path
        components.queryItems = (components.queryItems ?? []) + parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        // URLComponents leaves "+" alone, but servers decode it as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else { throw unusable }
        return url
    }

    /// The provider protocol's `-word` exclusion in Shutterstock's syntax
    /// (`NOT word`); other words, and Shutterstock's own `AND`/`OR`/`NOT`
    /// and parentheses, pass as typed.
    static func apiQuery(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace })
            .map { $0.count > 1 && $0.hasPrefix("-") ? "NOT \($0.dropFirst())" : String($0) }
            .joined(separator: " ")
    }
}
