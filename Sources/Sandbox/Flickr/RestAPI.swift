import Foundation

/// Answers `/services/rest/` calls against the catalog, as Flickr would.
final class RestAPI: Sendable {
    /// Flickr serves at most this many results per query.
    static let resultCap = 4_000
    static let defaultPerPage = 100
    static let maxPerPage = 500

    let catalog: Catalog
    /// Non-public photos, uploads, favourites, licences and albums made over the API.
    let account: AccountStore
    private let searches: SearchCache
    private let requiredAPIKey: String?

    init(searches: SearchCache, requiredAPIKey: String?) {
        self.catalog = searches.catalog
        account = AccountStore(catalog: searches.catalog)
        self.searches = searches
        self.requiredAPIKey = requiredAPIKey
    }

    /// The rendered body and its content type; `caller` is who signed the call, if anyone did.
    func respond(to parameters: [(String, String)], oauthConsumerKey: String?, imageBase: String, caller: SignedCaller? = nil)
        -> (body: [UInt8], contentType: String)
    {
        func value(_ name: String) -> String? { parameters.first { $0.0 == name }?.1 }

        guard let format = Self.format(value) else {
            let payload = RestPayload.failure(code: 111, message: "Format \"\(value("format") ?? "")\" not found")
            return (WireFormat.render(payload, as: .xml), ResponseFormat.xml.contentType)
        }
        var payload = self.payload(parameters, value: value, oauthConsumerKey: oauthConsumerKey, imageBase: imageBase,
                                   caller: caller)
        if let hostility = Hostility.current { payload = hostility.apply(to: payload) }
        return (WireFormat.render(payload, as: format), format.contentType)
    }

    /// Flickr's error 105 in the format the call asked for (XML when it named none or an unknown one).
    static func serviceUnavailable(_ parameters: [(String, String)]) -> (body: [UInt8], contentType: String) {
        let format = Self.format { name in parameters.first { $0.0 == name }?.1 } ?? .xml
        let payload = RestPayload.failure(code: 105, message: "Service currently unavailable")
        return (WireFormat.render(payload, as: format), format.contentType)
    }

    /// XML when `format` is absent or `rest`, as on Flickr; nil for an unknown format.
    static func format(_ value: (String) -> String?) -> ResponseFormat? {
        switch value("format") {
        case nil, "rest", "":
            return .xml
        case "json":
            if value("nojsoncallback") == "1" { return .json }
            return .jsonp(callback: Self.callbackName(value("jsoncallback")))
        default:
            return nil
        }
    }

    static let methods = Set<String>([
        "flickr.photos.search", "flickr.photos.getRecent", "flickr.photos.getInfo", "flickr.photos.getSizes",
        "flickr.test.echo", "flickr.people.findByUsername", "flickr.urls.lookupUser", "flickr.photos.licenses.getInfo",
    ]).union(collectionMethods).union(accountMethods)

    private func payload(
        _ parameters: [(String, String)], value: (String) -> String?, oauthConsumerKey: String?, imageBase: String,
        caller: SignedCaller?
    ) -> RestPayload {
        let method = value("method") ?? ""
        guard Self.methods.contains(method) else {
            return .failure(code: 112, message: "Method \"\(method)\" not found")
        }
        let key = [value("api_key"), value("oauth_consumer_key"), oauthConsumerKey]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        if let failure = checkKey(key) { return failure }
        switch method {
        case "flickr.test.echo":
            return .echo(parameters.filter { !Self.credentialNames.contains($0.0) && !$0.0.hasPrefix("oauth_") })
        case _ where Self.accountMethods.contains(method):
            return accountAnswer(method, value, caller: caller, imageBase: imageBase)
        case "flickr.photos.getRecent":
            let (page, perPage) = Self.paging(value)
            return .photos(listing(Array(0..<catalog.count), leading: account.extras(seenBy: caller), page: page, perPage: perPage,
                                   extras: Extras(value("extras")), imageBase: imageBase))
        case "flickr.people.findByUsername", "flickr.urls.lookupUser":
            return people(method, value)
        case "flickr.photos.licenses.getInfo":
            return .licenses(FlickrLicenseList.all)
        case _ where Self.collectionMethods.contains(method):
            return withMadeAlbums(collection(method, value, imageBase: imageBase), method, value, caller: caller,
                                  imageBase: imageBase)
        case "flickr.photos.getInfo", "flickr.photos.getSizes":
            guard let photo = value("photo_id").flatMap({ account.photo(id: $0, seenBy: caller) }) else {
                return .failure(code: 1, message: "Photo not found")
            }
            return method == "flickr.photos.getInfo" ? .info(photo) : .sizes(photo, imageBase: imageBase)
        default:
            return search(value, imageBase: imageBase, caller: caller)
        }
    }

    /// Parameters that carry credentials: never echoed, never logged.
    static let credentialNames: Set = ["api_key", "api_sig", "auth_token", "client_secret"]

    /// nil when the key is accepted. Flickr keys are 32 hex digits: a key of
    /// that shape that is not the required one is "not found", anything else
    /// has an "invalid format".
    private func checkKey(_ key: String) -> RestPayload? {
        if !key.isEmpty, requiredAPIKey == nil || key == requiredAPIKey { return nil }
        let looksLikeAKey = key.count == 32 && key.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit }
        return .failure(code: 100, message: "Invalid API Key (Key \(looksLikeAKey ? "not found" : "has invalid format"))")
    }

    private func search(_ value: (String) -> String?, imageBase: String, caller: SignedCaller?) -> RestPayload {
        let text = value("text")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let tags = value("tags")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let userID = SignedCaller.userID(value("user_id")?.trimmingCharacters(in: .whitespacesAndNewlines), caller: caller)
        let textQuery = SearchQuery(text: text)
        let tagList = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !textQuery.isEmpty || !tagList.isEmpty || !userID.isEmpty else {
            return .failure(code: 3, message: "Parameterless searches have been disabled. Please use flickr.photos.getRecent instead.")
        }
        let sort = value("sort").flatMap(SearchSort.init(rawValue:)) ?? .datePostedDesc
        let narrowing: FlickrSearchFilter
        do {
            narrowing = try FlickrSearchFilter(value)
        } catch {
            return .failure(code: error.code, message: error.message)
        }

        var matches: [Int]
        if !textQuery.isEmpty {
            matches = searches.search(text: text, sort: sort)
        } else {
            matches = Array(0..<catalog.count)
            if sort == .datePostedAsc { matches.reverse() }
        }
        if !tagList.isEmpty {
            let allowed = catalog.tagMatches(tagList, requireAll: value("tag_mode") == "all")
            matches = matches.filter { allowed.contains($0) }
        }
        if !userID.isEmpty {
            matches = matches.filter { catalog.photo(at: $0).owner == userID }
        }
        if !narrowing.isEmpty {
            matches = matches.filter { narrowing.admits(catalog.photo(at: $0)) }
        }
        // Photos outside the catalog are the newest: first, whatever the sort.
        let newer = extraMatches(text: text, tags: tagList, requireAllTags: value("tag_mode") == "all", userID: userID,
                                 narrowing: narrowing, caller: caller)
        let (page, perPage) = Self.paging(value)
        return .photos(listing(matches, leading: newer, page: page, perPage: perPage, extras: Extras(value("extras")),
                               imageBase: imageBase))
    }

    /// One page of `matches`. `total` and `pages` count every match; pages
    /// past the 4,000-result cap of searches repeat page 1, as Flickr was
    /// observed to do (lists of one person, album, gallery or pool have no cap).
    /// `leading` photos (outside the catalog) come before the catalog's `matches`.
    func listing(
        _ matches: [Int], leading: [CatalogPhoto] = [], page: Int, perPage: Int, extras: Extras, imageBase: String,
        capped: Bool = true
    ) -> PhotoListing {
        let total = leading.count + matches.count
        let pages = (total + perPage - 1) / perPage
        let cap = capped ? Self.resultCap : Int.max
        var start = (page - 1) * perPage
        // The duplicate-ids case serves the first page again, its first photo twice.
        if start >= cap || Hostility.isActive(.duplicateIDs) { start = 0 }
        let end = min(start + perPage, total, cap)
        var photos = start < end
            ? account.current((start..<end).map { $0 < leading.count ? leading[$0] : catalog.photo(at: matches[$0 - leading.count]) })
            : []
        if Hostility.isActive(.duplicateIDs), let first = photos.first { photos.append(first) }
        return PhotoListing(page: page, pages: pages, perPage: perPage, total: total, photos: photos,
                            extras: extras, imageBase: imageBase)
    }

    /// `page` defaults to 1; `per_page` to 100 (or `defaultPerPage`), clamped to 1...500.
    static func paging(_ value: (String) -> String?, defaultPerPage: Int = defaultPerPage) -> (page: Int, perPage: Int) {
        // Bounded, so page × per_page cannot overflow.
        let page = value("page").flatMap { Int($0) }.map { min(1_000_000, max(1, $0)) } ?? 1
        let perPage = value("per_page").flatMap { Int($0) }.map { min(maxPerPage, max(1, $0)) } ?? defaultPerPage
        return (page, perPage)
    }

    /// A JSONP wrapper name is echoed into a script: only identifier
    /// characters are accepted, anything else falls back to Flickr's default.
    static func callbackName(_ requested: String?) -> String {
        guard let requested, !requested.isEmpty, requested.count <= 64,
              requested.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "_$.".unicodeScalars.contains($0)) })
        else { return "jsonFlickrApi" }
        return requested
    }
}
