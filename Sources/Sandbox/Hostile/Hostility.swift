/// The hostile case one answer is being written with. Set as a task-local
/// around the API's answer, so the listing code and the wire writers ask
/// for it where they need it instead of every signature carrying it.
struct Hostility: Sendable {
    @TaskLocal static var current: Hostility?

    /// The case this answer was drawn.
    let chosen: HostileCase
    /// The text cases allowed: with more than one, each photo draws its own,
    /// so one page shows many.
    let textCases: [HostileCase]
    let seed: UInt64

    /// The hostile case of `kind` in force, if any.
    static func active(_ kind: HostileCase.Kind) -> HostileCase? {
        guard let chosen = current?.chosen, chosen.kind == kind else { return nil }
        return chosen
    }

    static func isActive(_ hostileCase: HostileCase) -> Bool { current?.chosen == hostileCase }

    /// The text case a photo (or person, album…) keyed `key` gets.
    func textCase(for key: String) -> HostileCase {
        guard textCases.count > 1 else { return chosen }
        return textCases[Int(StableHash.hash(key, seed: seed) % UInt64(textCases.count))]
    }

    /// `photo` as this answer shows it.
    func apply(to photo: CatalogPhoto) -> CatalogPhoto {
        var photo = photo
        switch chosen.kind {
        case .text:
            let text = textCase(for: photo.id)
            let salt = photo.index
            photo.title = text.text(photo.title, salt: salt)
            photo.description = text.text(photo.description, salt: salt + 1)
            photo.ownerName = text.text(photo.ownerName, salt: salt + 2)
            photo.ownerRealName = text.text(photo.ownerRealName, salt: salt + 3)
            photo.tags = photo.tags.enumerated().map { text.text($1, salt: salt + 4 + $0) }
        case .numbers:
            photo.hostile.dimension = HostileNumbers(chosen)?.dimension
        case .link:
            photo.hostile.pageURL = chosen.photoLink(owner: photo.owner, id: photo.id, salt: photo.index)
            photo.hostile.creatorURL = chosen.photoLink(owner: photo.owner, id: photo.id, salt: photo.index + 1)
        case .license:
            photo.hostile.license = HostileLicense(chosen, salt: photo.index)
        case .list, .refusal, .image:
            break
        }
        return photo
    }

    func apply(to person: CatalogPerson) -> CatalogPerson {
        guard chosen.kind == .text else { return person }
        let text = textCase(for: person.nsid)
        let salt = Int(StableHash.hash(person.nsid, seed: 0) % 1_000)
        return CatalogPerson(nsid: person.nsid, username: text.text(person.username, salt: salt),
                             realName: text.text(person.realName, salt: salt + 1), pathAlias: person.pathAlias)
    }

    func apply(to album: CatalogAlbum) -> CatalogAlbum {
        guard chosen.kind == .text else { return album }
        let text = textCase(for: album.id)
        let salt = Int(StableHash.hash(album.id, seed: 0) % 1_000)
        return CatalogAlbum(id: album.id, owner: album.owner, title: text.text(album.title, salt: salt),
                            description: text.text(album.description, salt: salt + 1), photoIndexes: album.photoIndexes,
                            primaryIndex: album.primaryIndex, dateCreate: album.dateCreate, dateUpdate: album.dateUpdate)
    }

    func apply(to gallery: CatalogGallery) -> CatalogGallery {
        guard chosen.kind == .text else { return gallery }
        let text = textCase(for: gallery.id)
        let salt = Int(StableHash.hash(gallery.id, seed: 0) % 1_000)
        return CatalogGallery(id: gallery.id, compoundID: gallery.compoundID, owner: gallery.owner,
                              title: text.text(gallery.title, salt: salt), description: text.text(gallery.description, salt: salt + 1),
                              photoIndexes: gallery.photoIndexes, dateCreate: gallery.dateCreate, dateUpdate: gallery.dateUpdate)
    }

    func apply(to group: CatalogGroup) -> CatalogGroup {
        guard chosen.kind == .text else { return group }
        let text = textCase(for: group.nsid)
        return CatalogGroup(nsid: group.nsid, name: text.text(group.name, salt: 0), pathAlias: group.pathAlias,
                            photoIndexes: group.photoIndexes)
    }

    func apply(to listing: PhotoListing) -> PhotoListing {
        var listing = listing
        listing.photos = listing.photos.map(apply(to:))
        listing.numbers = HostileNumbers(chosen)
        if let gallery = listing.gallery {
            listing.gallery = GalleryInfo(gallery: apply(to: gallery.gallery), owner: apply(to: gallery.owner),
                                          photos: gallery.photos.map(apply(to:)))
        }
        return listing
    }

    /// A Flickr REST payload as this answer shows it.
    func apply(to payload: RestPayload) -> RestPayload {
        switch payload {
        case .photos(let listing): return .photos(apply(to: listing))
        case .info(let photo): return .info(apply(to: photo))
        case .sizes(let photo, let imageBase): return .sizes(apply(to: photo), imageBase: imageBase)
        case .user(let nsid, let username, let method):
            guard chosen.kind == .text else { return payload }
            return .user(nsid: nsid, username: textCase(for: nsid).text(username, salt: 0), method: method)
        case .licenses(let entries):
            guard chosen.kind == .text else { return payload }
            return .licenses(entries.map { entry in
                FlickrLicenseList.Entry(id: entry.id, name: textCase(for: "licence \(entry.id)").text(entry.name, salt: entry.id),
                                        url: entry.url)
            })
        case .person(let info):
            return .person(PersonInfo(person: apply(to: info.person), photos: info.photos))
        case .group(let group): return .group(apply(to: group))
        case .gallery(let info):
            return .gallery(GalleryInfo(gallery: apply(to: info.gallery), owner: apply(to: info.owner), photos: info.photos))
        case .photoset(let listing, let header):
            let ownerName = chosen.kind == .text ? textCase(for: header.album.owner).text(header.ownerName, salt: 0) : header.ownerName
            return .photoset(apply(to: listing), PhotosetHeader(album: apply(to: header.album), ownerName: ownerName,
                                                                primaryID: header.primaryID))
        case .photosets(var list):
            list.entries = list.entries.map { PhotosetList.Entry(album: apply(to: $0.album), primary: apply(to: $0.primary), videos: $0.videos) }
            return .photosets(list)
        case .echo, .failure, .createdPhotoset:
            return payload
        }
    }
}

/// A number as it goes on the wire, which need not be a number: the JSON
/// literal and the XML attribute text.
struct HostileNumber: Sendable, Hashable {
    let json: String
    let text: String

    static func literal(_ text: String) -> HostileNumber { HostileNumber(json: text, text: text) }
    static let empty = HostileNumber(json: "\"\"", text: "")
}

/// The counts of a page and the pixel sizes of its photos under a numbers case.
struct HostileNumbers: Sendable, Hashable {
    var page: HostileNumber
    var pages: HostileNumber
    var perPage: HostileNumber
    var total: HostileNumber
    var dimension: HostileNumber

    init?(_ hostileCase: HostileCase) {
        switch hostileCase {
        case .hugeNumbers:
            let max = HostileNumber.literal("9223372036854775807")
            (page, pages, perPage, dimension) = (max, max, max, max)
            total = .literal("99999999999999999999")
        case .negativeNumbers:
            (page, pages, perPage, total, dimension) = (.literal("-1"), .literal("-5"), .literal("-100"), .literal("-5"), .literal("-1"))
        case .emptyNumbers:
            (page, pages, perPage, total, dimension) = (.empty, .empty, .empty, .empty, .empty)
        default:
            return nil
        }
    }
}

/// A licence as a licence case shows it; nil members keep the photo's own.
struct HostileLicense: Sendable, Hashable {
    /// Flickr's licence id, as text.
    var flickrID: String?
    /// Openverse's `license`, `license_version`, `license_url` and `attribution`.
    var slug: String?
    var version: String?
    var url: String?
    var attribution: String?

    init?(_ hostileCase: HostileCase, salt: Int) {
        switch hostileCase {
        case .paddedLicenseVersion:
            flickrID = " 4 "
            slug = "by"
            version = " 4.0 "
        case .pathLicenseVersion:
            slug = "by"
            version = "../../evil"
            url = "https://creativecommons.org/licenses/by/../../evil/"
        case .contradictoryAttribution:
            slug = "by-nc-nd"
            version = "4.0"
            url = "https://creativecommons.org/licenses/by-nc-nd/4.0/"
            attribution = "\"A photo\" by someone is licensed under CC BY 2.0. To view a copy of this license, "
                + "visit https://creativecommons.org/licenses/by/2.0/."
        case .unknownLicense:
            flickrID = salt % 2 == 0 ? "99" : "-1"
            slug = "evil"
            version = "9.9"
            url = "javascript:alert(1)"
        default:
            return nil
        }
    }
}

/// What the hostile cases change in a photo beyond its text.
struct HostileOverrides: Sendable, Hashable {
    /// Every width and height of the photo.
    var dimension: HostileNumber?
    var pageURL: String?
    var creatorURL: String?
    var license: HostileLicense?
}

/// The wire text of a page's counts and a photo's sizes: the hostile
/// numbers when a numbers case is in force, the real ones otherwise.
extension PhotoListing {
    func json(_ field: KeyPath<HostileNumbers, HostileNumber>, _ value: Int) -> String { numbers?[keyPath: field].json ?? "\(value)" }
    func text(_ field: KeyPath<HostileNumbers, HostileNumber>, _ value: Int) -> String { numbers?[keyPath: field].text ?? "\(value)" }
}

extension CatalogPhoto {
    /// A width or height as JSON.
    func dimensionJSON(_ value: Int) -> String { hostile.dimension?.json ?? "\(value)" }
    /// A width or height as XML attribute text.
    func dimensionText(_ value: Int) -> String { hostile.dimension?.text ?? "\(value)" }
    /// Flickr's licence id as text.
    var licenseText: String { hostile.license?.flickrID ?? "\(license)" }
}
