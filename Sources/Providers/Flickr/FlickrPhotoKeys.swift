import Foundation
import PhotoCore

/// What Flickr needs to build a photo's image URLs on its static host
/// (`{server}/{id}_{secret}_{suffix}.jpg`). Kept in the photo's neutral
/// `providerKeys` under these names, which sessions of earlier versions
/// also used, so the core never needs to know them.
public struct FlickrPhotoKeys: Sendable, Hashable {
    public var secret: String
    public var server: String
    public var farm: Int?
    /// The original's own secret and extension (`o` size), when Flickr
    /// shows them to this caller.
    public var originalSecret: String?
    public var originalFormat: String?

    public init(secret: String, server: String, farm: Int? = nil, originalSecret: String? = nil, originalFormat: String? = nil) {
        self.secret = secret
        self.server = server
        self.farm = farm
        self.originalSecret = originalSecret
        self.originalFormat = originalFormat
    }

    private enum Name {
        static let secret = "secret", server = "server", farm = "farm"
        static let originalSecret = "originalSecret", originalFormat = "originalFormat"
    }

    /// The keys from a photo's `providerKeys`; `nil` unless it has both a
    /// secret and a server (a photo from another provider).
    init?(_ keys: [String: String]) {
        guard let secret = keys[Name.secret], let server = keys[Name.server] else { return nil }
        self.init(
            secret: secret, server: server, farm: keys[Name.farm].flatMap { Int($0) },
            originalSecret: keys[Name.originalSecret], originalFormat: keys[Name.originalFormat])
    }

    var providerKeys: [String: String] {
        var keys = [Name.secret: secret, Name.server: server]
        keys[Name.farm] = farm.map(String.init)
        keys[Name.originalSecret] = originalSecret
        keys[Name.originalFormat] = originalFormat
        return keys
    }
}

extension Photo {
    /// Flickr's keys for building image URLs; `nil` for other providers.
    /// Setting `nil` clears the provider keys.
    public var flickr: FlickrPhotoKeys? {
        get { FlickrPhotoKeys(providerKeys) }
        set { providerKeys = newValue?.providerKeys ?? [:] }
    }

    /// A photo with Flickr's keys.
    public init(
        id: String, owner: String, ownerName: String? = nil, title: String, dateTaken: String? = nil,
        renditions: [PhotoRendition] = [], aspectRatio: Double? = nil, flickr: FlickrPhotoKeys?,
        credit: PhotoCredit? = nil, tags: [String] = [], dateUploaded: Date? = nil, isVideo: Bool = false,
        visibility: Visibility? = nil
    ) {
        self.init(
            id: id, owner: owner, ownerName: ownerName, title: title, dateTaken: dateTaken, renditions: renditions,
            aspectRatio: aspectRatio, providerKeys: flickr?.providerKeys ?? [:], credit: credit, tags: tags,
            dateUploaded: dateUploaded, isVideo: isVideo, visibility: visibility)
    }

    /// A Flickr photo from its keys, with the sizes Flickr sent by size key.
    public init(
        id: String, owner: String, ownerName: String? = nil, secret: String, server: String,
        farm: Int? = nil, title: String, dateTaken: String? = nil,
        images: [PhotoSize: PhotoImage] = [:]
    ) {
        self.init(
            id: id, owner: owner, ownerName: ownerName, title: title, dateTaken: dateTaken,
            renditions: images.map { $0.key.rendition(of: $0.value) },
            flickr: FlickrPhotoKeys(secret: secret, server: server, farm: farm))
    }

    /// Flickr's secret, or "" for a photo from another provider.
    public var secret: String {
        get { flickr?.secret ?? "" }
        set { updateFlickrKeys { $0.secret = newValue } }
    }

    /// Flickr's server, or "" for a photo from another provider.
    public var server: String {
        get { flickr?.server ?? "" }
        set { updateFlickrKeys { $0.server = newValue } }
    }

    public var farm: Int? {
        get { flickr?.farm }
        set { updateFlickrKeys { $0.farm = newValue } }
    }

    private mutating func updateFlickrKeys(_ change: (inout FlickrPhotoKeys) -> Void) {
        var keys = flickr ?? FlickrPhotoKeys(secret: "", server: "")
        change(&keys)
        flickr = keys
    }
}
