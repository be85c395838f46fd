/// One Flickr member of the catalog: the owner of photos, albums and galleries.
public struct CatalogPerson: Sendable, Hashable {
    /// `12345678@N01`.
    public let nsid: String
    /// The screen name (`ownername`, `findByUsername`'s key).
    public let username: String
    /// The name the person gave; empty for about one in four, as on Flickr.
    public let realName: String
    /// The URL name (`/photos/ALIAS/`); empty when the person never chose one.
    public let pathAlias: String

    /// The name in the person's URLs: the path alias, else the NSID.
    public var urlName: String { pathAlias.isEmpty ? nsid : pathAlias }

    /// `https://www.flickr.com/photos/NAME/`.
    public var photosURL: String { "https://www.flickr.com/photos/\(urlName)/" }

    /// `https://www.flickr.com/people/NAME/`.
    public var profileURL: String { "https://www.flickr.com/people/\(urlName)/" }

    /// The number before `@` (a gallery's compound id starts with it).
    var number: String { String(nsid.prefix { $0 != "@" }) }
}

/// The names tests, examples and the documentation use: the catalog's most
/// prolific owner, whatever the seed, is this person, with these albums,
/// galleries and group. NSIDs and photo ids still come from the seed: ask
/// the catalog (`Catalog.wellKnownOwner`, `Catalog.album(id:)`, …).
///
/// Sizes with seed 1 (the photostream and the archive album are the same
/// photos): 20,000 photos (the default) give a photostream of 1,156, a
/// favourites album of 698 and a sunset pool of 3,101, so both
/// `largeAlbumIDs` take two pages or more at 500 a page; 10,000 give
/// 551 / 336; 5,000 give 278 / 169; 3,000 (the tests' usual sandbox) give
/// 172 / 106 and a pool of 464.
public enum SandboxWellKnown {
    public static let username = "Ana Souza"
    public static let realName = "Ana Paula Souza"
    public static let pathAlias = "anasouza"

    /// Every photo of the well-known owner, oldest first.
    public static let archiveAlbumID = "72157720000000001"
    /// About six in ten of the owner's photos, oldest first.
    public static let favouritesAlbumID = "72157720000000002"
    /// The owner's photos tagged "kittens".
    public static let kittensAlbumID = "72157720000000003"
    /// The owner's videos.
    public static let videosAlbumID = "72157720000000004"
    /// The albums of more than 500 photos in the default 20,000-photo catalog.
    public static let largeAlbumIDs = [archiveAlbumID, favouritesAlbumID]

    /// The owner's galleries: other people's sunsets, and their kittens.
    public static let sunsetGalleryID = "72157720000000201"
    public static let kittenGalleryID = "72157720000000202"

    /// A group with a path alias and a large pool (photos tagged "sunset").
    public static let groupName = "Sunset Lovers"
    public static let groupPathAlias = "sunsetlovers"
}

extension CatalogGenerator {
    /// A real name from its own generator (so the owners' other fields stay
    /// as they were): empty for one in four, a plain name behind a handle,
    /// otherwise the display name itself.
    static func realName(nsid: String, username: String, seed: UInt64) -> String {
        var random = SplitMix64(seed: StableHash.hash(nsid, seed: seed ^ 0x4EA1_0A3E))
        guard random.chance(0.75) else { return "" }
        if Vocabulary.handles.contains(where: { username.hasPrefix($0) }) {
            return random.pick(Vocabulary.firstNames) + " " + random.pick(Vocabulary.lastNames)
        }
        return username
    }

    /// About one photo in thirty is a video, chosen from the id alone.
    static func isVideo(id: Int64, seed: UInt64) -> Bool {
        var random = SplitMix64(seed: StableHash.mix(seed ^ 0x71DE_0000 ^ UInt64(id)))
        return random.chance(0.033)
    }
}
