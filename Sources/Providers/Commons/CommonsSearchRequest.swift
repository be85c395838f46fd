import Foundation

/// One page of a Commons file search as `api.php` takes it:
/// `action=query&generator=search&gsrnamespace=6&prop=imageinfo…`.
///
/// The first page asks `continue=`; every later page sends back the whole
/// `continue` object of the page before (it carries `gsroffset` and any
/// other member the server needs), or, when that is not at hand (a jump to
/// a page, a restored session), the offset the page starts at.
public struct CommonsSearchRequest: Sendable, Hashable {
    /// `gsrsearch`: the words and the search keywords filters became.
    public var search: String
    /// 1-based, with `limit` files a page.
    public var page: Int
    public var limit: Int
    /// `gsrsort`, when not by relevance.
    public var sort: String?
    /// The previous page's `continue` object, for page `page`.
    public var continuation: [String: String]?
    /// `iiurlwidth`: the width of the thumbnail the grid draws.
    public var thumbnailWidth: Int

    /// At most 50 thumbnails are scaled per request; past that Commons
    /// answers in pieces (`iicontinue`).
    public static let perPageRange = 1...50
    public static let defaultPerPage = 30
    /// Search reaches offset + limit ≤ 10,000.
    public static let resultCap = 10_000
    /// A width Wikimedia keeps ready (its standard thumbnail steps), enough
    /// for a third of a wide terminal in sixels.
    public static let defaultThumbnailWidth = 500

    /// The `extmetadata` fields the app reads; asking for these alone keeps
    /// each answer small.
    public static let metadataFields = [
        "ObjectName", "ImageDescription", "Artist", "Credit", "LicenseShortName", "LicenseUrl", "License",
        "UsageTerms", "AttributionRequired", "Attribution", "DateTimeOriginal",
    ]

    public init(
        search: String, page: Int, limit: Int, sort: String? = nil, continuation: [String: String]? = nil,
        thumbnailWidth: Int = CommonsSearchRequest.defaultThumbnailWidth
    ) {
        self.search = search
        self.page = max(1, page)
        self.limit = min(max(limit, Self.perPageRange.lowerBound), Self.perPageRange.upperBound)
        self.sort = sort
        self.continuation = continuation
        self.thumbnailWidth = thumbnailWidth
    }

    /// Where the page starts in the whole result list, saturating.
    public var offset: Int {
        let (product, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
        return overflow ? .max : product
    }

    /// The parameters, in the order they are sent.
    public var parameters: [(String, String)] {
        var items: [(String, String)] = [
            ("action", "query"), ("format", "json"), ("formatversion", "2"),
            ("generator", "search"), ("gsrsearch", search), ("gsrnamespace", "6"), ("gsrlimit", String(limit)),
            ("gsrinfo", "totalhits|suggestion"),
        ]
        if let sort { items.append(("gsrsort", sort)) }
        items += Self.fileParameters(thumbnailWidth: thumbnailWidth)
        if let continuation, !continuation.isEmpty {
            items += continuation.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        } else {
            if offset > 0 { items.append(("gsroffset", String(offset))) }
            items.append(("continue", ""))
        }
        return items
    }

    /// What every file query asks of `imageinfo`.
    static func fileParameters(thumbnailWidth: Int) -> [(String, String)] {
        [
            ("prop", "imageinfo"), ("iiprop", "url|size|mime|extmetadata"),
            ("iiurlwidth", String(thumbnailWidth)), ("iiextmetadatafilter", metadataFields.joined(separator: "|")),
        ]
    }

    public func url(endpoint: URL) throws(CommonsError) -> URL {
        try Self.url(endpoint: endpoint, parameters: parameters)
    }

    /// One file by page id (`flickr info ID`, details), or by title (a
    /// pasted link).
    public static func fileURL(
        endpoint: URL, pageID: String? = nil, title: String? = nil, thumbnailWidth: Int = defaultThumbnailWidth
    ) throws(CommonsError) -> URL {
        var items: [(String, String)] = [("action", "query"), ("format", "json"), ("formatversion", "2")]
        if let pageID { items.append(("pageids", pageID)) }
        if let title { items.append(("titles", title)) }
        return try url(endpoint: endpoint, parameters: items + fileParameters(thumbnailWidth: thumbnailWidth))
    }

    static func url(endpoint: URL, parameters: [(String, String)]) throws(CommonsError) -> URL {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https", components.host != nil
        else {
            throw .invalidRequest("“\(endpoint.absoluteString)” is not a web address of api.php; --api-url (or \(CommonsProvider.endpointVariable)) takes one such as \(CommonsProvider.defaultEndpoint.absoluteString).")
        }
        components.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        // `+` is a space to PHP: spell it out, as a search may hold one.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else { throw .invalidRequest("The search could not be made into a URL.") }
        return url
    }
}
