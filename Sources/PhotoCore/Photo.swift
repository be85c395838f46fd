import Foundation
import Networking

/// One photo of a result page, as the provider described it.
///
/// Provider-neutral: the image files come as `renditions`, each with its own
/// URL and size. What only Flickr has (secret, server, farm) sits in
/// `flickr`, which other providers leave `nil`.
public struct Photo: Sendable, Hashable {
    public var id: String
    /// The owner's id at the provider (a Flickr NSID such as `12345678@N00`,
    /// a Shutterstock contributor id).
    public var owner: String
    public var ownerName: String?
    /// May be empty, and may hold any Unicode (including control characters):
    /// sanitise before printing.
    public var title: String
    /// `YYYY-MM-DD HH:MM:SS` as Flickr sends it, when known.
    public var dateTaken: String?
    /// The image files the service offers, smallest first.
    public var renditions: [PhotoRendition] {
        didSet { renditions.sort(by: Self.isSmaller) }
    }
    /// Width over height of the whole photo, when known: lets a view reserve
    /// the right space before any image bytes arrive.
    public var aspectRatio: Double?
    /// Flickr's keys for building image URLs; `nil` for other providers.
    public var flickr: FlickrPhotoKeys?
    /// Creator, licence and source page, when the service says.
    public var credit: PhotoCredit?
    /// The tags the service lists with the result, when it lists any.
    public var tags: [String] = []
    /// When the photo was uploaded, when the service says.
    public var dateUploaded: Date?
    /// A video rather than a still: its renditions are poster frames, and
    /// the video file itself comes only from the provider's sizes call.
    public var isVideo = false

    public init(
        id: String, owner: String, ownerName: String? = nil, title: String, dateTaken: String? = nil,
        renditions: [PhotoRendition] = [], aspectRatio: Double? = nil, flickr: FlickrPhotoKeys? = nil,
        credit: PhotoCredit? = nil, tags: [String] = [], dateUploaded: Date? = nil, isVideo: Bool = false
    ) {
        self.isVideo = isVideo
        self.tags = tags
        self.dateUploaded = dateUploaded
        self.id = id
        self.owner = owner
        self.ownerName = ownerName
        self.title = title
        self.dateTaken = dateTaken
        self.renditions = renditions.sorted(by: Self.isSmaller)
        self.aspectRatio = aspectRatio ?? Self.aspectRatio(of: renditions)
        self.flickr = flickr
        self.credit = credit
    }
}

/// What Flickr needs to build a photo's image URLs on its static host
/// (`{server}/{id}_{secret}_{suffix}.jpg`).
public struct FlickrPhotoKeys: Sendable, Hashable, Codable {
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
}

/// One page of results.
public struct PhotoPage: Sendable, Hashable, Codable {
    public var page: Int
    public var pages: Int
    public var perPage: Int
    public var total: Int
    public var photos: [Photo]

    public init(page: Int, pages: Int, perPage: Int, total: Int, photos: [Photo]) {
        self.page = page
        self.pages = pages
        self.perPage = perPage
        self.total = total
        self.photos = photos
    }
}

// MARK: - Flickr conveniences

extension Photo {
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

// MARK: - Codable

/// Photos are saved in the session file. Files written before renditions
/// existed (`secret`, `server`, `farm` and an `images` map at the top level)
/// still load; anything else that does not fit throws, and the caller
/// starts fresh.
extension Photo: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, owner, ownerName, title, dateTaken, renditions, aspectRatio, flickr, credit, tags, dateUploaded, isVideo
        // Written by earlier versions.
        case secret, server, farm, images
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var renditions = try container.decodeIfPresent([PhotoRendition].self, forKey: .renditions) ?? []
        if !container.contains(.renditions), let images = try container.decodeIfPresent([String: PhotoImage].self, forKey: .images) {
            renditions = images.map { key, image in
                PhotoRendition(label: key, url: image.url, width: image.width, height: image.height,
                               isCrop: PhotoSize(rawValue: key)?.isSquare ?? false)
            }
        }
        var flickr = try container.decodeIfPresent(FlickrPhotoKeys.self, forKey: .flickr)
        if flickr == nil, let secret = try container.decodeIfPresent(String.self, forKey: .secret) {
            flickr = FlickrPhotoKeys(
                secret: secret, server: try container.decode(String.self, forKey: .server),
                farm: try container.decodeIfPresent(Int.self, forKey: .farm))
        }
        self.init(
            id: try container.decode(String.self, forKey: .id),
            owner: try container.decode(String.self, forKey: .owner),
            ownerName: try container.decodeIfPresent(String.self, forKey: .ownerName),
            title: try container.decode(String.self, forKey: .title),
            dateTaken: try container.decodeIfPresent(String.self, forKey: .dateTaken),
            renditions: renditions,
            aspectRatio: try container.decodeIfPresent(Double.self, forKey: .aspectRatio),
            flickr: flickr,
            credit: try container.decodeIfPresent(PhotoCredit.self, forKey: .credit),
            tags: try container.decodeIfPresent([String].self, forKey: .tags) ?? [],
            dateUploaded: try container.decodeIfPresent(Date.self, forKey: .dateUploaded),
            isVideo: try container.decodeIfPresent(Bool.self, forKey: .isVideo) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(owner, forKey: .owner)
        try container.encodeIfPresent(ownerName, forKey: .ownerName)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(dateTaken, forKey: .dateTaken)
        try container.encode(renditions, forKey: .renditions)
        try container.encodeIfPresent(aspectRatio, forKey: .aspectRatio)
        try container.encodeIfPresent(flickr, forKey: .flickr)
        try container.encodeIfPresent(credit, forKey: .credit)
        if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
        try container.encodeIfPresent(dateUploaded, forKey: .dateUploaded)
        if isVideo { try container.encode(true, forKey: .isVideo) }
    }
}
