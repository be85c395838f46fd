import Foundation
import Logging

/// Flickr's REST API (or anything that speaks it, such as the sandbox).
///
/// Requests are built with `URLComponents` and sent through `NetworkManager`;
/// answers go through `FlickrResponseDecoder`. The API key travels only in
/// request URLs: it is redacted from every error and kept out of this type's
/// descriptions and mirror, so printing or logging a provider cannot leak it.
public struct FlickrProvider: PhotoProvider {
    public static let defaultEndpoint = URL(string: "https://api.flickr.com/services/rest/")!
    public static let defaultImageBaseURL = URL(string: "https://live.staticflickr.com/")!
    /// Flickr serves at most this many results per query; later pages repeat.
    public static let resultCap = 4_000
    /// Flickr's limit on `per_page`.
    public static let perPageRange = 1...500
    /// What every page asks for: the grid's and `/open`'s sizes (their widths
    /// and heights come with them), the owner's name and the date taken.
    public static let extras = ["url_q", "url_z", "url_l", "owner_name", "date_taken"]

    public let displayName: String
    public var maxResults: Int? { Self.resultCap }
    public let endpoint: URL
    public let imageBaseURL: URL

    private let apiKey: String
    private let network: NetworkManager
    private let logger = Logger(label: "flickr.provider")

    /// Largest REST answer accepted: a full 500-photo page is well under 2 MB.
    private static let maxResponseBytes = 16 << 20

    public init(
        apiKey: String,
        endpoint: URL = FlickrProvider.defaultEndpoint,
        imageBaseURL: URL = FlickrProvider.defaultImageBaseURL,
        network: NetworkManager,
        displayName: String = "Flickr"
    ) {
        self.apiKey = apiKey
        self.endpoint = endpoint
        self.imageBaseURL = imageBaseURL
        self.network = network
        self.displayName = displayName
    }

    // MARK: - PhotoProvider

    /// `flickr.photos.search` by relevance, safe photos only.
    public func search(_ query: String, page: Int, perPage: Int) async throws(FlickrError) -> PhotoPage {
        try await fetchPage(searchRequestURL(query, page: page, perPage: perPage))
    }

    /// `flickr.photos.getRecent`.
    public func recent(page: Int, perPage: Int) async throws(FlickrError) -> PhotoPage {
        try await fetchPage(recentRequestURL(page: page, perPage: perPage))
    }

    /// Checks the key cheaply with `flickr.test.echo`; throws `.api(code: 100, …)`
    /// for a rejected key.
    public func echo() async throws(FlickrError) {
        let data = try await send(requestURL(method: "flickr.test.echo", parameters: []))
        do {
            try FlickrResponseDecoder.checkSuccess(data)
        } catch {
            throw error.redacting(apiKey)
        }
    }

    public func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        if let image = photo.images[size] { return image.url }
        guard Self.isPathSafe(photo.server), Self.isPathSafe(photo.id), Self.isPathSafe(photo.secret) else {
            return nil
        }
        let name = size.urlSuffix.map { "\(photo.id)_\(photo.secret)_\($0).jpg" } ?? "\(photo.id)_\(photo.secret).jpg"
        return imageBaseURL.appendingPathComponent(photo.server).appendingPathComponent(name)
    }

    /// `https://www.flickr.com/photos/{owner}/{id}/`, the page Flickr's terms
    /// ask clients to link back to.
    public func photoPageURL(for photo: Photo) -> URL? {
        guard Self.isPathSafe(photo.owner), Self.isPathSafe(photo.id) else { return nil }
        return URL(string: "https://www.flickr.com/photos/\(photo.owner)/\(photo.id)/")
    }

    // MARK: - Requests

    func searchRequestURL(_ query: String, page: Int, perPage: Int) throws(FlickrError) -> URL {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw .invalidRequest("The search text is empty. Type some words to search for, or ask for recent photos.")
        }
        try Self.validate(page: page, perPage: perPage)
        return try requestURL(method: "flickr.photos.search", parameters: [
            ("text", text),
            ("sort", "relevance"),
            ("safe_search", "1"),
            ("content_type", "1"),
            ("media", "photos"),
            ("extras", Self.extras.joined(separator: ",")),
            ("page", String(page)),
            ("per_page", String(perPage)),
        ])
    }

    func recentRequestURL(page: Int, perPage: Int) throws(FlickrError) -> URL {
        try Self.validate(page: page, perPage: perPage)
        return try requestURL(method: "flickr.photos.getRecent", parameters: [
            ("extras", Self.extras.joined(separator: ",")),
            ("page", String(page)),
            ("per_page", String(perPage)),
        ])
    }

    /// The endpoint plus the parameters every call carries and `parameters`.
    func requestURL(method: String, parameters: [(String, String)]) throws(FlickrError) -> URL {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw .invalidRequest("The API address (\(endpoint.host ?? "no host")) is not a usable URL. Check --api-url.")
        }
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "method", value: method))
        items.append(URLQueryItem(name: "api_key", value: apiKey))
        items.append(URLQueryItem(name: "format", value: "json"))
        items.append(URLQueryItem(name: "nojsoncallback", value: "1"))
        items += parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        components.queryItems = items
        // URLComponents leaves "+" alone, but servers decode it as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else {
            throw .invalidRequest("The API address (\(endpoint.host ?? "no host")) is not a usable URL. Check --api-url.")
        }
        return url
    }

    private static func validate(page: Int, perPage: Int) throws(FlickrError) {
        guard perPageRange.contains(perPage) else {
            throw .invalidRequest("Photos per page must be between \(perPageRange.lowerBound) and \(perPageRange.upperBound) (got \(perPage)).")
        }
        guard page >= 1 else {
            throw .invalidRequest("The page number must be 1 or more (got \(page)).")
        }
    }

    // MARK: - Sending

    private func fetchPage(_ url: URL) async throws(FlickrError) -> PhotoPage {
        let data = try await send(url)
        do {
            let decoded = try FlickrResponseDecoder.decode(data)
            if decoded.skippedPhotos > 0 {
                logger.debug("Skipped photos without id, secret or server", metadata: [
                    "skipped": "\(decoded.skippedPhotos)", "page": "\(decoded.page.page)",
                ])
            }
            return decoded.page
        } catch {
            throw error.redacting(apiKey)
        }
    }

    private func send(_ url: URL) async throws(FlickrError) -> Data {
        do {
            return try await network.get(url, maxBytes: Self.maxResponseBytes).body
        } catch {
            throw FlickrError.network(error).redacting(apiKey)
        }
    }

    /// Ids, secrets, servers and NSIDs are short runs of letters, digits,
    /// `@`, `_` and `-`; anything else would change the URL's meaning.
    private static func isPathSafe(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy {
            ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "@" || $0 == "_" || $0 == "-"
        }
    }
}

// MARK: - Descriptions without the key

extension FlickrProvider: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "FlickrProvider(\(displayName), endpoint: \(endpoint.host ?? "?"), api key: \(Redaction.placeholder))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "displayName": displayName, "endpoint": endpoint, "imageBaseURL": imageBaseURL,
            "apiKey": Redaction.placeholder,
        ])
    }
}
