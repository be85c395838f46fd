import PhotoCore
import Foundation
import Logging
import Networking
import NIOConcurrencyHelpers

/// People, photostreams, albums, galleries, group pools and the links to
/// them.
///
/// Every photo list asks for the same extras as a search, plus `media`, so
/// the grid needs no call per photo and videos are marked. Flickr answers
/// "not found" with code 1 in each of these methods (meaning a different
/// thing in each); those answers become sentences naming what was asked for.
extension FlickrProvider {
    /// What every collection page asks for: the search's extras and `media`.
    public static let collectionExtras = extras + ["media"]

    // MARK: - People

    /// The person a username, path alias, NSID or profile or photostream
    /// URL names: `flickr.people.findByUsername`, then
    /// `flickr.urls.lookupUser` (for path aliases), then
    /// `flickr.people.getInfo` for the real name and path alias. Remembered
    /// for the life of the provider.
    public func person(named name: String) async throws(FlickrError) -> Person {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw .invalidRequest("Give a Flickr username, path alias, NSID (such as 12345678@N00) or profile URL.")
        }
        // `me` is the signed-in person, as Flickr reads `user_id=me` from a signed caller.
        if trimmed.lowercased() == "me" { return try me() }
        if let known = people[trimmed] { return known }
        var handle = trimmed
        var fromLink = false
        switch readLink(trimmed) {
        case .link(.person(let named)):
            handle = named
            fromLink = true
        case .link:
            throw .invalidRequest("That link is not a person's page; give a profile or photostream URL such as https://www.flickr.com/photos/NAME/.")
        case .unsupported(let sentence):
            throw .invalidRequest(sentence)
        case .notALink where Self.looksLikeALink(trimmed):
            // A link to another site (or one that only looks like Flickr's,
            // such as www.flickr.com@evil.example) is never sent as a username.
            throw .invalidRequest(
                "That is not a link to Flickr; give a Flickr username, path alias, NSID or a profile URL such as https://www.flickr.com/photos/NAME/.")
        case .notALink:
            break
        }
        let found = Self.isNSID(handle) ? Person(id: handle, username: "") : try await lookUpPerson(handle, byName: !fromLink)
        let person = try await withProfile(found, asked: handle)
        people[trimmed] = person
        people[person.id] = person
        return person
    }

    /// A URI of some scheme (`https://…`, `javascript:…//…`, `file:/…`):
    /// a scheme, a colon, and a slash before any space. No username is one.
    static func looksLikeALink(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter,
              text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return false }
        let rest = text[text.index(after: colon)...]
        return rest.prefix { !$0.isWhitespace }.contains("/")
    }

    /// By username (unless the name came from a URL, where it is a path
    /// alias or NSID), then by the photostream URL a path alias makes.
    private func lookUpPerson(_ name: String, byName: Bool) async throws(FlickrError) -> Person {
        if byName {
            let url = try requestURL(method: "flickr.people.findByUsername", parameters: [("username", name)])
            do throws(FlickrError) {
                return try await call(url) { data throws(FlickrError) in try FlickrCollectionDecoder.decodeLookedUpUser(data) }
            } catch .api(code: 1, _) {
                // Not a username; perhaps a path alias.
            }
        }
        let alias = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name
        let url = try requestURL(method: "flickr.urls.lookupUser", parameters: [("url", "https://www.flickr.com/photos/\(alias)/")])
        do throws(FlickrError) {
            return try await call(url) { data throws(FlickrError) in try FlickrCollectionDecoder.decodeLookedUpUser(data) }
        } catch .api(code: 1, _) {
            throw .notFound(Self.noSuchUser(name))
        }
    }

    /// `found` with the name, real name and path alias `people.getInfo`
    /// gives. A service without that call (a mirror, the sandbox) leaves
    /// `found` as it was; a missing or deleted person is a sentence.
    private func withProfile(_ found: Person, asked name: String) async throws(FlickrError) -> Person {
        let url = try requestURL(method: "flickr.people.getInfo", parameters: [("user_id", found.id)])
        do throws(FlickrError) {
            return try await call(url) { data throws(FlickrError) in try FlickrCollectionDecoder.decodePerson(data) }
        } catch .api(code: 1, _) {
            throw .notFound(Self.noSuchUser(name))
        } catch .api(code: 5, _) {
            throw .notFound("Flickr says the account “\(Self.excerpt(name))” was deleted.")
        } catch .api(let code, let message) {
            logger.debug("people.getInfo failed; naming the person as looked up", metadata: [
                "code": "\(code)", "message": "\(message)",
            ])
            return found
        }
    }

    static func noSuchUser(_ name: String) -> String {
        "Flickr has no user “\(excerpt(name))”: give a username, path alias, NSID (such as 12345678@N00) or profile URL."
    }

    private static func excerpt(_ text: String) -> String {
        ResponseExcerpt.make(text, limit: 40)
    }

    // MARK: - Photos of a collection

    /// One page of a photostream (`flickr.people.getPublicPhotos`, or
    /// signed in `flickr.people.getPhotos`, which adds the non-public photos
    /// the caller may see, the owner's own included), album
    /// (`flickr.photosets.getPhotos`), gallery (`flickr.galleries.getPhotos`)
    /// or pool (`flickr.groups.pools.getPhotos`), videos included.
    public func photos(in collection: PhotoCollection, page: Int, perPage: Int) async throws(FlickrError) -> PhotoPage {
        try await collectionPage(collection, page: page, perPage: perPage).page.page
    }

    func collectionPage(
        _ collection: PhotoCollection, page: Int, perPage: Int
    ) async throws(FlickrError) -> FlickrCollectionDecoder.CollectionPage {
        try Self.validate(page: page, perPage: perPage)
        let paging = [
            ("extras", Self.collectionExtras.joined(separator: ",")), ("page", String(page)), ("per_page", String(perPage)),
        ]
        let name = Self.excerpt(collection.title.isEmpty ? collection.id : collection.title)
        let method: String
        var parameters: [(String, String)]
        var listKey = "photos"
        let missing: [Int: String]
        switch collection.kind {
        case .photostream:
            method = signIn.isSignedIn ? "flickr.people.getPhotos" : "flickr.people.getPublicPhotos"
            parameters = [("user_id", collection.id)]
            missing = [1: Self.noSuchUser(name), 5: "Flickr says the account “\(name)” was deleted."]
        case .album:
            method = "flickr.photosets.getPhotos"
            parameters = [("photoset_id", collection.id)]
            if let owner = collection.owner?.id, Self.isNSID(owner) { parameters.append(("user_id", owner)) }
            listKey = "photoset"
            missing = [
                1: "Flickr has no album “\(name)”, or it is private; check the link or the album's id.",
                2: Self.noSuchAlbumOwner(collection.owner, album: name),
            ]
        case .gallery:
            method = "flickr.galleries.getPhotos"
            parameters = [("gallery_id", collection.id)]
            missing = [1: "Flickr has no gallery “\(name)”; check the link."]
        case .pool:
            method = "flickr.groups.pools.getPhotos"
            parameters = [("group_id", collection.id)]
            missing = [
                1: "Flickr has no group “\(name)”; check the link.",
                2: "The pool of “\(name)” is visible to its members only.",
            ]
        }
        let url = try requestURL(method: method, parameters: parameters + paging)
        do throws(FlickrError) {
            var result = try await call(url) { data throws(FlickrError) in
                try FlickrCollectionDecoder.decodePage(data, listKey: listKey)
            }
            result.page.page = await relicensed(Self.filledIn(result.page.page, asked: page))
            return result
        } catch .api(let code, let message) {
            if let sentence = missing[code] { throw .notFound(sentence) }
            throw .api(code: code, message: message)
        }
    }

    /// Flickr's "User not found" for an album: names the owner the link
    /// gave, or, with none (an album given by its id alone), says so and
    /// asks for the link, rather than quoting an empty name.
    static func noSuchAlbumOwner(_ owner: Person?, album: String) -> String {
        let named = [owner?.displayName, owner?.pathAlias, owner?.id].compactMap { $0.map(excerpt) }
            .first { $0.unicodeScalars.contains { !$0.properties.isWhitespace } }
        if let named { return "Flickr has no user “\(named)” with the album “\(album)”." }
        return "Flickr could not find the album “\(album)” without knowing its owner (it answered “User not found”): give the album's link, flickr.com/photos/USER/albums/ID."
    }

    // MARK: - Albums

    /// One page of `person`'s albums (`flickr.photosets.getList`), each with
    /// its photo and video counts and its cover photo's sizes.
    public func albums(of person: Person, page: Int, perPage: Int) async throws(FlickrError) -> AlbumPage {
        try Self.validate(page: page, perPage: perPage)
        let url = try requestURL(method: "flickr.photosets.getList", parameters: [
            ("user_id", person.id), ("page", String(page)), ("per_page", String(perPage)),
            ("primary_photo_extras", Self.collectionExtras.joined(separator: ",")),
        ])
        do throws(FlickrError) {
            return try await call(url) { data throws(FlickrError) in
                try FlickrCollectionDecoder.decodeAlbums(data, owner: person)
            }
        } catch .api(code: 1, _) {
            throw .notFound(Self.noSuchUser(person.displayName))
        }
    }

    // MARK: - Links

    /// What a link names, asking Flickr for ids and titles: a photo
    /// (`flickr.photos.getInfo`), a person's photostream, an album (its
    /// first page names its title and owner), a gallery
    /// (`flickr.urls.lookupGallery`) or a pool (`flickr.urls.lookupGroup`).
    public func resolve(_ link: ProviderLink) async throws(FlickrError) -> LinkTarget {
        switch link {
        case .photo(let id):
            return .photo(try await photo(id: id))
        case .person(let name):
            // A name from a link is a path alias or NSID, never a username.
            let named = Self.isNSID(name) ? name : "https://www.flickr.com/photos/\(name)/"
            return .collection(.photostream(of: try await person(named: named)))
        case .album(let id, let ownerName):
            return .collection(try await album(id: id, ownerName: ownerName))
        case .gallery(let url):
            let request = try requestURL(method: "flickr.urls.lookupGallery", parameters: [("url", url.absoluteString)])
            do throws(FlickrError) {
                return .collection(try await call(request) { data throws(FlickrError) in
                    try FlickrCollectionDecoder.decodeGallery(data)
                })
            } catch .api(code: 1, _) {
                throw .notFound("Flickr has no gallery at \(Self.excerpt(url.absoluteString)); check the link.")
            }
        case .pool(let group):
            let address = "https://www.flickr.com/groups/\(group)/pool/"
            let request = try requestURL(method: "flickr.urls.lookupGroup", parameters: [("url", address)])
            do throws(FlickrError) {
                return .collection(try await call(request) { data throws(FlickrError) in
                    try FlickrCollectionDecoder.decodeGroup(data)
                })
            } catch .api(code: 1, _) {
                throw .notFound("Flickr has no group “\(Self.excerpt(group))”; check the link.")
            }
        }
    }

    /// One photo as the grid shows it, by id (`flickr.photos.getInfo`).
    public func photo(id: String) async throws(FlickrError) -> Photo {
        let url = try requestURL(method: "flickr.photos.getInfo", parameters: [("photo_id", id)])
        do throws(FlickrError) {
            return try await call(url) { data throws(FlickrError) in try FlickrCollectionDecoder.decodeInfoPhoto(data) }
        } catch .api(code: 1, _) {
            throw .notFound("Flickr has no photo “\(Self.excerpt(id))”, or it is private.")
        }
    }

    /// The album `id`, titled and owned as its first page says; `ownerName`
    /// is the owner as the link spelt it (a path alias or NSID).
    private func album(id: String, ownerName: String?) async throws(FlickrError) -> PhotoCollection {
        let linked = ownerName.map { Person(id: $0, username: "", pathAlias: Self.isNSID($0) ? nil : $0) }
        let first = try await collectionPage(
            PhotoCollection(kind: .album, id: id, title: "", owner: linked), page: 1, perPage: 1)
        let owner = first.owner.map { listed in
            Person(id: listed.id, username: listed.username, pathAlias: linked?.pathAlias)
        } ?? linked
        return PhotoCollection(kind: .album, id: id, title: first.title ?? id, owner: owner)
    }

    // MARK: - Videos and pages

    /// The video file of a video (`flickr.photos.getSizes`' video sources:
    /// "Video Original" when offered, else the largest); nil for a photo.
    public func videoURL(for photo: Photo) async throws(FlickrError) -> URL? {
        guard photo.isVideo else { return nil }
        let url = try requestURL(method: "flickr.photos.getSizes", parameters: [("photo_id", photo.id)])
        return try await call(url) { data throws(FlickrError) in try FlickrCollectionDecoder.decodeVideoURL(data) }
    }

    /// `https://www.flickr.com/photos/OWNER/`.
    public func ownerPageURL(for photo: Photo) -> URL? {
        Self.flickrPage(["photos", photo.owner])
    }

    /// The photostream, `/photos/OWNER/albums/ID/`, `/photos/OWNER/galleries/ID/`
    /// or `/groups/ID/pool/`; nil for an album or gallery whose owner is unknown.
    public func pageURL(for collection: PhotoCollection) -> URL? {
        let owner = collection.owner.map { $0.pathAlias ?? $0.id }
        switch collection.kind {
        case .photostream:
            return Self.flickrPage(["photos", owner ?? collection.id])
        case .album:
            return owner.flatMap { Self.flickrPage(["photos", $0, "albums", collection.id]) }
        case .gallery:
            // Gallery ids are `OWNERNUMBER-GALLERYID`; its URL has the second part.
            let galleryID = collection.id.split(separator: "-").last.map(String.init) ?? collection.id
            return owner.flatMap { Self.flickrPage(["photos", $0, "galleries", galleryID]) }
        case .pool:
            return Self.flickrPage(["groups", collection.id, "pool"])
        }
    }

    /// `https://www.flickr.com/A/B/…/`, when every segment is path-safe.
    private static func flickrPage(_ segments: [String]) -> URL? {
        guard segments.allSatisfy(isPathSafe) else { return nil }
        return URL(string: "https://www.flickr.com/" + segments.joined(separator: "/") + "/")
    }
}

/// People already looked up, by the name asked for and by id, shared by
/// every copy of a provider.
final class PersonCache: Sendable {
    /// Enough for a long session; past it the cache starts over.
    static let capacity = 1_024

    private let entries = NIOLockedValueBox<[String: Person]>([:])

    subscript(name: String) -> Person? {
        get { entries.withLockedValue { $0[name] } }
        set {
            entries.withLockedValue { entries in
                if entries.count >= Self.capacity, entries[name] == nil { entries.removeAll(keepingCapacity: true) }
                entries[name] = newValue
            }
        }
    }
}
