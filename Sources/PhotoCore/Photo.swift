import Foundation
import Networking

/// One photo of a result page, as the provider described it.
///
/// Provider-neutral: the image files come as `renditions`, each with its own
/// URL and size. What only one provider needs to find the photo again
/// (Flickr's secret and server) sits in `providerKeys`, opaque to the core:
/// the provider reads and writes its own keys there.
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
    /// What the provider needs to find the photo again or build its image
    /// URLs, under the provider's own names; empty when it needs nothing.
    public var providerKeys: [String: String] = [:]
    /// Creator, licence and source page, when the service says.
    public var credit: PhotoCredit?
    /// The tags the service lists with the result, when it lists any.
    public var tags: [String] = []
    /// When the photo was uploaded, when the service says.
    public var dateUploaded: Date?
    /// A video rather than a still: its renditions are poster frames, and
    /// the video file itself comes only from the provider's sizes call.
    public var isVideo = false
    /// Who may see it, when the service says (Flickr's `ispublic`,
    /// `isfriend`, `isfamily`); nil when the service has no such notion.
    public var visibility: Visibility?

    public init(
        id: String, owner: String, ownerName: String? = nil, title: String, dateTaken: String? = nil,
        renditions: [PhotoRendition] = [], aspectRatio: Double? = nil, providerKeys: [String: String] = [:],
        credit: PhotoCredit? = nil, tags: [String] = [], dateUploaded: Date? = nil, isVideo: Bool = false,
        visibility: Visibility? = nil
    ) {
        self.isVideo = isVideo
        self.visibility = visibility
        self.tags = tags
        self.dateUploaded = dateUploaded
        self.id = id
        self.owner = owner
        self.ownerName = ownerName
        self.title = title
        self.dateTaken = dateTaken
        self.renditions = renditions.sorted(by: Self.isSmaller)
        self.aspectRatio = aspectRatio ?? Self.aspectRatio(of: renditions)
        self.providerKeys = providerKeys
        self.credit = credit
    }
}

extension Photo {
    /// Who may see a photo: everyone, or only its owner and the friends or
    /// family they chose.
    public struct Visibility: Sendable, Hashable, Codable {
        public var isPublic: Bool
        public var isFriend: Bool
        public var isFamily: Bool

        public init(isPublic: Bool, isFriend: Bool = false, isFamily: Bool = false) {
            self.isPublic = isPublic
            self.isFriend = isFriend
            self.isFamily = isFamily
        }

        public static let everyone = Visibility(isPublic: true)

        /// Seen by fewer than everyone: the owner and perhaps friends or family.
        public var isRestricted: Bool { !isPublic }

        /// `public`, `friends`, `family`, `friends-family` or `private`: the
        /// words `flickr upload --privacy` takes, for `--json` and `/open`.
        public var name: String {
            switch (isPublic, isFriend, isFamily) {
            case (true, _, _): "public"
            case (false, true, true): "friends-family"
            case (false, true, false): "friends"
            case (false, false, true): "family"
            case (false, false, false): "private"
            }
        }
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

// MARK: - Codable

/// Photos are saved in the session file. Files written before renditions
/// existed (`secret`, `server`, `farm` and an `images` map at the top level)
/// and before provider keys were opaque (a `flickr` object) still load, their
/// keys under the same names; anything else that does not fit throws, and
/// the caller starts fresh.
extension Photo: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, owner, ownerName, title, dateTaken, renditions, aspectRatio, providerKeys, credit, tags, dateUploaded, isVideo
        case visibility
        // Written by earlier versions.
        case secret, server, farm, images, flickr
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
        var keys = try container.decodeIfPresent([String: String].self, forKey: .providerKeys)
        if keys == nil, let saved = try container.decodeIfPresent([String: SavedKey].self, forKey: .flickr) {
            keys = saved.mapValues(\.text)
        }
        if keys == nil, let secret = try container.decodeIfPresent(String.self, forKey: .secret) {
            var flat = ["secret": secret, "server": try container.decode(String.self, forKey: .server)]
            flat["farm"] = try container.decodeIfPresent(Int.self, forKey: .farm).map(String.init)
            keys = flat
        }
        self.init(
            id: try container.decode(String.self, forKey: .id),
            owner: try container.decode(String.self, forKey: .owner),
            ownerName: try container.decodeIfPresent(String.self, forKey: .ownerName),
            title: try container.decode(String.self, forKey: .title),
            dateTaken: try container.decodeIfPresent(String.self, forKey: .dateTaken),
            renditions: renditions,
            aspectRatio: try container.decodeIfPresent(Double.self, forKey: .aspectRatio),
            providerKeys: keys ?? [:],
            credit: try container.decodeIfPresent(PhotoCredit.self, forKey: .credit),
            tags: try container.decodeIfPresent([String].self, forKey: .tags) ?? [],
            dateUploaded: try container.decodeIfPresent(Date.self, forKey: .dateUploaded),
            isVideo: try container.decodeIfPresent(Bool.self, forKey: .isVideo) ?? false,
            visibility: try container.decodeIfPresent(Visibility.self, forKey: .visibility))
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
        if !providerKeys.isEmpty { try container.encode(providerKeys, forKey: .providerKeys) }
        try container.encodeIfPresent(credit, forKey: .credit)
        if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
        try container.encodeIfPresent(dateUploaded, forKey: .dateUploaded)
        if isVideo { try container.encode(true, forKey: .isVideo) }
        try container.encodeIfPresent(visibility, forKey: .visibility)
    }
}

/// One key of the `flickr` object earlier versions wrote: text, or a number
/// (the farm), kept as text.
private struct SavedKey: Decodable {
    var text: String

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let number = try? value.decode(Int.self) {
            text = String(number)
        } else {
            text = try value.decode(String.self)
        }
    }
}
