import PhotoCore
import Foundation
import Networking

/// Reads the answers about people, albums, galleries and groups, in any of
/// Flickr's formats (JSON, JSONP, XML), as leniently as photo lists.
public enum FlickrCollectionDecoder {
    /// A page of an album, gallery, pool or photostream, with what the list
    /// itself says of its collection (an album names its title and owner).
    public struct CollectionPage: Sendable, Equatable {
        public var page: FlickrResponseDecoder.DecodedPage
        /// The album's title, when the list names it.
        public var title: String?
        /// The owner the list names (albums), with the name it gives.
        public var owner: Person?
    }

    /// `flickr.people.findByUsername` and `flickr.urls.lookupUser`: the
    /// person's NSID (`nsid` or `id`) and username.
    public static func decodeLookedUpUser(_ data: Data) throws(FlickrError) -> Person {
        let user = try element("user", of: data)
        guard let id = (user["nsid"] ?? user["id"])?.lenientString, FlickrProvider.isNSID(id) else {
            throw .malformedResponse("the answer names no user id.")
        }
        return Person(id: id, username: text(user["username"]) ?? "")
    }

    /// `flickr.people.getInfo`: id, username, real name and path alias.
    public static func decodePerson(_ data: Data) throws(FlickrError) -> Person {
        let person = try element("person", of: data)
        guard let id = (person["nsid"] ?? person["id"])?.lenientString, FlickrProvider.isNSID(id) else {
            throw .malformedResponse("the answer describes no person with an id.")
        }
        return Person(
            id: id, username: text(person["username"]) ?? "", realName: text(person["realname"]),
            pathAlias: text(person["path_alias"]))
    }

    /// `flickr.people.getPublicPhotos`, `flickr.galleries.getPhotos` and
    /// `flickr.groups.pools.getPhotos` (`photos`), or
    /// `flickr.photosets.getPhotos` (`photoset`, which names the album's
    /// title and owner on the list and leaves `owner` off each photo).
    public static func decodePage(_ data: Data, listKey: String = "photos") throws(FlickrError) -> CollectionPage {
        let root = try FlickrResponseDecoder.readTree(data)
        try FlickrResponseDecoder.checkStatus(root)
        let page = try FlickrResponseDecoder.readPhotoPage(root, listKey: listKey)
        let list = FlickrResponseDecoder.first(root[listKey])
        let owner = FlickrResponseDecoder.nonEmpty(list?["owner"]).map { id in
            Person(id: id, username: text(list?["ownername"]) ?? "")
        }
        return CollectionPage(page: page, title: text(list?["title"]), owner: owner)
    }

    /// `flickr.photosets.getList`: one page of `owner`'s albums, each with
    /// its counts and, from `primary_photo_extras`, its cover photo.
    public static func decodeAlbums(_ data: Data, owner: Person) throws(FlickrError) -> AlbumPage {
        let list = try element("photosets", of: data)
        func count(_ key: String) -> Int {
            min(list[key]?.lenientInteger ?? 0, FlickrResponseDecoder.largestCount)
        }
        let albums = entries(list["photoset"]).compactMap { entry -> Album? in
            guard let members = entry.objectMembers, let id = FlickrResponseDecoder.nonEmpty(members["id"]) else {
                return nil
            }
            return Album(
                id: id, title: text(members["title"]) ?? "",
                photoCount: (members["count_photos"] ?? members["photos"])?.lenientInteger ?? 0,
                videoCount: (members["count_videos"] ?? members["videos"])?.lenientInteger ?? 0,
                owner: owner, cover: cover(members, owner: owner))
        }
        return AlbumPage(page: count("page"), pages: count("pages"), total: count("total"), albums: albums)
    }

    /// `flickr.urls.lookupGroup`: the group's id and name, as a pool.
    public static func decodeGroup(_ data: Data) throws(FlickrError) -> PhotoCollection {
        let group = try element("group", of: data)
        guard let id = FlickrResponseDecoder.nonEmpty(group["id"] ?? group["nsid"]) else {
            throw .malformedResponse("the answer names no group id.")
        }
        return PhotoCollection(kind: .pool, id: id, title: text(group["groupname"]) ?? text(group["name"]) ?? id)
    }

    /// `flickr.urls.lookupGallery` (and the `gallery` that
    /// `galleries.getPhotos` adds when asked): id, title and owner.
    public static func decodeGallery(_ data: Data) throws(FlickrError) -> PhotoCollection {
        let gallery = try element("gallery", of: data)
        guard let id = FlickrResponseDecoder.nonEmpty(gallery["id"]) else {
            throw .malformedResponse("the answer names no gallery id.")
        }
        let owner = FlickrResponseDecoder.nonEmpty(gallery["owner"]).map { ownerID in
            Person(id: ownerID, username: text(gallery["username"]) ?? "", pathAlias: pathAlias(in: gallery["url"]))
        }
        return PhotoCollection(kind: .gallery, id: id, title: text(gallery["title"]) ?? "", owner: owner)
    }

    /// `flickr.photos.getInfo` as a `Photo` the grid can show: the details
    /// decoder's fields plus the keys that build its image URLs, and whether
    /// it is a video.
    public static func decodeInfoPhoto(_ data: Data) throws(FlickrError) -> Photo {
        let details = try FlickrDetailsDecoder.decodeInfo(data)
        let photo = try element("photo", of: data)
        guard let secret = FlickrResponseDecoder.nonEmpty(photo["secret"]),
              let server = FlickrResponseDecoder.nonEmpty(photo["server"])
        else { throw .malformedResponse("the photo has no `secret` or `server`, so its images cannot be named.") }
        let owner = details.ownerID ?? ""
        return Photo(
            id: details.id, owner: owner, ownerName: details.ownerUsername, title: details.title,
            dateTaken: details.dateTaken,
            flickr: FlickrPhotoKeys(
                secret: secret, server: server, farm: photo["farm"]?.lenientInteger,
                originalSecret: FlickrResponseDecoder.nonEmpty(photo["originalsecret"]),
                originalFormat: FlickrResponseDecoder.nonEmpty(photo["originalformat"])),
            credit: details.license.map {
                PhotoCredit(license: $0, creator: details.ownerUsername, pageURL: details.pageURL, source: "flickr")
            },
            tags: details.tags, dateUploaded: details.dateUploaded,
            isVideo: photo["media"]?.lenientString == "video",
            visibility: FlickrResponseDecoder.first(photo["visibility"])?.objectMembers.flatMap(FlickrResponseDecoder.visibility))
    }

    /// `flickr.photos.getSizes`' video files (`media="video"`): "Video
    /// Original" when offered, else the largest; nil when there is none.
    /// The "Video Player" entry is a web player, not a file.
    public static func decodeVideoURL(_ data: Data) throws(FlickrError) -> URL? {
        let sizes = try element("sizes", of: data)
        let videos = entries(sizes["size"]).filter {
            $0["media"]?.lenientString == "video" && $0["label"]?.lenientString != "Video Player"
        }
        if let original = videos.first(where: { $0["label"]?.lenientString == "Video Original" }),
           let url = FlickrResponseDecoder.imageURL(original["source"]) {
            return url
        }
        func area(_ entry: WireValue) -> Int {
            let width = entry["width"]?.lenientInteger ?? 0, height = entry["height"]?.lenientInteger ?? 0
            return width.multipliedReportingOverflow(by: height).overflow ? Int.max : width * height
        }
        return videos.sorted { area($0) > area($1) }.lazy.compactMap { FlickrResponseDecoder.imageURL($0["source"]) }.first
    }

    // MARK: - Pieces

    /// The answer's one `name` element, after the status check.
    private static func element(_ name: String, of data: Data) throws(FlickrError) -> WireValue {
        let root = try FlickrResponseDecoder.readTree(data)
        try FlickrResponseDecoder.checkStatus(root)
        guard let value = FlickrResponseDecoder.first(root[name]), value.objectMembers != nil else {
            throw .malformedResponse("the answer has no `\(name)`.")
        }
        return value
    }

    /// Text as an attribute, a `{"_content": …}` or an XML child; nil when empty.
    private static func text(_ value: WireValue?) -> String? {
        guard let text = value?.lenientString, !text.isEmpty else { return nil }
        return text
    }

    /// A repeated element: a list in JSON and XML, or a lone object.
    private static func entries(_ value: WireValue?) -> [WireValue] {
        switch value {
        case .array(let values)?: values
        case .object?: [value ?? .null]
        default: []
        }
    }

    /// The album's primary photo, from its id, keys and the sizes
    /// `primary_photo_extras` asked for.
    private static func cover(_ album: [String: WireValue], owner: Person) -> Photo? {
        guard let primary = album["primary"] else { return nil }
        var members = FlickrResponseDecoder.first(album["primary_photo_extras"])?.objectMembers ?? [:]
        members["id"] = primary
        members["owner"] = .string(owner.id)
        for key in ["secret", "server", "farm"] { members[key] = album[key] }
        members["title"] = members["title"] ?? .string("")
        return FlickrResponseDecoder.readPhoto(.object(members))
    }

    /// `kuchpop` from `https://www.flickr.com/photos/kuchpop/galleries/…`,
    /// unless that segment is an NSID.
    private static func pathAlias(in value: WireValue?) -> String? {
        guard let text = value?.lenientString, let url = URL(string: text) else { return nil }
        let parts = url.path.split(separator: "/").map(String.init)
        guard parts.count >= 2, parts[0] == "photos", !FlickrProvider.isNSID(parts[1]),
              FlickrProvider.isPathSafe(parts[1]) else { return nil }
        return parts[1]
    }
}
