import PhotoCore
import Foundation
import Networking
import Logging

/// Shutterstock's image search (API v2), or anything that speaks it, such as
/// the sandbox.
///
/// Requests are built by `ShutterstockSearchRequest` and sent through
/// `NetworkManager` with the credentials in the `Authorization` header;
/// answers go through `ShutterstockResponseDecoder` and are fitted to `Photo`
/// in `ShutterstockProvider+Photo.swift`. The credentials are scrubbed from
/// every error and kept out of this type's descriptions and mirror.
public struct ShutterstockProvider: PhotoProvider {
    public static let defaultBaseURL = URL(string: "https://api.shutterstock.com")!
    /// The variable the app reads `--api-url`'s default from. (Shutterstock's
    /// own command-line tool calls its equivalent `SHUTTERSTOCK_CUSTOM_URL`.)
    public static let baseURLVariable = "SHUTTERSTOCK_API_URL"

    public var service: PhotoService { Self.service }
    public static let service = PhotoService(id: "shutterstock", name: "Shutterstock")
    public let displayName: String
    /// Shutterstock documents no cap on how deep a search may page; a free
    /// account's smaller library shows up as a short last page instead.
    public var maxResults: Int? { nil }
    public var perPageRange: ClosedRange<Int> { ShutterstockSearchRequest.perPageRange }
    public let baseURL: URL
    /// The order of `search` results (`recent` is always `.newest`).
    public let searchSort: ShutterstockSort
    public let retryPolicy: RetryPolicy

    private let credentials: ShutterstockCredentials
    private let network: NetworkManager
    private let logger = Logger(label: "flickr.shutterstock")

    /// Largest answer accepted: a full 500-image page is well under 2 MB.
    private static let maxResponseBytes = 16 << 20

    public init(
        credentials: ShutterstockCredentials,
        baseURL: URL = ShutterstockProvider.defaultBaseURL,
        network: NetworkManager,
        displayName: String = "Shutterstock",
        searchSort: ShutterstockSort = .popular,
        retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.credentials = credentials
        self.baseURL = baseURL
        self.network = network
        self.displayName = displayName
        self.searchSort = searchSort
        self.retryPolicy = retryPolicy
    }

    // MARK: - PhotoProvider

    /// Images matching every word of `query` (`-word` excludes), safe only.
    public func search(_ query: SearchQuery, page: Int, perPage: Int) async throws(ShutterstockError) -> PhotoPage {
        try await fetchPage(searchRequest(query, page: page, perPage: perPage))
    }

    /// The newest images: a search with no query, sorted by `newest`.
    public func recent(page: Int, perPage: Int) async throws(ShutterstockError) -> PhotoPage {
        try await fetchPage(recentRequest(page: page, perPage: perPage))
    }

    public func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        Self.imageURL(in: photo, size: size)
    }

    /// Search results carry every size Shutterstock has of an image.
    public func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        photo.carriedImageURL(covering: need)
    }

    public func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? {
        try Task.checkCancellation()
        return imageURL(for: photo, covering: need)
    }

    /// Shutterstock's details are what the search result carried.
    public func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        PhotoDetails(photo: photo, pageURL: photoPageURL(for: photo))
    }

    /// `https://www.shutterstock.com/image-photo/{id}`, which leads to the
    /// image's page.
    public func photoPageURL(for photo: Photo) -> URL? {
        guard !photo.id.isEmpty, photo.id.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.decimalDigits.contains($0) })
        else { return nil }
        return URL(string: "https://www.shutterstock.com/image-photo/\(photo.id)")
    }

    // MARK: - Shutterstock's own terms

    /// One page of results as Shutterstock described them, for callers that
    /// want more than `PhotoPage` carries (search id, image types, page URLs).
    public func searchImages(_ request: ShutterstockSearchRequest) async throws(ShutterstockError) -> ShutterstockSearchResults {
        let data = try await send(request.url(base: baseURL))
        do throws(ShutterstockError) {
            var results = try ShutterstockResponseDecoder.decodeSearch(data, redacting: credentials.secrets)
            // Counts that came empty: this is the page asked for, at the size asked for.
            if results.page == 0 { results.page = request.page }
            if results.perPage == 0 { results.perPage = request.perPage }
            if results.skippedItems > 0 {
                logger.debug("Skipped images without an id", metadata: [
                    "skipped": "\(results.skippedItems)", "page": "\(results.page)",
                ])
            }
            return results
        } catch {
            throw error.redacting(credentials.secrets)
        }
    }

    /// The request for `query`, its filters in Shutterstock's terms.
    func searchRequest(_ query: SearchQuery, page: Int, perPage: Int) throws(ShutterstockError) -> ShutterstockSearchRequest {
        var request = ShutterstockSearchRequest(query: query.text, page: page, perPage: perPage, sort: searchSort)
        let filters = query.filters
        if let refusal = filters.refusal(by: "Shutterstock", supporting: Self.descriptor.supportedFilters) {
            throw .invalidRequest(refusal)
        }
        switch filters.sort {
        case nil: break
        case .relevant?: request.sort = .relevance
        case .interesting?: request.sort = .popular
        case .newest?: request.sort = .newest
        case let other?:
            throw .invalidRequest("Shutterstock cannot sort by \(other.rawValue); it sorts by relevant, interesting (popular) or newest.")
        }
        if let type = filters.type, let imageType = ShutterstockImageType(rawValue: type.rawValue) {
            request.imageTypes = [imageType]
        }
        switch filters.orientation {
        case nil: break
        case .landscape?: request.orientation = .horizontal
        case .portrait?: request.orientation = .vertical
        case .square?: throw .invalidRequest("Shutterstock cannot filter square images; it has orientation:landscape and orientation:portrait.")
        }
        if let safe = filters.safe { request.safe = safe }
        request.contributor = filters.user
        request.addedFrom = filters.uploaded?.from?.firstDay
        request.addedTo = filters.uploaded?.to?.lastDay
        return request
    }

    func recentRequest(page: Int, perPage: Int) -> ShutterstockSearchRequest {
        ShutterstockSearchRequest(query: nil, page: page, perPage: perPage, sort: .newest)
    }

    /// What every call sends besides the `User-Agent` `NetworkManager` adds.
    var headers: [(String, String)] {
        [("Authorization", credentials.authorization), ("Accept", "application/json")]
    }

    // MARK: - Sending

    private func fetchPage(_ request: ShutterstockSearchRequest) async throws(ShutterstockError) -> PhotoPage {
        let results = try await searchImages(request)
        return PhotoPage(
            page: results.page, pages: results.pages, perPage: results.perPage, total: results.total,
            photos: results.images.map(Self.photo(from:)))
    }

    /// The one place a REST call goes out: each attempt GETs `url`, turns a
    /// non-2xx answer into the error its status and body describe, and the
    /// retry policy tries again when that error is transient (transport
    /// failures, 5xx, 429 after its `Retry-After`).
    private func send(_ url: URL) async throws(ShutterstockError) -> Data {
        let secrets = credentials.secrets
        let host = url.host ?? "?"
        return try await retryPolicy.run(
            classify: { error in
                if let wait = error.retryAfter { return .retryAfter(wait) }
                return error.isTransient ? .retry : .stop
            },
            cancelled: { .network(.cancelled) },
            onRetry: { error, wait, retry in
                logger.debug("Retrying a Shutterstock call", metadata: [
                    "host": "\(host)", "retry": "\(retry)", "wait": "\(wait)", "error": "\(error.description)",
                ])
            }
        ) { _ throws(ShutterstockError) in
            let response: NetworkManager.Response
            do throws(NetworkError) {
                response = try await network.get(url, headers: headers, maxBytes: Self.maxResponseBytes, errorBodies: true)
            } catch {
                throw Self.error(from: error, redacting: secrets).redacting(secrets)
            }
            guard (200..<300).contains(response.status) else {
                throw ShutterstockError.http(
                    status: response.status, contentType: response.contentType,
                    retryAfter: response.retryAfter, body: response.body, redacting: secrets
                ).redacting(secrets)
            }
            return response.body
        }
    }

    static func error(from error: NetworkError, redacting secrets: [String]) -> ShutterstockError {
        if case .httpStatus(let status, _) = error { return .http(status: status, redacting: secrets) }
        return .network(error)
    }
}

// MARK: - Descriptions without the credentials

extension ShutterstockProvider: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "ShutterstockProvider(\(displayName), base URL: \(baseURL.host ?? "?"), \(credentials.kind): \(SecretRedactor.placeholder))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "displayName": displayName, "baseURL": baseURL, "searchSort": searchSort,
            "credentials": SecretRedactor.placeholder,
        ])
    }
}
