import Foundation

/// A capability a provider has, or the sentence it says instead (shown as
/// is: `/recent` on Openverse, `/user` on Shutterstock).
public enum Capability<Feature: Sendable>: Sendable {
    case supported(Feature)
    case unsupported(String)

    /// The capability, or `nil` when the provider has not got it.
    public var available: Feature? {
        if case .supported(let feature) = self { return feature }
        return nil
    }

    /// The provider's sentence when it has not got it.
    public var unsupportedSentence: String? {
        if case .unsupported(let sentence) = self { return sentence }
        return nil
    }

    /// The capability, or `UnsupportedByProvider` with the provider's sentence.
    public func required() throws(UnsupportedByProvider) -> Feature {
        switch self {
        case .supported(let feature): return feature
        case .unsupported(let sentence): throw UnsupportedByProvider(sentence)
        }
    }

    /// The same answer with the feature replaced (a wrapper's own forwarder).
    public func map<Other>(_ transform: (Feature) -> Other) -> Capability<Other> {
        switch self {
        case .supported(let feature): .supported(transform(feature))
        case .unsupported(let sentence): .unsupported(sentence)
        }
    }
}

/// Everything a provider can do beyond searching, each capability either
/// there or absent with the provider's sentence. Every field is required
/// at `init`: a provider, or a wrapper such as `DeferredProvider`, that
/// forgets one does not compile.
public struct ProviderCapabilities: Sendable {
    /// A list of recent uploads (`/recent`, `flickr recent`).
    public var recent: Capability<any RecentPhotos>
    /// Details by photo id alone (`flickr info ID`).
    public var lookup: Capability<any PhotoLookup>
    /// People, photostreams, albums, galleries and group pools.
    public var collections: Capability<any PhotoCollections>
    /// Reading the service's own links pasted at the prompt.
    public var links: Capability<any LinkReader>
    /// Video files, for `download --videos`.
    public var videos: Capability<any VideoFiles>

    public init(
        recent: Capability<any RecentPhotos>,
        lookup: Capability<any PhotoLookup>,
        collections: Capability<any PhotoCollections>,
        links: Capability<any LinkReader>,
        videos: Capability<any VideoFiles>
    ) {
        self.recent = recent
        self.lookup = lookup
        self.collections = collections
        self.links = links
        self.videos = videos
    }
}

/// A list of the most recent uploads.
public protocol RecentPhotos: Sendable {
    /// One page of the most recent uploads.
    func recent(page: Int, perPage: Int) async throws -> PhotoPage
}

/// A photo's details by its id alone.
public protocol PhotoLookup: Sendable {
    /// Everything the service tells about the photo with this id.
    func photoDetails(id: String) async throws -> PhotoDetails
}

/// People and the sets of photos they and their groups keep.
public protocol PhotoCollections: Sendable {
    /// The person a username, path alias, id or profile URL names.
    func person(named name: String) async throws -> Person

    /// One page of a photostream, album, gallery or pool, newest first
    /// where the service orders them so; videos included, marked `isVideo`.
    func photos(in collection: PhotoCollection, page: Int, perPage: Int) async throws -> PhotoPage

    /// One page of a person's albums.
    func albums(of person: Person, page: Int, perPage: Int) async throws -> AlbumPage

    /// The page of the photo's owner (their photostream), for links.
    func ownerPageURL(for photo: Photo) -> URL?

    /// The page of a collection in a browser, for links.
    func pageURL(for collection: PhotoCollection) -> URL?
}

/// The service's own links, pasted at the prompt or given to `download`.
public protocol LinkReader: Sendable {
    /// How `text` reads: one of its links, its site but an unknown page, or
    /// not a link of its. No network.
    func readLink(_ text: String) -> LinkReading

    /// What is said when a web link to another site (`host`) is pasted:
    /// which of its own links it opens, in its words.
    func foreignLinkSentence(host: String) -> String

    /// What a link points at, asking the service for ids and titles.
    func resolve(_ link: ProviderLink) async throws -> LinkTarget
}

/// Video files of the videos a service lists.
public protocol VideoFiles: Sendable {
    /// The video file of a video; `nil` for a photo, or when the service
    /// offers none to this caller.
    func videoURL(for photo: Photo) async throws -> URL?
}
