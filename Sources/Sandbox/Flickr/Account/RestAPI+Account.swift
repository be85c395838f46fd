import Foundation

/// The methods of a signed-in person: who am I, a photostream with its
/// non-public photos, favourites, licences and albums. Errors are Flickr's
/// own codes and messages for each method.
extension RestAPI {
    static let accountMethods: Set = [
        "flickr.test.login", "flickr.people.getPhotos",
        "flickr.favorites.getList", "flickr.favorites.getPublicList", "flickr.favorites.add", "flickr.favorites.remove",
        "flickr.photos.licenses.setLicense", "flickr.photosets.create", "flickr.photosets.addPhoto",
    ]

    /// The methods that change something: a token with `perms=write` (or `delete`).
    static let writeMethods: Set = [
        "flickr.favorites.add", "flickr.favorites.remove", "flickr.photos.licenses.setLicense",
        "flickr.photosets.create", "flickr.photosets.addPhoto",
    ]

    /// The methods that answer only a signed call.
    static let signedMethods = writeMethods.union(["flickr.test.login", "flickr.favorites.getList"])

    private static let photoNotFound = RestPayload.failure(code: 1, message: "Photo not found")
    private static let userNotFound = RestPayload.failure(code: 1, message: "User not found")

    /// Flickr's 99 for a call without the permission it needs.
    static func insufficientPermissions(needs: OAuthPermission, has: OAuthPermission?) -> RestPayload {
        .failure(code: 99, message: "Insufficient permissions. Method requires \(needs.name) privileges; \(has?.name ?? "none") granted.")
    }

    func accountAnswer(_ method: String, _ value: (String) -> String?, caller: SignedCaller?, imageBase: String) -> RestPayload {
        if Self.signedMethods.contains(method) {
            let needs: OAuthPermission = Self.writeMethods.contains(method) ? .write : .read
            guard let caller, caller.permission >= needs else {
                return Self.insufficientPermissions(needs: needs, has: caller?.permission)
            }
        }
        let extras = Extras(value("extras"))
        let (page, perPage) = Self.paging(value)
        func photoID() -> String { value("photo_id")?.trimmingCharacters(in: .whitespaces) ?? "" }
        switch method {
        case "flickr.test.login":
            guard let caller else { return Self.insufficientPermissions(needs: .read, has: nil) }
            return .user(nsid: caller.person.nsid, username: caller.person.username, method: method)
        case "flickr.people.getPhotos":
            // Flickr's codes for this method: 2 for a user it does not know.
            let nsid = SignedCaller.userID(value("user_id"), caller: caller)
            guard catalog.person(nsid: nsid) != nil else { return .failure(code: 2, message: "Unknown user") }
            let own = account.extras(seenBy: caller) { $0.owner == nsid }
            return .photos(listing(catalog.photostream(of: nsid), leading: own, page: page, perPage: perPage,
                                   extras: extras, imageBase: imageBase, capped: false))
        case "flickr.favorites.getList", "flickr.favorites.getPublicList":
            let named = SignedCaller.userID(value("user_id"), caller: caller)
            let nsid = named.isEmpty && method == "flickr.favorites.getList" ? caller?.person.nsid ?? "" : named
            guard catalog.person(nsid: nsid) != nil else { return Self.userNotFound }
            // Only what the caller may see; the public list shows public photos to everyone.
            let viewer = method == "flickr.favorites.getList" ? caller : nil
            let faves = account.favourites(of: nsid).compactMap { account.photo(id: $0, seenBy: viewer) }
            return .photos(listing([], leading: faves, page: page, perPage: perPage, extras: extras, imageBase: imageBase,
                                   capped: false))
        case "flickr.favorites.add":
            guard let caller, account.photo(id: photoID(), seenBy: caller) != nil else { return Self.photoNotFound }
            guard account.addFavourite(photoID(), by: caller.person.nsid) else {
                return .failure(code: 2, message: "Photo is already in favorites")
            }
            return .echo([])
        case "flickr.favorites.remove":
            guard let caller, account.removeFavourite(photoID(), by: caller.person.nsid) else {
                return .failure(code: 1, message: "Photo not in favorites")
            }
            return .echo([])
        case "flickr.photos.licenses.setLicense":
            return setLicence(photoID(), value("license_id"), caller: caller)
        default:
            return album(method, value, caller: caller)
        }
    }

    /// Only the owner changes a licence, to one of Flickr's ids; 7 and 8
    /// (no known restrictions, US government work) are not offered to people.
    private func setLicence(_ photoID: String, _ licenceID: String?, caller: SignedCaller?) -> RestPayload {
        guard let caller, let photo = account.photo(id: photoID, seenBy: caller), photo.owner == caller.person.nsid else {
            return Self.photoNotFound
        }
        guard let licence = licenceID.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
              FlickrLicenseList.all.contains(where: { $0.id == licence })
        else { return .failure(code: 2, message: "License not found") }
        guard licence != 7, licence != 8 else { return .failure(code: 4, message: "License not available") }
        account.setLicence(licence, of: photo.id)
        return .echo([])
    }

    /// `photosets.create` (a title and a primary photo of the caller's) and `photosets.addPhoto`.
    private func album(_ method: String, _ value: (String) -> String?, caller: SignedCaller?) -> RestPayload {
        guard let caller else { return Self.insufficientPermissions(needs: .write, has: nil) }
        func trimmed(_ name: String) -> String { value(name)?.trimmingCharacters(in: .whitespaces) ?? "" }
        func ownPhoto(_ id: String) -> CatalogPhoto? {
            account.photo(id: id, seenBy: caller).flatMap { $0.owner == caller.person.nsid ? $0 : nil }
        }
        if method == "flickr.photosets.create" {
            guard !trimmed("title").isEmpty else { return .failure(code: 1, message: "No title specified") }
            guard let primary = ownPhoto(trimmed("primary_photo_id")) else { return .failure(code: 2, message: "Photo not found") }
            let id = account.createAlbum(owner: caller.person.nsid, title: value("title") ?? "",
                                         description: value("description") ?? "", primaryID: primary.id)
            return .createdPhotoset(id: id, url: caller.person.photosURL + "sets/\(id)/")
        }
        // flickr.photosets.addPhoto
        guard account.album(id: trimmed("photoset_id"))?.owner == caller.person.nsid else {
            return .failure(code: 1, message: "Photoset not found")
        }
        guard let photo = ownPhoto(trimmed("photo_id")) else { return .failure(code: 2, message: "Photo not found") }
        switch account.addPhoto(photo.id, toAlbum: trimmed("photoset_id"), owner: caller.person.nsid) {
        case nil: return .echo([])
        case .alreadyIn?: return .failure(code: 3, message: "Photo already in set")
        case .noAlbum?: return .failure(code: 1, message: "Photoset not found")
        }
    }

    /// The photos outside the catalog a search finds: the same words, tags,
    /// owner and narrowing as the catalog's matches, seen by `caller`.
    func extraMatches(text: String, tags: [String], requireAllTags: Bool, userID: String, narrowing: FlickrSearchFilter,
                      caller: SignedCaller?) -> [CatalogPhoto] {
        let query = SearchQuery(text: text)
        let wanted = Set(tags.map { $0.lowercased() })
        return account.extras(seenBy: caller) { photo in
            if !userID.isEmpty, photo.owner != userID { return false }
            if !query.isEmpty {
                let words = Set(Tokenizer.tokens(of: photo.title) + Tokenizer.tokens(of: photo.description)
                    + photo.tags.flatMap(Tokenizer.tokens(of:)))
                guard query.required.allSatisfy(words.contains), !query.excluded.contains(where: words.contains) else { return false }
            }
            if !wanted.isEmpty {
                let has = Set(photo.tags.map { $0.lowercased() })
                guard requireAllTags ? wanted.isSubset(of: has) : !wanted.isDisjoint(with: has) else { return false }
            }
            return narrowing.isEmpty || narrowing.admits(photo)
        }
    }
}

/// Albums made over the API in the lists of albums and as albums of their own.
extension RestAPI {
    /// `photosets.getList` with the person's made albums first; `photosets.getPhotos`
    /// of a made album; any other answer as it is.
    func withMadeAlbums(
        _ answer: RestPayload, _ method: String, _ value: (String) -> String?, caller: SignedCaller?, imageBase: String
    ) -> RestPayload {
        func trimmed(_ name: String) -> String { value(name)?.trimmingCharacters(in: .whitespaces) ?? "" }
        switch (method, answer) {
        case ("flickr.photosets.getPhotos", _):
            guard let made = account.album(id: trimmed("photoset_id")),
                  trimmed("user_id").isEmpty || trimmed("user_id") == made.owner,
                  let owner = catalog.person(nsid: made.owner)
            else { return answer }
            let photos = made.photoIDs.compactMap { account.photo(id: $0, seenBy: caller) }
            let (page, perPage) = Self.paging(value, defaultPerPage: Self.maxPerPage)
            let primaryID = made.photoIDs.first ?? ""
            var result = listing([], leading: photos, page: page, perPage: perPage, extras: Extras(value("extras")),
                                 imageBase: imageBase, capped: false)
            result.style = .photoset(primaryID: primaryID)
            return .photoset(result, PhotosetHeader(album: catalogAlbum(made), ownerName: owner.username, primaryID: primaryID))
        case ("flickr.photosets.getList", .photosets(var list)):
            let made = account.albums(of: SignedCaller.userID(value("user_id"), caller: caller)).compactMap { album in
                account.photo(id: album.photoIDs.first ?? "", seenBy: caller).map { primary in
                    PhotosetList.Entry(album: catalogAlbum(album), primary: primary, videos: 0,
                                       madeCount: album.photoIDs.filter { account.photo(id: $0, seenBy: caller) != nil }.count)
                }
            }
            guard !made.isEmpty else { return answer }
            // Made albums go on the first page, before the catalog's.
            if list.page == 1 { list.entries = made + list.entries }
            list.total += made.count
            return .photosets(list)
        default:
            return answer
        }
    }

    /// A made album in the catalog's shape; its photos are counted apart.
    private func catalogAlbum(_ album: AccountStore.Album) -> CatalogAlbum {
        CatalogAlbum(id: album.id, owner: album.owner, title: album.title, description: album.description, photoIndexes: [],
                     primaryIndex: 0, dateCreate: album.dateCreate, dateUpdate: album.dateUpdate)
    }
}
