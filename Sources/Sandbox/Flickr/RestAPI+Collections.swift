import Foundation

/// People's photostreams, albums, galleries and group pools, and the URL
/// lookups that lead to them, answered as Flickr answers them (the failure
/// codes and messages are those of the recorded answers).
extension RestAPI {
    static let collectionMethods: Set = [
        "flickr.people.getInfo", "flickr.people.getPublicPhotos",
        "flickr.photosets.getList", "flickr.photosets.getPhotos",
        "flickr.galleries.getPhotos", "flickr.groups.pools.getPhotos",
        "flickr.urls.lookupGallery", "flickr.urls.lookupGroup",
    ]

    private static let userNotFound = RestPayload.failure(code: 1, message: "User not found")
    private static let photosetNotFound = RestPayload.failure(code: 1, message: "Photoset not found")
    private static let invalidGallery = RestPayload.failure(code: 1, message: "Invalid gallery ID")
    private static let groupNotFound = RestPayload.failure(code: 1, message: "Group not found")

    func collection(_ method: String, _ value: (String) -> String?, imageBase: String) -> RestPayload {
        func trimmed(_ name: String) -> String { value(name)?.trimmingCharacters(in: .whitespaces) ?? "" }
        let extras = Extras(value("extras"))
        switch method {
        case "flickr.people.getInfo":
            guard let person = catalog.person(nsid: trimmed("user_id")) else { return Self.userNotFound }
            return .person(PersonInfo(person: person, photos: catalog.photostream(of: person.nsid).map(catalog.photo(at:))))
        case "flickr.people.getPublicPhotos":
            guard let person = catalog.person(nsid: trimmed("user_id")) else { return Self.userNotFound }
            let (page, perPage) = Self.paging(value)
            return .photos(listing(catalog.photostream(of: person.nsid), page: page, perPage: perPage, extras: extras,
                                   imageBase: imageBase, capped: false))
        case "flickr.photosets.getList":
            guard let person = catalog.person(nsid: trimmed("user_id")) else { return Self.userNotFound }
            return .photosets(photosets(of: person, value, imageBase: imageBase))
        case "flickr.photosets.getPhotos":
            guard let album = catalog.album(id: trimmed("photoset_id")),
                  trimmed("user_id").isEmpty || trimmed("user_id") == album.owner,
                  let owner = catalog.person(nsid: album.owner)
            else { return Self.photosetNotFound }
            let (page, perPage) = Self.paging(value, defaultPerPage: Self.maxPerPage)
            let primaryID = catalog.photo(at: album.primaryIndex).id
            var result = listing(album.photoIndexes, page: page, perPage: perPage, extras: extras, imageBase: imageBase,
                                capped: false)
            result.style = .photoset(primaryID: primaryID)
            return .photoset(result, PhotosetHeader(album: album, ownerName: owner.username, primaryID: primaryID))
        case "flickr.galleries.getPhotos":
            guard let info = galleryInfo(catalog.gallery(id: trimmed("gallery_id"))) else { return Self.invalidGallery }
            let (page, perPage) = Self.paging(value)
            var result = listing(info.gallery.photoIndexes, page: page, perPage: perPage, extras: extras,
                                 imageBase: imageBase, capped: false)
            result.style = .gallery(primaryID: info.photos.first?.id ?? "")
            if value("get_gallery_info") == "1" { result.gallery = info }
            return .photos(result)
        case "flickr.groups.pools.getPhotos":
            guard let group = catalog.groups.first(where: { $0.nsid == trimmed("group_id") }) else { return Self.groupNotFound }
            let (page, perPage) = Self.paging(value)
            var result = listing(group.photoIndexes, page: page, perPage: perPage, extras: extras, imageBase: imageBase,
                                 capped: false)
            result.style = .pool
            return .photos(result)
        case "flickr.urls.lookupGroup":
            guard let parts = Self.flickrPath(trimmed("url")), parts.count >= 2, parts[0] == "groups",
                  let group = catalog.group(parts[1])
            else { return Self.groupNotFound }
            return .group(group)
        default:
            // flickr.urls.lookupGallery: /photos/OWNER/galleries/ID/
            guard let parts = Self.flickrPath(trimmed("url")), parts.count >= 4, parts[0] == "photos", parts[2] == "galleries",
                  let owner = catalog.person(urlName: parts[1]),
                  let info = galleryInfo(catalog.gallery(id: parts[3])), info.gallery.owner == owner.nsid
            else { return Self.invalidGallery }
            return .gallery(info)
        }
    }

    private func galleryInfo(_ gallery: CatalogGallery?) -> GalleryInfo? {
        guard let gallery, let owner = catalog.person(nsid: gallery.owner) else { return nil }
        return GalleryInfo(gallery: gallery, owner: owner, photos: gallery.photoIndexes.map(catalog.photo(at:)))
    }

    /// One page of a person's albums; all of them when neither `page` nor
    /// `per_page` is given, as Flickr does.
    private func photosets(of person: CatalogPerson, _ value: (String) -> String?, imageBase: String) -> PhotosetList {
        let albums = catalog.albums(of: person.nsid)
        let unpaged = value("page") == nil && value("per_page") == nil
        let (page, perPage) = unpaged ? (1, max(1, albums.count)) : Self.paging(value, defaultPerPage: Self.maxPerPage)
        let start = min(albums.count, (page - 1) * perPage)
        let entries = albums[start..<min(albums.count, start + perPage)].map { album in
            PhotosetList.Entry(album: album, primary: catalog.photo(at: album.primaryIndex),
                               videos: album.photoIndexes.filter { catalog.photo(at: $0).isVideo }.count)
        }
        let extras = value("primary_photo_extras").map { Extras($0) }
        return PhotosetList(page: page, pages: (albums.count + perPage - 1) / perPage, perPage: perPage,
                            total: albums.count, entries: entries, primaryExtras: extras, imageBase: imageBase)
    }
}
