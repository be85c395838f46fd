import Foundation

/// Answers Shutterstock's `/v2/*` calls over the same catalog as the Flickr
/// endpoint: a query gets the same photos in the same order on both.
final class ShutterstockAPI: Sendable {
    static let defaultPerPage = 20
    static let maxPerPage = 500
    /// Shutterstock labels its JSON `charset=utf8` (no hyphen).
    static let contentType = "application/json; charset=utf8"

    struct Answer {
        var status: Int
        var body: [UInt8]
    }

    private let searches: SearchCache
    private let credentials: ShutterstockClientCredentials?
    private let seed: UInt64

    init(searches: SearchCache, credentials: ShutterstockClientCredentials?, seed: UInt64) {
        self.searches = searches
        self.credentials = credentials
        self.seed = seed
    }

    func respond(
        method: String, path: String, parameters: [(String, String)], authorization: String?, imageBase: String
    ) -> Answer {
        switch (path, method) {
        case ("/v2/oauth/access_token", "POST"):
            return accessToken(parameters)
        case ("/v2/images/search", "GET"):
            if let refusal = authorize(authorization) { return refusal }
            return search(parameters, imageBase: imageBase)
        case ("/v2/oauth/access_token", _), ("/v2/images/search", _):
            return Self.error(405, "Method Not Allowed")
        default:
            return Answer(status: 404, body: Array(#"{"message":"Not Found","code":"INTERNAL"}"#.utf8))
        }
    }

    static func error(_ status: Int, _ message: String) -> Answer {
        var writer = JSONWriter(escapesSlashes: false)
        writer.raw("{")
        writer.member("message", message)
        writer.raw("}")
        return Answer(status: status, body: writer.bytes)
    }

    // MARK: - Credentials

    /// The token the sandbox issues for a client: derived from its id and
    /// secret, so checking one needs no stored state.
    func token(clientID: String, clientSecret: String) -> String {
        let text = clientID + ":" + clientSecret
        let first = StableHash.hash(text, seed: seed ^ 0x7_0C3E)
        let second = StableHash.hash(text, seed: first)
        return "v2/" + String(first, radix: 16) + String(second, radix: 16)
    }

    private func accessToken(_ parameters: [(String, String)]) -> Answer {
        func value(_ name: String) -> String { parameters.first { $0.0 == name }?.1 ?? "" }
        guard value("grant_type") == "client_credentials" else {
            return Self.error(400, "Unsupported grant_type: use client_credentials")
        }
        let clientID = value("client_id")
        let clientSecret = value("client_secret")
        guard accepts(clientID: clientID, clientSecret: clientSecret) else {
            return Self.error(401, "Invalid client credentials")
        }
        var writer = JSONWriter(escapesSlashes: false)
        writer.raw("{")
        writer.member("access_token", token(clientID: clientID, clientSecret: clientSecret))
        writer.raw(",\"token_type\":\"Bearer\"}")
        return Answer(status: 200, body: writer.bytes)
    }

    private func accepts(clientID: String, clientSecret: String) -> Bool {
        guard !clientID.isEmpty, !clientSecret.isEmpty else { return false }
        guard let credentials else { return true }
        return clientID == credentials.clientID && clientSecret == credentials.clientSecret
    }

    /// nil when `Authorization` holds a usable Bearer token or Basic key:secret.
    private func authorize(_ header: String?) -> Answer? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else {
            return Self.error(401, "Missing access token")
        }
        let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
        let scheme = parts[0].lowercased()
        let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch scheme {
        case "bearer":
            guard !value.isEmpty else { return Self.error(401, "Invalid access token") }
            if let credentials,
               value != token(clientID: credentials.clientID, clientSecret: credentials.clientSecret) {
                return Self.error(401, "Invalid access token")
            }
            return nil
        case "basic":
            guard let data = Data(base64Encoded: value), let pair = String(data: data, encoding: .utf8),
                  let colon = pair.firstIndex(of: ":"),
                  accepts(clientID: String(pair[..<colon]), clientSecret: String(pair[pair.index(after: colon)...]))
            else { return Self.error(401, "Invalid client credentials") }
            return nil
        default:
            return Self.error(401, "Invalid access token")
        }
    }

    // MARK: - Search

    private func search(_ parameters: [(String, String)], imageBase: String) -> Answer {
        func value(_ name: String) -> String? { parameters.last { $0.0 == name }?.1 }
        func values(_ name: String) -> [String] { parameters.filter { $0.0 == name }.map(\.1) }

        let page = value("page").map { Int($0) ?? 0 } ?? 1
        let perPage = value("per_page").map { Int($0) ?? 0 } ?? Self.defaultPerPage
        guard page >= 1 else { return Self.invalid("page", "must be an integer of at least 1") }
        guard (1...Self.maxPerPage).contains(perPage) else {
            return Self.invalid("per_page", "must be an integer from 1 to \(Self.maxPerPage)")
        }
        let sortName = value("sort") ?? "popular"
        guard let sort = ShutterstockSort(rawValue: sortName) else {
            return Self.invalid("sort", "must be one of popular, newest, oldest, relevance, random")
        }
        let full: Bool
        switch value("view") ?? "minimal" {
        case "minimal": full = false
        case "full": full = true
        default: return Self.invalid("view", "must be minimal or full")
        }
        if let safe = value("safe"), !["true", "false"].contains(safe.lowercased()) {
            return Self.invalid("safe", "must be true or false")
        }

        let query = Self.catalogQuery(value("query") ?? "")
        let searchID = Self.searchID(seed: seed, parameters: [query, sort.rawValue] + values("image_type") + values("orientation"))
        var matches = query.isEmpty ? Array(0..<searches.catalog.count) : searches.search(text: query, sort: sort.catalogSort)
        if query.isEmpty && sort == .oldest { matches.reverse() }
        if sort == .random {
            var random = SplitMix64(seed: StableHash.hash(searchID, seed: seed))
            matches.shuffle(using: &random)
        }
        let types = values("image_type").flatMap { $0.split(separator: ",").map { $0.lowercased() } }
        if !types.isEmpty, !types.contains("photo") { matches = [] }
        if let orientation = value("orientation") {
            let catalog = searches.catalog
            let wantsWide = orientation == "horizontal"
            matches = matches.filter {
                let photo = catalog.photo(at: $0)
                return wantsWide ? photo.originalWidth > photo.originalHeight : photo.originalHeight > photo.originalWidth
            }
        }
        if let contributor = value("contributor"), !contributor.isEmpty {
            let catalog = searches.catalog
            matches = matches.filter { ShutterstockJSON.contributorID(catalog.photo(at: $0)) == contributor }
        }
        // `added_date_start` / `added_date_end` (YYYY-MM-DD, inclusive), on the upload day.
        let addedFrom = value("added_date_start").flatMap(Self.day)
        let addedTo = value("added_date_end").flatMap(Self.day).map { $0 + 86_400 }
        if addedFrom != nil || addedTo != nil {
            let catalog = searches.catalog
            matches = matches.filter {
                let upload = catalog.photo(at: $0).dateUpload
                return upload >= (addedFrom ?? Int.min) && upload < (addedTo ?? Int.max)
            }
        }
        // The duplicate-ids case serves the first page again, its first photo twice.
        let start = Hostility.isActive(.duplicateIDs) ? 0 : min(matches.count, (page - 1) * perPage)
        let end = min(matches.count, start + perPage)
        var photos = matches[start..<end].map(searches.catalog.photo(at:))
        if Hostility.isActive(.duplicateIDs), let first = photos.first { photos.append(first) }
        if let hostility = Hostility.current { photos = photos.map(hostility.apply(to:)) }
        var out = ShutterstockJSON(imageBase: imageBase)
        out.searchResults(photos, page: page, perPage: perPage, total: matches.count, searchID: searchID,
                          query: value("query") ?? "", full: full)
        return Answer(status: 200, body: out.writer.bytes)
    }

    /// Unix seconds at the start (UTC) of a `YYYY-MM-DD` day.
    static func day(_ text: String) -> Int? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.date(from: text).map { Int($0.timeIntervalSince1970) }
    }

    /// Shutterstock's upper-case operators in the catalog's terms: `AND` is
    /// implied, `NOT word` excludes.
    static func catalogQuery(_ query: String) -> String {
        var words: [String] = []
        var negateNext = false
        for word in query.split(whereSeparator: { $0.isWhitespace }).map(String.init) {
            switch word {
            case "AND": continue
            case "NOT": negateNext = true
            default:
                words.append(negateNext ? "-" + word : word)
                negateNext = false
            }
        }
        return words.joined(separator: " ")
    }

    /// A UUID-shaped id, the same for the same search, as Shutterstock's are.
    static func searchID(seed: UInt64, parameters: [String]) -> String {
        let text = parameters.joined(separator: "\u{0}")
        let high = StableHash.hash(text, seed: seed)
        let low = StableHash.hash(text, seed: high)
        let hex = (String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16))
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    private static func invalid(_ parameter: String, _ problem: String) -> Answer {
        var writer = JSONWriter(escapesSlashes: false)
        writer.raw("{\"message\":\"Validation failed\",\"errors\":[{\"code\":\"VALIDATION_ERROR\",")
        writer.member("message", "\(parameter) \(problem)")
        writer.raw(",")
        writer.member("path", "$.query.\(parameter)")
        writer.raw("}]}")
        return Answer(status: 400, body: writer.bytes)
    }
}

/// Result orders of `GET /v2/images/search`, and the catalog order each
/// uses: `popular`, the default, lists what Flickr's default lists.
enum ShutterstockSort: String {
    case popular, newest, oldest, relevance, random

    var catalogSort: SearchSort {
        switch self {
        case .popular, .newest, .random: .datePostedDesc
        case .oldest: .datePostedAsc
        case .relevance: .relevance
        }
    }
}

/// The credentials a sandbox's Shutterstock endpoint accepts.
public struct ShutterstockClientCredentials: Sendable, Equatable {
    public var clientID: String
    public var clientSecret: String

    public init(clientID: String, clientSecret: String) {
        self.clientID = clientID
        self.clientSecret = clientSecret
    }
}

extension String {
    fileprivate func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
