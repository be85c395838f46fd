import PhotoCore
import Foundation
import Networking
import Logging

/// Openverse's image search (`GET /v1/images/`), or anything that speaks it,
/// such as the sandbox.
///
/// Anonymous by default; with `OpenverseCredentials` it fetches an access
/// token once (`OpenverseTokenStore`), sends it as `Authorization: Bearer`,
/// renews it shortly before it expires and once more when Openverse says it
/// expired. Requests are built by `OpenverseSearchRequest`, answers decoded
/// by `OpenverseResponseDecoder` and fitted to `Photo` in
/// `OpenverseProvider+Photo.swift`. The client secret and the token are
/// scrubbed from every error and kept out of descriptions and mirrors.
public struct OpenverseProvider: PhotoProvider {
    public static let defaultBaseURL = URL(string: "https://api.openverse.org")!
    /// The variable the app reads `--api-url`'s default from.
    public static let baseURLVariable = "OPENVERSE_API_URL"
    public static let tokenPath = "v1/auth_tokens/token/"

    public var service: PhotoService { Self.service }
    public static let service = PhotoService(id: "openverse", name: "Openverse")
    public let displayName: String
    public let baseURL: URL
    public let retryPolicy: RetryPolicy

    let credentials: OpenverseCredentials?
    let tokens: OpenverseTokenStore
    /// Where a rate limit's wait is said.
    let notices: ServiceNotices?
    let network: NetworkManager
    let logger = Logger(label: "flickr.openverse")

    /// Largest answer accepted: a full 500-result page is about 1 MB.
    static let maxResponseBytes = 16 << 20

    public init(
        credentials: OpenverseCredentials? = nil,
        baseURL: URL = OpenverseProvider.defaultBaseURL,
        network: NetworkManager,
        displayName: String? = nil,
        retryPolicy: RetryPolicy = RetryPolicy(),
        notices: ServiceNotices? = nil
    ) {
        self.init(
            credentials: credentials, baseURL: baseURL, network: network, displayName: displayName,
            retryPolicy: retryPolicy, tokens: OpenverseTokenStore(), notices: notices)
    }

    /// With a token store of the caller's (tests pass one with their own clock).
    init(
        credentials: OpenverseCredentials?, baseURL: URL, network: NetworkManager, displayName: String?,
        retryPolicy: RetryPolicy, tokens: OpenverseTokenStore, notices: ServiceNotices? = nil
    ) {
        self.notices = notices
        self.credentials = credentials
        self.baseURL = baseURL
        self.network = network
        self.displayName = displayName ?? Self.displayName(for: baseURL)
        self.retryPolicy = retryPolicy
        self.tokens = tokens
    }

    /// "Openverse", or "Openverse at HOST" for any other address.
    static func displayName(for base: URL) -> String {
        let host = base.host?.lowercased() ?? "?"
        return host == defaultBaseURL.host ? "Openverse" : "Openverse at \(host)"
    }

    /// Whether searches carry a token (and may ask for up to 500 per page).
    public var isAuthenticated: Bool { credentials != nil }

    /// The photos per page this caller may ask for.
    public var perPageRange: ClosedRange<Int> {
        isAuthenticated ? OpenverseSearchRequest.authenticatedPerPageRange : OpenverseSearchRequest.anonymousPerPageRange
    }

    /// Anonymous callers may page 20 deep, 20 a page; `page_count` in each
    /// answer narrows it further. Registered apps: whatever `page_count` says.
    public var maxResults: Int? {
        isAuthenticated ? nil : OpenverseSearchRequest.anonymousPageLimit * OpenverseSearchRequest.anonymousPerPageRange.upperBound
    }

    // MARK: - PhotoProvider

    /// Works matching `query` (its filters in Openverse's terms), in
    /// Openverse's relevance order. The query's text is already its words
    /// joined by single spaces: it goes to the wire as it is.
    public func search(_ query: SearchQuery, page: Int, perPage: Int) async throws(OpenverseError) -> PhotoPage {
        let filters = try Self.filters(for: query.filters)
        guard !query.text.isEmpty || !(filters.creator ?? "").isEmpty else {
            throw .invalidRequest("The search text is empty. Type some words to search Openverse for.")
        }
        let request = OpenverseSearchRequest(query: query.text, page: page, perPage: perPage, filters: filters)
        return Self.page(from: try await searchImages(request), authenticated: isAuthenticated)
    }

    public func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        Self.imageURL(in: photo, covering: need)
    }

    public func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        Self.imageURL(in: photo, covering: size.requirement)
    }

    public func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? {
        try Task.checkCancellation()
        return imageURL(for: photo, covering: need)
    }

    /// The work's page at its source (`foreign_landing_url`).
    public func photoPageURL(for photo: Photo) -> URL? {
        guard let url = photo.credit?.pageURL, let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    /// What Openverse says about the work (`GET /v1/images/{id}/`: tags
    /// included); when that fails for any reason but cancellation, what
    /// the search result carried.
    public func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        do throws(OpenverseError) {
            return Self.details(from: try await image(id: photo.id))
        } catch {
            if case .network(.cancelled) = error { throw error }
            logger.debug("Details came from the search result", metadata: ["error": "\(error.description)"])
            return Self.details(from: photo, pageURL: photoPageURL(for: photo))
        }
    }

    /// `flickr info ID` for an Openverse id.
    public func photoDetails(id: String) async throws -> PhotoDetails {
        Self.details(from: try await image(id: id))
    }

    // MARK: - Openverse's own terms

    /// One page of results as Openverse described them.
    public func searchImages(_ request: OpenverseSearchRequest) async throws(OpenverseError) -> OpenverseSearchResults {
        if !isAuthenticated, request.page > OpenverseSearchRequest.anonymousPageLimit {
            throw .invalidRequest(
                "Openverse serves at most \(OpenverseSearchRequest.anonymousPageLimit) pages without credentials (page \(request.page) was asked for). Set \(OpenverseCredentials.clientIDVariable) and \(OpenverseCredentials.clientSecretVariable) to go deeper.")
        }
        let url = try request.url(base: baseURL, authenticated: isAuthenticated)
        let data = try await send(url, page: request.page)
        do throws(OpenverseError) {
            let results = try OpenverseResponseDecoder.decodeSearch(data, redacting: credentials?.secrets ?? [])
            if results.skippedResults > 0 || results.skippedFields > 0 {
                logger.debug("Skipped parts of an Openverse page", metadata: [
                    "results": "\(results.skippedResults)", "fields": "\(results.skippedFields)", "page": "\(results.page)",
                ])
            }
            return results
        } catch {
            throw error.redacting(credentials?.secrets ?? [])
        }
    }

    /// One work by id.
    public func image(id: String) async throws(OpenverseError) -> OpenverseImage {
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        guard UUID(uuidString: trimmed) != nil else {
            throw .invalidRequest("“\(ResponseExcerpt.make(id, limit: 60))” is not an Openverse id (those look like 4bc43a04-ef46-4544-a0c1-63c63f56e276).")
        }
        let url = try OpenverseSearchRequest.endpoint("v1/images/\(trimmed.lowercased())/", base: baseURL)
        let data = try await send(url, page: nil)
        do throws(OpenverseError) {
            return try OpenverseResponseDecoder.decodeImage(data, redacting: credentials?.secrets ?? [])
        } catch {
            throw error.redacting(credentials?.secrets ?? [])
        }
    }
}

// MARK: - Descriptions without the credentials

extension OpenverseProvider: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        let who = credentials == nil ? "anonymous" : "client id and secret: \(SecretRedactor.placeholder)"
        return "OpenverseProvider(\(displayName), base URL: \(baseURL.host ?? "?"), \(who))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "displayName": displayName, "baseURL": baseURL,
            "credentials": credentials == nil ? "none" : SecretRedactor.placeholder,
        ])
    }
}
