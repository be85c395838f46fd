import PhotoCore
import FlickrService
import Foundation
import NIOConcurrencyHelpers

/// A provider with one person and one album, served from memory in pages as
/// a real service would: the album holds `photos`, the person's photostream
/// the same photos. Reads album links of the form
/// `https://albums.test/ID` and resolves the album by id. Records the
/// requests it answered.
final class CollectionProvider: PhotoProvider, RecentPhotos, PhotoCollections, LinkReader, VideoFiles, @unchecked Sendable {
    // @unchecked: the only mutable field is guarded by `lock`.
    let service: PhotoService = FlickrProvider.service
    let displayName = "collections"
    let maxResults: Int? = nil
    let person = Person(id: "99@N00", username: "ana", realName: "Ana Souza", pathAlias: "anasouza")
    let albumID = "72157719"
    let albumTitle: String
    let photos: [Photo]
    private let lock = NIOLock()
    private var _requests: [String] = []

    init(photos: [Photo], albumTitle: String = "Lisbon: tiles/trams") {
        self.photos = photos
        self.albumTitle = albumTitle
    }

    /// Photos titled as given, ids 1, 2, 3…; `videos` are the 1-based
    /// positions of the videos among them.
    convenience init(titles: [String], videos: Set<Int> = [], albumTitle: String = "Lisbon: tiles/trams") {
        self.init(photos: titles.enumerated().map { offset, title in
            Photo(id: "\(offset + 1)", owner: "99@N00", ownerName: "ana", title: title,
                  dateTaken: "2019-06-0\(offset % 9 + 1) 14:03:22", flickr: FlickrPhotoKeys(secret: "s\(offset + 1)", server: "1"),
                  isVideo: videos.contains(offset + 1))
        }, albumTitle: albumTitle)
    }

    var album: PhotoCollection {
        PhotoCollection(kind: .album, id: albumID, title: albumTitle, owner: person)
    }

    var requests: [String] { lock.withLock { _requests } }

    private func note(_ request: String) {
        lock.withLock { _requests.append(request) }
    }


    let perPageRange = 1...500

    var capabilities: ProviderCapabilities {
        ProviderCapabilities(
            recent: .supported(self), lookup: .unsupported("\(service.name) has no call for a photo's details by id; search for it instead."),
            collections: .supported(self), links: .supported(self), videos: .supported(self),
            favourites: .unsupported("No favourites here."))
    }

    func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? {
        imageURL(for: photo, covering: need)
    }

    func albums(of person: Person, page: Int, perPage: Int) async throws -> AlbumPage {
        throw UnsupportedByProvider("No albums are listed here.")
    }

    func ownerPageURL(for photo: Photo) -> URL? { nil }

    func pageURL(for collection: PhotoCollection) -> URL? { nil }

    func person(named name: String) async throws -> Person {
        note("person \(name)")
        guard [person.id, person.username, person.pathAlias].contains(name) else {
            throw UnsupportedByProvider("No one is called \(name).")
        }
        return person
    }

    func photos(in collection: PhotoCollection, page: Int, perPage: Int) async throws -> PhotoPage {
        note("\(collection.kind.rawValue) \(collection.id) page \(page)")
        let start = (page - 1) * perPage
        let slice = start < photos.count ? Array(photos[start..<min(start + perPage, photos.count)]) : []
        return PhotoPage(page: page, pages: (photos.count + perPage - 1) / perPage, perPage: perPage, total: photos.count, photos: slice)
    }

    func readLink(_ text: String) -> LinkReading {
        guard let url = URL(string: text), url.host == "albums.test" else { return .notALink }
        return .link(.album(id: url.lastPathComponent, owner: nil))
    }

    func foreignLinkSentence(host: String) -> String {
        "That is a link to \(host): only album links (albums.test) open here."
    }

    func resolve(_ link: ProviderLink) async throws -> LinkTarget {
        note("resolve \(link)")
        guard case .album(let id, _) = link, id == albumID else { throw UnsupportedByProvider("Album not found.") }
        return .collection(album)
    }

    func videoURL(for photo: Photo) async throws -> URL? {
        URL(string: "http://videos.test/\(photo.id).mp4")
    }

    func search(_ query: SearchQuery, page: Int, perPage: Int) async throws -> PhotoPage {
        try await photos(in: album, page: page, perPage: perPage)
    }

    func recent(page: Int, perPage: Int) async throws -> PhotoPage {
        try await photos(in: album, page: page, perPage: perPage)
    }

    func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        URL(string: "http://images.test/\(photo.id)_q.jpg")
    }

    func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        URL(string: "http://images.test/\(photo.id)_q.jpg")
    }

    func photoPageURL(for photo: Photo) -> URL? {
        URL(string: "https://www.flickr.com/photos/99@N00/\(photo.id)/")
    }

    func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        PhotoDetails(id: photo.id, title: photo.title, ownerID: photo.owner, pageURL: nil)
    }
}
