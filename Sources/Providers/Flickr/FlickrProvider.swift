import PhotoCore
import Foundation
import Networking
import Logging

/// Flickr's REST API (or anything that speaks it, such as the sandbox).
///
/// Requests are built with `URLComponents` and sent through `NetworkManager`
/// under a `RetryPolicy`; answers go through `FlickrResponseDecoder` and
/// `FlickrDetailsDecoder`. The API key travels only in request URLs: it is
/// redacted from every error and kept out of this type's descriptions and
/// mirror, so printing or logging a provider cannot leak it.
public struct FlickrProvider: PhotoProvider {
    public static let defaultEndpoint = URL(string: "https://api.flickr.com/services/rest/")!
    /// Where Flickr serves images; URLs are built here unless told otherwise.
    public static let staticImageHost = URL(string: "https://live.staticflickr.com/")!
    /// Flickr serves at most this many results per query; later pages repeat.
    public static let resultCap = 4_000
    /// Flickr's limit on `per_page`.
    public static let perPageRange = 1...500
    /// Sizes every page asks for (with their widths and heights): every
    /// whole-photo size up to 2048 px, so the smallest that fills a grid cell
    /// or the detail view is known without another call, plus the 150 px
    /// square the grid has used.
    public static let requestedSizes: [PhotoSize] = [
        .square150, .thumbnail100, .small240, .small320, .small400, .medium500,
        .medium640, .medium800, .large1024, .large1600, .large2048,
    ]
    /// What every page asks for besides sizes.
    public static let extras = requestedSizes.map(\.extra) + ["owner_name", "date_taken", "date_upload", "o_dims", "license", "path_alias", "tags"]

    public var service: PhotoService { Self.service }
    public static let service = PhotoService(id: "flickr", name: "Flickr")
    public let displayName: String
    public var maxResults: Int? { Self.resultCap }
    public var perPageRange: ClosedRange<Int> { Self.perPageRange }

    /// Flickr has every capability.
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(
            recent: .supported(self), lookup: .supported(self), collections: .supported(self), links: .supported(self),
            videos: .supported(self), favourites: .supported(self))
    }
    public let endpoint: URL
    /// Where images are built when the photo does not name them: `nil` for
    /// Flickr and its mirrors (Flickr's static host), the sandbox's own
    /// origin for the sandbox. Never the API host otherwise.
    public let imageHost: URL?
    public let retryPolicy: RetryPolicy

    /// Also the OAuth consumer key of signed calls.
    let apiKey: String
    let redactor: SecretRedactor
    /// Who calls are made as; shared by every copy (see `useSignIn`).
    public let signIn = FlickrSignInState()
    let network: NetworkManager
    let sizeCache = SizeCache()
    let people = PersonCache()
    /// Where Flickr's licence list is kept for a week (see `licenses(cache:)`).
    let licenseCache: URL?
    let licenseNames = LicenseNames()
    let logger = Logger(label: "flickr.provider")

    /// Largest REST answer accepted: a full 500-photo page is about 1 MB.
    private static let maxResponseBytes = 16 << 20

    public init(
        apiKey: String,
        endpoint: URL = FlickrProvider.defaultEndpoint,
        imageHost: URL? = nil,
        network: NetworkManager,
        displayName: String = "Flickr",
        retryPolicy: RetryPolicy = RetryPolicy(),
        licenseCache: URL? = nil
    ) {
        self.licenseCache = licenseCache
        self.apiKey = apiKey
        self.redactor = SecretRedactor(apiKey)
        self.endpoint = endpoint
        self.imageHost = imageHost
        self.network = network
        self.displayName = displayName
        self.retryPolicy = retryPolicy
    }

    // MARK: - Calls

    /// `flickr.photos.search` by relevance, safe photos only.
    public func search(_ query: SearchQuery, page: Int, perPage: Int) async throws(FlickrError) -> PhotoPage {
        var userID: String?
        if let name = query.filters.user { userID = try await resolveUser(name) }
        return try await fetchPage(searchRequestURL(query, page: page, perPage: perPage, userID: userID), page: page)
    }

    /// `flickr.photos.getRecent`.
    public func recent(page: Int, perPage: Int) async throws(FlickrError) -> PhotoPage {
        try await fetchPage(recentRequestURL(page: page, perPage: perPage), page: page)
    }

    /// Checks the key cheaply with `flickr.test.echo`; throws `.api(code: 100, …)`
    /// for a rejected key.
    public func echo() async throws(FlickrError) {
        try await call(requestURL(method: "flickr.test.echo", parameters: [])) { data throws(FlickrError) in
            try FlickrResponseDecoder.checkSuccess(data)
        }
    }

    /// `flickr.photos.getInfo`: description, tags, dates, views, licence, owner.
    /// `secret`, when given, lets Flickr skip its permission check.
    public func info(photoID: String, secret: String? = nil) async throws(FlickrError) -> PhotoDetails {
        var parameters = [("photo_id", photoID)]
        if let secret, !secret.isEmpty { parameters.append(("secret", secret)) }
        let url = try requestURL(method: "flickr.photos.getInfo", parameters: parameters)
        return try await call(url) { data throws(FlickrError) in try FlickrDetailsDecoder.decodeInfo(data) }
    }

    public func photoDetails(id: String) async throws(FlickrError) -> PhotoDetails {
        try await info(photoID: id)
    }

    public func photoDetails(for photo: Photo) async throws(FlickrError) -> PhotoDetails {
        try await info(photoID: photo.id, secret: photo.flickr?.secret)
    }

    /// `/photos/{owner}/{id}/`, the page Flickr's terms ask clients to link back to.
    public func photoPageURL(for photo: Photo) -> URL? {
        Self.photoPageURL(owner: photo.owner, photoID: photo.id)
    }

    static func photoPageURL(owner: String, photoID: String) -> URL? {
        guard isPathSafe(owner), isPathSafe(photoID) else { return nil }
        return URL(string: "https://www.flickr.com/photos/\(owner)/\(photoID)/")
    }

    // MARK: - Requests

    func searchRequestURL(_ query: SearchQuery, page: Int, perPage: Int, userID: String? = nil) throws(FlickrError) -> URL {
        try Self.validate(page: page, perPage: perPage)
        return try requestURL(method: "flickr.photos.search", parameters: Self.searchParameters(query, userID: userID) + [
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

    static func validate(page: Int, perPage: Int) throws(FlickrError) {
        guard perPageRange.contains(perPage) else {
            throw .invalidRequest("Photos per page must be between \(perPageRange.lowerBound) and \(perPageRange.upperBound) (got \(perPage)).")
        }
        guard page >= 1 else {
            throw .invalidRequest("The page number must be 1 or more (got \(page)).")
        }
    }

    // MARK: - Sending

    func fetchPage(_ url: URL, page asked: Int) async throws(FlickrError) -> PhotoPage {
        let decoded = try await call(url) { data throws(FlickrError) in try FlickrResponseDecoder.decode(data) }
        if decoded.skippedPhotos > 0 {
            logger.debug("Skipped photos without id, secret or server", metadata: [
                "skipped": "\(decoded.skippedPhotos)", "page": "\(decoded.page.page)",
            ])
        }
        return await relicensed(Self.filledIn(decoded.page, asked: asked))
    }

    /// A page whose counts came empty: it is the page asked for, and a page
    /// with photos is at least as far as the pages go.
    static func filledIn(_ page: PhotoPage, asked: Int) -> PhotoPage {
        var page = page
        if page.page < 1 { page.page = asked }
        if !page.photos.isEmpty { page.pages = max(page.pages, page.page) }
        return page
    }

    /// One REST call: send, decode, and try again under the retry policy when
    /// the failure is transient (including Flickr's code 105, which comes
    /// back as HTTP 200). Signed as the signed-in person when there is one
    /// (the `oauth_*` fields go in a header, never in the URL); a token
    /// Flickr no longer honours is error 98, never a quiet unsigned call.
    /// With `post`, the parameters go as a form (Flickr's write methods).
    func call<Value>(
        _ url: URL, post: Bool = false, decode: (Data) throws(FlickrError) -> Value
    ) async throws(FlickrError) -> Value {
        let host = url.host ?? "?"
        let signer = signIn.signer(consumerKey: apiKey)
        let secrets = [apiKey] + (signer?.secrets ?? [])
        let redactor = signer == nil ? self.redactor : SecretRedactor(secrets: secrets)
        let form = post ? OAuthSigner.queryParameters(of: url) : []
        var bare = URLComponents(url: url, resolvingAgainstBaseURL: false)
        if post { bare?.query = nil }
        let target = bare?.url ?? url
        return try await retryPolicy.run(
            classify: { $0.retryDecision },
            cancelled: { .network(.cancelled) },
            onRetry: { error, wait, retry in
                logger.debug("Retrying a Flickr call", metadata: [
                    "host": "\(host)", "retry": "\(retry)", "wait": "\(wait)", "error": "\(error.description)",
                ])
            }
        ) { _ throws(FlickrError) in
            let data: Data
            do throws(NetworkError) {
                // Signed afresh on every try: a nonce is used once.
                let method = post ? "POST" : "GET"
                let headers = signer.map { [$0.authorizationHeader(method: method, url: target, form: form)] } ?? []
                data = post
                    ? try await network.post(target, form: form, headers: headers, maxBytes: Self.maxResponseBytes).body
                    : try await network.get(url, headers: headers, maxBytes: Self.maxResponseBytes).body
            } catch {
                throw FlickrError.network(error).redacting(redactor)
            }
            do throws(FlickrError) {
                // Excerpts of the answer lose the secrets before they are cut.
                return try ResponseExcerpt.redacting(secrets) { () throws(FlickrError) in try decode(data) }
            } catch {
                throw error.redacting(redactor)
            }
        }
    }

    /// Ids, secrets, servers and NSIDs are short runs of letters, digits,
    /// `@`, `_` and `-`; anything else would change the URL's meaning.
    static func isPathSafe(_ text: String) -> Bool {
        // ASCII letters and digits, "@", "_" and "-", byte by byte: asking
        // `CharacterSet` cost 7 µs a photo, 2 ms of a 300-photo download.
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "@"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}

// MARK: - Descriptions without the key

extension FlickrProvider: RecentPhotos, PhotoLookup, PhotoCollections, LinkReader, VideoFiles, Favourites {}

extension FlickrProvider: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "FlickrProvider(\(displayName), endpoint: \(endpoint.host ?? "?"), api key: \(SecretRedactor.placeholder))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "displayName": displayName, "endpoint": endpoint, "imageHost": imageHost as Any,
            "apiKey": SecretRedactor.placeholder,
        ])
    }
}
