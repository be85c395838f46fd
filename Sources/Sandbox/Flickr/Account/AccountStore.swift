import Foundation
import NIOConcurrencyHelpers

/// What the sandbox remembers of its people beyond the generated catalog:
/// the test user's non-public photos, uploads (with their bytes), licences
/// changed by their owner, favourites per person and albums made over the API.
///
/// Kept in memory for the server's life; a sandbox started again begins
/// from the catalog as generated.
final class AccountStore: Sendable {
    /// Uploads kept at most, in bytes, whatever the number of files.
    static let keptBytesCap = 256 << 20
    /// How many non-public photos the test user starts with.
    static let seededCount = 6

    struct Upload: Sendable {
        var bytes: [UInt8]
        var format: SandboxImageFormat
    }

    /// An album made with `flickr.photosets.create`.
    struct Album: Sendable {
        var id: String
        var owner: String
        var title: String
        var description: String
        /// Photo ids in album order, the primary first.
        var photoIDs: [String]
        /// Unix seconds.
        var dateCreate: Int
        var dateUpdate: Int
    }

    private struct State {
        /// The test user's non-public photos and every upload, newest first.
        var extras: [CatalogPhoto]
        var uploads: [String: Upload] = [:]
        var licences: [String: Int] = [:]
        /// Photo ids by the NSID of whoever faved them, newest first.
        var favourites: [String: [String]]
        var albums: [String: Album] = [:]
        var keptBytes = 0
        var nextID: Int64
        var nextDate: Int
        var nextAlbum = 1
    }

    let catalog: Catalog
    let owner: CatalogPerson
    private let state: NIOLockedValueBox<State>

    init(catalog: Catalog) {
        self.catalog = catalog
        owner = catalog.wellKnownOwner
        let seeded = Self.seededPhotos(catalog: catalog, owner: owner)
        let newest = seeded.first ?? catalog.photo(at: 0)
        let faves = Self.seededFavourites(catalog: catalog, owner: owner)
        state = NIOLockedValueBox(State(
            extras: seeded, favourites: [owner.nsid: faves],
            nextID: (Int64(newest.id) ?? CatalogGenerator.newestID) + 100_000, nextDate: newest.dateUpload + 3_600))
    }

    // MARK: - Seeds

    /// Copies of the owner's newest photos under new, newer ids: private,
    /// friends, family, friends and family, private, private.
    private static func seededPhotos(catalog: Catalog, owner: CatalogPerson) -> [CatalogPhoto] {
        let visibilities = [
            PhotoVisibility.onlyYou, PhotoVisibility(isPublic: false, isFriend: true, isFamily: false),
            PhotoVisibility(isPublic: false, isFriend: false, isFamily: true),
            PhotoVisibility(isPublic: false, isFriend: true, isFamily: true), .onlyYou, .onlyYou,
        ]
        let templates = catalog.photostream(of: owner.nsid).prefix(seededCount).map(catalog.photo(at:))
        let newestID = Int64(catalog.photo(at: 0).id) ?? CatalogGenerator.newestID
        let newestDate = catalog.photo(at: 0).dateUpload
        return templates.enumerated().map { position, template in
            let age = templates.count - position
            var photo = copy(template, index: catalog.count + position, id: String(newestID + Int64(age) * 1_000),
                             dateUpload: newestDate + age * 3_600)
            photo.visibility = visibilities[position % visibilities.count]
            return photo
        }
    }

    /// A dozen other people's photos, spread over the catalog.
    private static func seededFavourites(catalog: Catalog, owner: CatalogPerson) -> [String] {
        let step = max(1, catalog.count / 13)
        return stride(from: step / 2, to: catalog.count, by: step).map(catalog.photo(at:))
            .filter { $0.owner != owner.nsid }.prefix(12).map(\.id)
    }

    private static func copy(_ photo: CatalogPhoto, index: Int, id: String, dateUpload: Int) -> CatalogPhoto {
        CatalogPhoto(
            index: index, id: id, owner: photo.owner, ownerName: photo.ownerName, ownerRealName: photo.ownerRealName,
            secret: photo.secret, server: photo.server, farm: photo.farm, title: photo.title,
            description: photo.description, tags: photo.tags, dateUpload: dateUpload, dateTaken: photo.dateTaken,
            originalWidth: photo.originalWidth, originalHeight: photo.originalHeight, originalSecret: photo.originalSecret,
            secret1600: photo.secret1600, secret2048: photo.secret2048, views: photo.views, license: photo.license,
            fileFormat: photo.fileFormat, pathAlias: photo.pathAlias, isVideo: photo.isVideo)
    }

    // MARK: - Looking photos up

    /// Whether `caller` may see `photo`: public photos to all, the rest to their owner.
    static func isVisible(_ photo: CatalogPhoto, to caller: SignedCaller?) -> Bool {
        photo.visibility.isPublic || caller?.person.nsid == photo.owner
    }

    /// Any photo by id, catalog or not, with its current licence; nil when
    /// there is none or `caller` may not see it ("Photo not found", as Flickr says).
    func photo(id: String, seenBy caller: SignedCaller?) -> CatalogPhoto? {
        guard let photo = anyPhoto(id: id), Self.isVisible(photo, to: caller) else { return nil }
        return photo
    }

    /// A photo by id whoever asks (image URLs carry the secret instead).
    func anyPhoto(id: String) -> CatalogPhoto? {
        state.withLockedValue { state in
            let found = catalog.photo(id: id) ?? state.extras.first { $0.id == id }
            return found.map { Self.current($0, licences: state.licences) }
        }
    }

    /// An upload's bytes as sent.
    func upload(id: String) -> Upload? { state.withLockedValue { $0.uploads[id] } }

    /// The photos with the licences their owners set since.
    func current(_ photos: [CatalogPhoto]) -> [CatalogPhoto] {
        state.withLockedValue { state in
            state.licences.isEmpty ? photos : photos.map { Self.current($0, licences: state.licences) }
        }
    }

    private static func current(_ photo: CatalogPhoto, licences: [String: Int]) -> CatalogPhoto {
        guard let licence = licences[photo.id] else { return photo }
        var changed = photo
        changed.license = licence
        return changed
    }

    /// The photos outside the catalog that `caller` may see and `admits`
    /// lets through, newest first (they are all newer than the catalog's).
    func extras(seenBy caller: SignedCaller?, where admits: (CatalogPhoto) -> Bool = { _ in true }) -> [CatalogPhoto] {
        state.withLockedValue { state in
            state.extras.filter { Self.isVisible($0, to: caller) && admits($0) }
                .map { Self.current($0, licences: state.licences) }
        }
    }

    // MARK: - Uploads

    /// Why an upload was refused, with Flickr's upload code.
    struct UploadRefusal: Error, Equatable {
        var code: Int
        var message: String

        static let noPhoto = UploadRefusal(code: 2, message: "No photo specified")
        static let generalFailure = UploadRefusal(code: 3, message: "General upload failure")
        static let empty = UploadRefusal(code: 4, message: "Filesize was zero")
        static let notAnImage = UploadRefusal(code: 5, message: "Filetype was not recognised")
        static let limitReached = UploadRefusal(code: 6, message: "User exceeded upload limit")
        static let tooLarge = UploadRefusal(code: 8, message: "Filesize was too large")
    }

    /// What an upload form said about its photo.
    struct UploadFields {
        var title: String
        var description: String
        var tags: [String]
        var visibility: PhotoVisibility
    }

    /// Keeps `bytes` as a new photo of `person`; its id, or the refusal.
    func addUpload(_ bytes: [UInt8], fields: UploadFields, by person: CatalogPerson) -> Result<String, UploadRefusal> {
        guard !bytes.isEmpty else { return .failure(.empty) }
        guard let format = Self.imageFormat(of: bytes) else { return .failure(.notAnImage) }
        let now = Int(Date().timeIntervalSince1970)
        return state.withLockedValue { state in
            guard state.keptBytes <= Self.keptBytesCap - bytes.count else { return .failure(.limitReached) }
            let id = String(state.nextID)
            // Strictly newer than everything before, whatever the clock says.
            let date = max(now, state.nextDate)
            state.nextID += 1_000
            state.nextDate = date + 1
            func hex() -> String { String(format: "%010llx", UInt64.random(in: 0..<(1 << 40))) }
            var photo = CatalogPhoto(
                index: catalog.count + Self.seededCount + state.uploads.count, id: id, owner: person.nsid,
                ownerName: person.username, ownerRealName: person.realName, secret: hex(), server: "65535", farm: 66,
                title: fields.title, description: fields.description, tags: fields.tags, dateUpload: date,
                dateTaken: CalendarDate(unix: date).text, originalWidth: 2_048, originalHeight: 1_536,
                originalSecret: hex(), secret1600: hex(), secret2048: hex(), views: 0, license: 0,
                fileFormat: format, pathAlias: person.pathAlias, isVideo: false)
            photo.visibility = fields.visibility
            state.extras.insert(photo, at: 0)
            state.uploads[id] = Upload(bytes: bytes, format: format)
            state.keptBytes += bytes.count
            return .success(id)
        }
    }

    /// JPEG, PNG, GIF or WebP by their first bytes; nil for anything else.
    static func imageFormat(of bytes: [UInt8]) -> SandboxImageFormat? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    // MARK: - Licences, favourites, albums

    func setLicence(_ licence: Int, of photoID: String) {
        state.withLockedValue { $0.licences[photoID] = licence }
    }

    /// The ids `nsid` faved, newest first.
    func favourites(of nsid: String) -> [String] { state.withLockedValue { $0.favourites[nsid] ?? [] } }

    /// false when the photo already is a favourite.
    func addFavourite(_ photoID: String, by nsid: String) -> Bool {
        state.withLockedValue { state in
            var list = state.favourites[nsid] ?? []
            guard !list.contains(photoID) else { return false }
            list.insert(photoID, at: 0)
            state.favourites[nsid] = list
            return true
        }
    }

    /// false when the photo was no favourite.
    func removeFavourite(_ photoID: String, by nsid: String) -> Bool {
        state.withLockedValue { state in
            guard let position = state.favourites[nsid]?.firstIndex(of: photoID) else { return false }
            state.favourites[nsid]?.remove(at: position)
            return true
        }
    }

    /// A new album of `owner` with its primary photo; its id.
    func createAlbum(owner: String, title: String, description: String, primaryID: String) -> String {
        state.withLockedValue { state in
            // Above the catalog's album ids (72157720000000001…).
            let id = "7215773" + String(format: "%010d", state.nextAlbum)
            state.nextAlbum += 1
            let now = Int(Date().timeIntervalSince1970)
            state.albums[id] = Album(id: id, owner: owner, title: title, description: description, photoIDs: [primaryID],
                                     dateCreate: now, dateUpdate: now)
            return id
        }
    }

    func album(id: String) -> Album? { state.withLockedValue { $0.albums[id] } }

    /// The albums `owner` made over the API, newest first.
    func albums(of owner: String) -> [Album] {
        state.withLockedValue { state in state.albums.values.filter { $0.owner == owner }.sorted { $0.id > $1.id } }
    }

    /// Why a photo could not go into an album: nil when it went in.
    enum AlbumRefusal: Error { case noAlbum, alreadyIn }

    func addPhoto(_ photoID: String, toAlbum id: String, owner: String) -> AlbumRefusal? {
        state.withLockedValue { state in
            guard let album = state.albums[id], album.owner == owner else { return .noAlbum }
            guard !album.photoIDs.contains(photoID) else { return .alreadyIn }
            state.albums[id]?.photoIDs.append(photoID)
            state.albums[id]?.dateUpdate = Int(Date().timeIntervalSince1970)
            return nil
        }
    }
}
