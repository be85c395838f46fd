import Foundation

/// The formats a `/services/rest/` answer can take.
enum ResponseFormat: Equatable {
    case json
    case jsonp(callback: String)
    case xml

    var contentType: String {
        switch self {
        case .json: "application/json; charset=utf-8"
        case .jsonp: "text/javascript; charset=utf-8"
        case .xml: "text/xml; charset=utf-8"
        }
    }
}

/// One page of photos and what the caller asked to see of each.
struct PhotoListing {
    var page: Int
    var pages: Int
    var perPage: Int
    var total: Int
    var photos: [CatalogPhoto]
    var extras: Extras
    /// `http://host:port`, the prefix of image URLs.
    var imageBase: String
    /// What kind of list the photos are in: it changes a few attributes.
    var style = ListingStyle.plain
    /// `galleries.getPhotos` with `get_gallery_info=1`: the gallery, after the photos.
    var gallery: GalleryInfo?
    /// The hostile sandbox's counts, written instead of the real ones.
    var numbers: HostileNumbers?
}

/// Attributes some lists add to each photo or leave out.
enum ListingStyle: Equatable {
    case plain
    /// An album: no `owner` (the photoset names it), `isprimary`.
    case photoset(primaryID: String)
    /// A group pool: `ownername` and `dateadded` always.
    case pool
    /// A gallery: `is_primary` and `has_comment` last.
    case gallery(primaryID: String)
}

/// `people.getInfo`'s person.
struct PersonInfo {
    var person: CatalogPerson
    var photos: [CatalogPhoto]
}

/// A gallery as `urls.lookupGallery` and `galleries.getPhotos` describe it.
struct GalleryInfo {
    var gallery: CatalogGallery
    var owner: CatalogPerson
    var photos: [CatalogPhoto]
}

/// `photosets.getPhotos`' photoset element around the listing.
struct PhotosetHeader {
    var album: CatalogAlbum
    var ownerName: String
    var primaryID: String
}

/// One page of `photosets.getList`.
struct PhotosetList {
    struct Entry {
        var album: CatalogAlbum
        var primary: CatalogPhoto
        var videos: Int
        /// An album made over the API holds photos outside the catalog: its count.
        var madeCount: Int? = nil

        var photoCount: Int { madeCount ?? album.photoIndexes.count }
    }

    var page: Int
    var pages: Int
    var perPage: Int
    var total: Int
    var entries: [Entry]
    /// `primary_photo_extras`: nil when not asked for.
    var primaryExtras: Extras?
    var imageBase: String
}

/// The `extras` a search or getRecent call asked for.
struct Extras: Equatable {
    var sizes: [SandboxImageSize] = []
    var ownerName = false
    var dateTaken = false
    var dateUpload = false
    var lastUpdate = false
    var description = false
    var tags = false
    var views = false
    var license = false
    var originalDimensions = false
    var originalFormat = false
    var media = false
    var pathAlias = false
    var realName = false

    init(_ list: String?) {
        guard let list else { return }
        for item in list.split(separator: ",") {
            let name = item.trimmingCharacters(in: .whitespaces).lowercased()
            switch name {
            case "owner_name": ownerName = true
            case "date_taken": dateTaken = true
            case "date_upload": dateUpload = true
            case "last_update": lastUpdate = true
            case "description": description = true
            case "tags": tags = true
            case "views": views = true
            case "license": license = true
            case "o_dims": originalDimensions = true
            case "original_format": originalFormat = true
            case "media": media = true
            case "path_alias": pathAlias = true
            case "realname": realName = true
            default:
                if name.hasPrefix("url_"), let size = SandboxImageSize(rawValue: String(name.dropFirst(4))),
                   !sizes.contains(size) {
                    sizes.append(size)
                }
            }
        }
    }

    /// The `url_*` extras one photo gets: only sizes it has, as on Flickr.
    func sizes(of photo: CatalogPhoto) -> [SandboxImageSize] { sizes.filter(photo.hasSize) }
}

/// What a REST call produced, before it is put into a format.
enum RestPayload {
    case photos(PhotoListing)
    case info(CatalogPhoto)
    case sizes(CatalogPhoto, imageBase: String)
    case echo([(String, String)])
    /// `findByUsername` / `urls.lookupUser`: the person's NSID and username.
    case user(nsid: String, username: String, method: String)
    case licenses([FlickrLicenseList.Entry])
    case person(PersonInfo)
    /// `urls.lookupGroup`.
    case group(CatalogGroup)
    /// `urls.lookupGallery`.
    case gallery(GalleryInfo)
    case photoset(PhotoListing, PhotosetHeader)
    case photosets(PhotosetList)
    /// `photosets.create`: the new album's id and page.
    case createdPhotoset(id: String, url: String)
    case failure(code: Int, message: String)
}

/// Values getInfo shows that the catalog does not store.
extension CatalogPhoto {
    /// Flickr's `lastupdate`: a while after the upload.
    var lastUpdate: Int { dateUpload + views % 97 * 3_600 }

    /// A Flickr tag id: owner number, photo id, tag number.
    func tagID(_ position: Int) -> String {
        "\(owner.prefix { $0 != "@" })-\(id)-\(1_000 + position)"
    }

    /// getSizes' `url`: the photo page's view of one size.
    func sizePageURL(_ size: SandboxImageSize) -> String { pageURL + "sizes/\(size.rawValue)/" }
}

enum WireFormat {
    static func render(_ payload: RestPayload, as format: ResponseFormat) -> [UInt8] {
        switch format {
        case .xml:
            var out = FlickrXML()
            out.render(payload)
            return out.bytes
        case .json:
            var out = FlickrJSON()
            out.render(payload)
            return out.writer.bytes
        case .jsonp(let callback):
            var out = FlickrJSON()
            out.writer.raw(callback + "(")
            out.render(payload)
            out.writer.raw(")")
            return out.writer.bytes
        }
    }
}
