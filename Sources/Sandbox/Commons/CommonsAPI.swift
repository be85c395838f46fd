import Foundation

/// Answers MediaWiki's Action API at `/w/api.php` as Wikimedia Commons
/// does, over the same catalog as the Flickr endpoint (only its freely
/// licensed photos are files here):
///
/// - `action=query&generator=search` (`gsrsearch` with `filetype:` and
///   `-word`, `gsrnamespace`, `gsrlimit`, `gsroffset`, `gsrsort`) with
///   `prop=imageinfo` (`iiprop`, `iiurlwidth`, `iiextmetadatafilter`), and
///   `pageids=`/`titles=` for single files; `list=search` as well;
/// - `meta=siteinfo|userinfo`, which clients such as mwclient ask first;
/// - formatversion 1 and 2, the 10,000-result ceiling of search
///   (`cirrussearch-offset-too-large`), `maxlag` (with `Retry-After` and
///   `X-Database-Lag`), and every error as HTTP 200 with an `error` object;
/// - Wikimedia's User-Agent policy: a client that names no contact gets 403.
final class CommonsAPI: Sendable {
    static let path = "/w/api.php"
    static let contentType = "application/json; charset=utf-8"
    /// Search reaches offset + limit ≤ 10,000.
    static let resultCap = 10_000
    static let maxLimit = 500
    static let defaultLimit = 10
    /// The lag a lagged replica reports, and the wait MediaWiki asks for then.
    static let lagSeconds = 2
    static let lagRetryAfter = 5

    struct Answer {
        var status = 200
        var contentType = CommonsAPI.contentType
        var headers: [(String, String)] = []
        var body: [UInt8]
    }

    /// Wikimedia's answer to a client that does not say who it is.
    static let unidentified = Answer(
        status: 403, contentType: "text/plain; charset=utf-8",
        body: Array("Please set a user-agent and respect our robot policy https://w.wiki/4wJS. See also https://phabricator.wikimedia.org/T400119.\n".utf8))

    /// Whether a User-Agent names a client (`name/version`) and a way to
    /// reach whoever runs it (a URL or an address), as Wikimedia's policy
    /// asks; bare library defaults (`python-requests/2.32`, `curl/8.5`) do not.
    static func identifies(_ userAgent: String?) -> Bool {
        guard let agent = userAgent?.trimmingCharacters(in: .whitespaces), let first = agent.split(separator: " ").first,
              first.contains("/")
        else { return false }
        return agent.contains("http://") || agent.contains("https://") || agent.contains("@")
    }

    let files: CommonsCatalog
    private let searches: SearchCache

    init(searches: SearchCache) {
        self.searches = searches
        files = CommonsCatalog(catalog: searches.catalog)
    }

    func respond(method: String, parameters: [(String, String)], userAgent: String?, base: String) -> Answer {
        guard Self.identifies(userAgent) else { return Self.unidentified }
        let request = CommonsRequest(parameters)
        guard let formatVersion = request.formatVersion else {
            return Self.error("badvalue", "Unrecognized value for parameter \"formatversion\": \(request.value("formatversion") ?? "").", formatVersion: 1)
        }
        guard method == "GET" || method == "POST" || method == "HEAD" else {
            return Self.error("mustbeposted", "The \"\(method)\" method is not supported.", formatVersion: formatVersion)
        }
        // A replica never lags here, so only a negative maxlag (the documented way to test) is exceeded.
        if let maxlag = request.value("maxlag").flatMap(Double.init), maxlag < 0 {
            return Self.lagged(formatVersion: formatVersion)
        }
        guard let action = request.value("action") else {
            return Self.error("missingparam", "The \"action\" parameter must be set.", formatVersion: formatVersion)
        }
        guard action == "query" else {
            return Self.error("badvalue", "Unrecognized value for parameter \"action\": \(action).", formatVersion: formatVersion)
        }
        if let format = request.value("format"), format != "json" {
            return Self.error("badvalue", "Unrecognized value for parameter \"format\": \(format).", formatVersion: formatVersion)
        }
        return query(request, formatVersion: formatVersion, base: base)
    }

    // MARK: - Errors

    /// `{"error": {"code", "info", "docref"}, "servedby"}` (HTTP 200), with
    /// the `MediaWiki-API-Error` header api.php adds.
    static func error(_ code: String, _ info: String, formatVersion: Int, extra: [(String, Int)] = []) -> Answer {
        var out = CommonsJSON(formatVersion: formatVersion)
        out.raw("{\"error\":{")
        out.member("code", code)
        out.raw(",")
        out.member("info", info)
        for (name, value) in extra {
            out.raw(",")
            out.member(name, value)
        }
        out.raw(",")
        if formatVersion >= 2 {
            out.member("docref", "See https://commons.wikimedia.org/w/api.php for API usage.")
        } else {
            out.member("*", "See https://commons.wikimedia.org/w/api.php for API usage.")
        }
        out.raw("},\"servedby\":\"sandbox1\"}")
        return Answer(headers: [("MediaWiki-API-Error", code)], body: out.bytes)
    }


    /// A lagged replica: `maxlag`, with the wait in `Retry-After` and the lag in `X-Database-Lag`.
    static func lagged(formatVersion: Int) -> Answer {
        var answer = error(
            "maxlag", "Waiting for 10.64.48.35: \(lagSeconds) seconds lagged.", formatVersion: formatVersion,
            extra: [("lag", lagSeconds)])
        answer.headers += [("Retry-After", String(lagRetryAfter)), ("X-Database-Lag", String(lagSeconds))]
        return answer
    }

    // MARK: - action=query

    private func query(_ request: CommonsRequest, formatVersion: Int, base: String) -> Answer {
        var parts = CommonsQueryParts()
        if request.list("meta").contains("siteinfo") { parts.siteInfo = request.list("siprop") }
        if request.list("meta").contains("userinfo") { parts.userInfo = true }

        if let generator = request.value("generator") {
            guard generator == "search" else {
                return Self.error("badvalue", "Unrecognized value for parameter \"generator\": \(generator).", formatVersion: formatVersion)
            }
            switch search(request, prefix: "gsr") {
            case .failure(let failure): return Self.error(failure.code, failure.info, formatVersion: formatVersion)
            case .success(let result):
                parts.pages = result.photos.enumerated().map { (offset, photo) in (photo, result.offset + offset + 1) }
                parts.totalHits = request.list("gsrinfo").isEmpty || request.list("gsrinfo").contains("totalhits") ? result.total : nil
                parts.continuation = result.next.map { [("gsroffset", "\($0)"), ("continue", "gsroffset||")] }
            }
        } else if request.list("list").contains("search") {
            switch search(request, prefix: "sr") {
            case .failure(let failure): return Self.error(failure.code, failure.info, formatVersion: formatVersion)
            case .success(let result):
                parts.searchList = result.photos
                parts.totalHits = result.total
                parts.continuation = result.next.map { [("sroffset", "\($0)"), ("continue", "-||")] }
            }
        } else {
            let ids = request.list("pageids")
            let titles = request.list("titles")
            parts.pages = ids.compactMap { files.photo(pageID: $0) }.map { ($0, nil) }
                + titles.compactMap { files.photo(title: $0) }.map { ($0, nil) }
            parts.missingTitles = titles.filter { files.photo(title: $0) == nil }
            parts.missingIDs = ids.filter { files.photo(pageID: $0) == nil }
        }
        if let hostility = Hostility.current {
            parts.pages = parts.pages.map { (hostility.apply(to: $0.photo), $0.index) }
        }
        var writer = CommonsAnswerWriter(request: request, formatVersion: formatVersion, base: base)
        writer.write(parts)
        return Answer(body: writer.out.bytes)
    }

    private struct Found {
        var photos: [CatalogPhoto]
        var total: Int
        var offset: Int
        /// The next page's offset; nil on the last.
        var next: Int?
    }

    private struct Failure: Error {
        var code: String
        var info: String
    }

    /// One page of `gsrsearch` (or `srsearch`): the words, with
    /// `filetype:` and `-word` understood, over files only.
    private func search(_ request: CommonsRequest, prefix: String) -> Result<Found, Failure> {
        guard let text = request.value(prefix + "search"), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .failure(Failure(code: "missingparam", info: "The \"\(prefix)search\" parameter must be set."))
        }
        let limitText = request.value(prefix + "limit") ?? String(Self.defaultLimit)
        guard let limit = limitText == "max" ? Self.maxLimit : Int(limitText), limit > 0 else {
            return .failure(Failure(code: "badinteger", info: "Invalid value \"\(limitText)\" for integer parameter \"\(prefix)limit\"."))
        }
        let offsetText = request.value(prefix + "offset") ?? "0"
        guard let offset = Int(offsetText), offset >= 0 else {
            return .failure(Failure(code: "badinteger", info: "Invalid value \"\(offsetText)\" for integer parameter \"\(prefix)offset\"."))
        }
        guard offset < Self.resultCap else {
            return .failure(Failure(
                code: "cirrussearch-offset-too-large",
                info: "Could not retrieve results up to \(offset). You can only retrieve results up to \(Self.resultCap)."))
        }
        let sort: SearchSort
        switch request.value(prefix + "sort") ?? "relevance" {
        case "relevance", "just_match", "none": sort = .relevance
        case "create_timestamp_desc": sort = .datePostedDesc
        case "create_timestamp_asc": sort = .datePostedAsc
        case let other:
            return .failure(Failure(code: "badvalue", info: "Unrecognized value for parameter \"\(prefix)sort\": \(other)."))
        }
        let namespaces = request.list(prefix + "namespace")
        guard namespaces.isEmpty || namespaces.contains("6") else {
            return .success(Found(photos: [], total: 0, offset: offset, next: nil))
        }
        let terms = CommonsSearchTerms(text)
        let catalog = searches.catalog
        let matches = searches.search(text: terms.words, sort: sort).filter { index in
            let photo = catalog.photo(at: index)
            return CommonsCatalog.license(of: photo) != nil && terms.admits(photo)
        }
        let clamped = min(limit, Self.maxLimit, Self.resultCap - offset)
        let end = min(offset + clamped, matches.count)
        let photos = offset < end ? matches[offset..<end].map(catalog.photo(at:)) : []
        let reachable = min(matches.count, Self.resultCap)
        return .success(Found(photos: photos, total: matches.count, offset: offset, next: end < reachable ? end : nil))
    }
}

/// A request's parameters: the last value of each name wins, as in PHP.
struct CommonsRequest {
    private let values: [String: String]

    init(_ parameters: [(String, String)]) {
        var values: [String: String] = [:]
        for (name, value) in parameters { values[name] = value }
        self.values = values
    }

    func value(_ name: String) -> String? { values[name] }

    /// A multi-value parameter (`a|b|c`); empty when absent.
    func list(_ name: String) -> [String] {
        guard let value = values[name], !value.isEmpty else { return [] }
        return value.split(separator: "|").map(String.init)
    }

    /// `1` unless `formatversion` says `2` or `latest`; nil for anything else.
    var formatVersion: Int? {
        switch values["formatversion"] {
        case nil, "1"?: 1
        case "2"?, "latest"?: 2
        default: nil
        }
    }
}

/// `gsrsearch` taken apart: the words the catalog matches, and the
/// `filetype:` keyword Commons' search understands.
struct CommonsSearchTerms {
    var words: String
    /// `bitmap`, `drawing`, `video`, `audio`, …; empty for any.
    var fileTypes: Set<String> = []

    init(_ text: String) {
        var words: [Substring] = []
        for word in text.split(whereSeparator: \.isWhitespace) {
            if word.lowercased().hasPrefix("filetype:") {
                fileTypes.formUnion(word.dropFirst("filetype:".count).lowercased().split(separator: "|").map(String.init))
            } else {
                words.append(word)
            }
        }
        self.words = words.joined(separator: " ")
    }

    func admits(_ photo: CatalogPhoto) -> Bool {
        guard !fileTypes.isEmpty else { return true }
        return fileTypes.contains(photo.isVideo ? "video" : "bitmap")
    }
}
