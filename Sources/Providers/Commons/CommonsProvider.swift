import PhotoCore
import Foundation
import Networking
import Logging

/// Wikimedia Commons' file search through MediaWiki's Action API
/// (`GET …/w/api.php?action=query&generator=search…`), or anything that
/// speaks it, such as the sandbox.
///
/// Keyless. Requests are built by `CommonsSearchRequest`, answers read by
/// `CommonsResponseDecoder` (formatversion 1 or 2) and fitted to `Photo` in
/// `CommonsProvider+Photo.swift`. Each page's `continue` object is kept and
/// sent back whole for the page after it.
public struct CommonsProvider: PhotoProvider {
    public static let defaultEndpoint = URL(string: "https://commons.wikimedia.org/w/api.php")!
    /// The variable the app reads `--api-url`'s default from.
    public static let endpointVariable = "COMMONS_API_URL"

    public var service: PhotoService { Self.service }
    public static let service = PhotoService(id: "commons", name: "Wikimedia Commons")
    public let displayName: String
    /// The address of `api.php`.
    public let endpoint: URL
    public let retryPolicy: RetryPolicy
    /// `iiurlwidth`: the thumbnail width asked for.
    public let thumbnailWidth: Int

    let network: NetworkManager
    /// Where a wait (lag, rate limit) is said.
    let notices: ServiceNotices?
    let continuations: CommonsContinuations
    let logger = Logger(label: "flickr.commons")

    /// Largest answer accepted: a page of 50 files with their metadata is about 200 KB.
    static let maxResponseBytes = 8 << 20

    public init(
        endpoint: URL = CommonsProvider.defaultEndpoint,
        network: NetworkManager,
        displayName: String? = nil,
        retryPolicy: RetryPolicy = RetryPolicy(),
        notices: ServiceNotices? = nil,
        thumbnailWidth: Int = CommonsSearchRequest.defaultThumbnailWidth
    ) {
        self.endpoint = endpoint
        self.network = network
        self.displayName = displayName ?? Self.displayName(for: endpoint)
        self.retryPolicy = retryPolicy
        self.notices = notices
        self.thumbnailWidth = thumbnailWidth
        continuations = CommonsContinuations()
    }

    /// "Wikimedia Commons", or "Wikimedia Commons at HOST" for any other address.
    static func displayName(for endpoint: URL) -> String {
        let host = endpoint.host?.lowercased() ?? "?"
        return host == defaultEndpoint.host ? service.name : "\(service.name) at \(host)"
    }

    public var maxResults: Int? { CommonsSearchRequest.resultCap }

    public var perPageRange: ClosedRange<Int> { CommonsSearchRequest.perPageRange }

    // MARK: - PhotoProvider

    /// Files matching `query` (its filters as Commons search keywords), in
    /// Commons' order.
    public func search(_ query: SearchQuery, page: Int, perPage: Int) async throws(CommonsError) -> PhotoPage {
        let terms = try Self.searchTerms(for: query)
        var request = CommonsSearchRequest(
            search: terms.search, page: page, limit: perPage, sort: terms.sort, thumbnailWidth: thumbnailWidth)
        // Past the cap the server only refuses: say so without asking.
        guard request.offset < CommonsSearchRequest.resultCap else { throw .pastLastPage(page: request.page) }
        request.continuation = continuations.continuation(for: request)
        let answer = try await files(request)
        continuations.remember(answer.continuation, after: request)
        return Self.page(from: answer, request: request)
    }

    static let noRecentPhotos = "Wikimedia Commons has no recent photos here; type words to search, or add sort:newest."

    public func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        Self.imageURL(in: photo, covering: need)
    }

    /// The photo carries every size Commons gives (two thumbnails and the
    /// file): nothing to ask for.
    public func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? {
        try Task.checkCancellation()
        return imageURL(for: photo, covering: need)
    }

    public func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        Self.imageURL(in: photo, covering: size.requirement)
    }

    /// The file's description page on Commons.
    public func photoPageURL(for photo: Photo) -> URL? {
        photo.credit?.pageURL
    }

    /// What Commons says about the file now (one `pageids=` query); when
    /// that fails for any reason but cancellation, what the result carried.
    public func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        do throws(CommonsError) {
            return try await photoDetails(id: photo.id)
        } catch {
            if case .network(.cancelled) = error { throw error }
            logger.debug("Details came from the search result", metadata: ["error": "\(error.description)"])
            return Self.details(from: photo)
        }
    }

    /// `flickr info ID` for a Commons page id.
    public func photoDetails(id: String) async throws(CommonsError) -> PhotoDetails {
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        guard Self.isPageID(trimmed) else {
            throw .invalidRequest("“\(ResponseExcerpt.make(id, limit: 60))” is not a Commons file id (those are page ids such as 9809267).")
        }
        let file = try await file(at: CommonsSearchRequest.fileURL(endpoint: endpoint, pageID: trimmed, thumbnailWidth: thumbnailWidth))
        return Self.details(from: file)
    }

    /// Page ids are positive decimal numbers.
    static func isPageID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 12 && text.allSatisfy { $0.isASCII && $0.isNumber } && text.first != "0"
    }

    // MARK: - Commons' own terms

    /// One page of a search as Commons described it.
    public func files(_ request: CommonsSearchRequest) async throws(CommonsError) -> CommonsAnswer {
        try await query(request.url(endpoint: endpoint), page: request.page)
    }

    /// The one file a `pageids=` or `titles=` query names.
    func file(at url: URL) async throws(CommonsError) -> CommonsFile {
        let answer = try await query(url, page: nil)
        guard let file = answer.files.first else {
            throw .invalidRequest("Wikimedia Commons has no such file.")
        }
        return file
    }
}
