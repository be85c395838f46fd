import Foundation

/// The client id and secret the sandbox's Openverse token endpoint accepts
/// (the same shape as Shutterstock's).
public typealias OpenverseClientCredentials = ShutterstockClientCredentials

/// Answers Openverse's `/v1/*` calls over the same catalog as the Flickr
/// endpoint: `q` matches exactly the photos Flickr's `text` does, in the
/// same order, less those Openverse would not index (not openly licensed).
final class OpenverseAPI: Sendable {
    static let contentType = "application/json"
    static let anonymousPageSize = 20
    static let authenticatedPageSize = 500
    /// Deepest page anyone may ask for (`MAX_PAGINATION_DEPTH`).
    static let maxPage = 20
    /// `result_count` never exceeds these: 240 for anonymous callers (12
    /// pages of 20, as recorded in 2022), 10,000 (the search ceiling) with a token.
    static let anonymousResultCap = 240
    static let authenticatedResultCap = 10_000

    struct Answer {
        var status: Int
        var body: [UInt8]
    }

    let media: OpenverseCatalog
    private let searches: SearchCache
    private let credentials: OpenverseClientCredentials?
    private let tokens: OpenverseTokens

    init(searches: SearchCache, credentials: OpenverseClientCredentials?, tokens: OpenverseTokens = OpenverseTokens()) {
        self.searches = searches
        self.media = OpenverseCatalog(catalog: searches.catalog)
        self.credentials = credentials
        self.tokens = tokens
    }

    func respond(
        method: String, path: String, parameters: [(String, String)], authorization: String?, base: String
    ) -> Answer {
        let route = path.hasSuffix("/") ? path : path + "/"
        if route == "/v1/auth_tokens/token/" {
            guard method == "POST" else { return Self.methodNotAllowed(method) }
            return token(parameters)
        }
        let authenticated: Bool
        switch authorize(authorization) {
        case .anonymous: authenticated = false
        case .authenticated: authenticated = true
        case .refused(let answer): return answer
        }
        guard method == "GET" || method == "HEAD" else {
            return route.hasPrefix("/v1/images/") ? Self.methodNotAllowed(method) : Self.notFound
        }
        if route == "/v1/images/" {
            return search(parameters, authenticated: authenticated, base: base)
        }
        let parts = route.split(separator: "/")
        if parts.count == 3, parts[0] == "v1", parts[1] == "images", let photo = media.photo(identifier: String(parts[2])) {
            var out = OpenverseJSON(base: base)
            out.result(Hostility.current?.apply(to: photo) ?? photo, query: SearchQuery(text: ""))
            return Answer(status: 200, body: out.writer.bytes)
        }
        return Self.notFound
    }

    // MARK: - Errors, in Django REST Framework's shapes

    static let notFound = detail(404, "Not found.")

    /// `{"detail": "…"}`.
    static func detail(_ status: Int, _ message: String) -> Answer {
        var writer = JSONWriter(escapesSlashes: false)
        writer.raw("{")
        writer.member("detail", message)
        writer.raw("}")
        return Answer(status: status, body: writer.bytes)
    }

    /// A validation error: `{"detail": {"field": ["…"]}}` (Openverse wraps
    /// DRF's field errors in `detail`).
    static func invalid(_ field: String, _ message: String) -> Answer {
        var writer = JSONWriter(escapesSlashes: false)
        writer.raw("{\"detail\":{")
        writer.key(field)
        writer.raw("[")
        writer.string(message)
        writer.raw("]}}")
        return Answer(status: 400, body: writer.bytes)
    }

    static func methodNotAllowed(_ method: String) -> Answer { detail(405, "Method \"\(method)\" not allowed.") }

    /// The `api-error` fault: DRF's 503.
    static let serviceUnavailable = detail(503, "Service temporarily unavailable, try again later.")

    // MARK: - Tokens

    private enum Caller {
        case anonymous, authenticated
        case refused(Answer)
    }

    /// A Bearer token must be one the sandbox issued and still valid; other
    /// schemes are ignored, as Openverse's OAuth2 authentication does.
    private func authorize(_ header: String?) -> Caller {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return .anonymous }
        let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts[0].lowercased() == "bearer" else { return .anonymous }
        let token = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        return tokens.isValid(token) ? .authenticated : .refused(Self.detail(401, "Invalid token."))
    }

    /// `POST /v1/auth_tokens/token/`, as django-oauth-toolkit answers it:
    /// an unknown grant is a 400, bad client credentials a 401.
    private func token(_ parameters: [(String, String)]) -> Answer {
        func value(_ name: String) -> String { parameters.last { $0.0 == name }?.1 ?? "" }
        func error(_ status: Int, _ code: String) -> Answer {
            Answer(status: status, body: Array("{\"error\":\"\(code)\"}".utf8))
        }
        let grant = value("grant_type")
        if grant.isEmpty { return error(400, "invalid_request") }
        guard grant == "client_credentials" else { return error(400, "unsupported_grant_type") }
        let clientID = value("client_id")
        let clientSecret = value("client_secret")
        guard !clientID.isEmpty, !clientSecret.isEmpty,
              credentials.map({ $0.clientID == clientID && $0.clientSecret == clientSecret }) ?? true
        else { return error(401, "invalid_client") }
        var writer = JSONWriter(escapesSlashes: false)
        writer.raw("{")
        writer.member("access_token", tokens.issue())
        writer.raw(",\"expires_in\":\(OpenverseTokens.lifetime),\"token_type\":\"Bearer\",\"scope\":\"read write groups\"}")
        return Answer(status: 200, body: writer.bytes)
    }

    // MARK: - Search

    private func search(_ parameters: [(String, String)], authenticated: Bool, base: String) -> Answer {
        let request: OpenverseSearchRequest
        switch OpenverseSearchRequest.parse(parameters, authenticated: authenticated) {
        case .success(let parsed): request = parsed
        case .failure(let refusal): return refusal.answer
        }
        let catalog = searches.catalog
        let query = SearchQuery(text: request.text)
        var matches = query.isEmpty ? Array(0..<catalog.count) : searches.search(text: request.text, sort: .datePostedDesc)
        matches = matches.filter { request.admits(catalog.photo(at: $0)) }

        let cap = authenticated ? Self.authenticatedResultCap : Self.anonymousResultCap
        let resultCount = min(matches.count, cap)
        let pageCount = min(Self.maxPage, (resultCount + request.pageSize - 1) / request.pageSize)
        // A page past the last: DRF's paginator wording, with the 400 Openverse answers it with.
        guard request.page <= max(1, pageCount) else { return Self.detail(400, "Invalid page.") }
        // The duplicate-ids case serves the first page again, its first photo twice.
        let start = Hostility.isActive(.duplicateIDs) ? 0 : (request.page - 1) * request.pageSize
        let end = min(start + request.pageSize, resultCount)
        var photos = start < end ? matches[start..<end].map(catalog.photo(at:)) : []
        if Hostility.isActive(.duplicateIDs), let first = photos.first { photos.append(first) }
        if let hostility = Hostility.current { photos = photos.map(hostility.apply(to:)) }

        var out = OpenverseJSON(base: base)
        out.page(photos, resultCount: resultCount, pageCount: pageCount, pageSize: request.pageSize,
                 page: request.page, query: query)
        return Answer(status: 200, body: out.writer.bytes)
    }
}
