import Foundation

/// A person at a provider, as far as the app knows them.
public struct Person: Sendable, Hashable, Codable {
    /// The provider's id (a Flickr NSID such as `12345678@N00`).
    public let id: String
    /// The name they sign in with; may be empty when the service did not say.
    public let username: String
    /// Their full name, when they gave one.
    public let realName: String?
    /// The short name in their profile URL (`flickr.com/photos/ALIAS/`).
    public let pathAlias: String?

    public init(id: String, username: String, realName: String? = nil, pathAlias: String? = nil) {
        self.id = id
        self.username = username
        self.realName = realName.flatMap { $0.isEmpty ? nil : $0 }
        self.pathAlias = pathAlias.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// How headers name them: the real name, else the username, else the id.
    /// Unsanitised: may hold anything a server sent.
    public var displayName: String {
        if let realName { return realName }
        return username.isEmpty ? id : username
    }
}

/// Photos that are not a search: a person's photostream, an album, a
/// gallery or a group's pool. Paged like a search, by
/// `PhotoCollections.photos(in:page:perPage:)`.
public struct PhotoCollection: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case photostream, album, gallery, pool
    }

    public let kind: Kind
    /// The id the provider pages it by: the owner's id for a photostream,
    /// the album's, gallery's or group's id otherwise.
    public let id: String
    /// The album's or gallery's title, the group's name, the person's
    /// display name for a photostream. Unsanitised.
    public let title: String
    /// Whose it is (photostreams, albums and galleries), when known.
    public let owner: Person?

    public init(kind: Kind, id: String, title: String, owner: Person? = nil) {
        self.kind = kind
        self.id = id
        self.title = title
        self.owner = owner
    }

    /// A person's public photos, newest first.
    public static func photostream(of person: Person) -> PhotoCollection {
        PhotoCollection(kind: .photostream, id: person.id, title: person.displayName, owner: person)
    }

    /// For headers: photos of Ana Souza · album “Lisbon” by Ana Souza ·
    /// gallery “Blue hour” · pool of Slovenia. Unsanitised.
    public var description: String {
        let by = owner.map { " by \($0.displayName)" } ?? ""
        switch kind {
        case .photostream: return "photos of \(owner?.displayName ?? title)"
        case .album: return "album “\(title)”\(by)"
        case .gallery: return "gallery “\(title)”\(by)"
        case .pool: return "pool of \(title)"
        }
    }
}

/// One of a person's albums, as `/albums` lists it.
public struct Album: Sendable, Hashable, Codable {
    public let id: String
    /// Unsanitised.
    public let title: String
    public let photoCount: Int
    public let videoCount: Int
    public let owner: Person
    /// The cover photo, for a thumbnail beside the title, when known.
    public let cover: Photo?

    public init(id: String, title: String, photoCount: Int, videoCount: Int = 0, owner: Person, cover: Photo? = nil) {
        self.id = id
        self.title = title
        self.photoCount = max(0, photoCount)
        self.videoCount = max(0, videoCount)
        self.owner = owner
        self.cover = cover
    }

    /// The collection that pages its photos.
    public var collection: PhotoCollection {
        PhotoCollection(kind: .album, id: id, title: title, owner: owner)
    }
}

/// One page of a person's albums.
public struct AlbumPage: Sendable, Hashable, Codable {
    public var page: Int
    public var pages: Int
    public var total: Int
    public var albums: [Album]

    public init(page: Int, pages: Int, total: Int, albums: [Album]) {
        self.page = page
        self.pages = pages
        self.total = total
        self.albums = albums
    }
}
