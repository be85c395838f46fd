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
    /// Favourites (`/faves`, `/fave`, `flickr faves`) and the sign-in they need (`/login`).
    public var favourites: Capability<any Favourites>

    public init(
        recent: Capability<any RecentPhotos>,
        lookup: Capability<any PhotoLookup>,
        collections: Capability<any PhotoCollections>,
        links: Capability<any LinkReader>,
        videos: Capability<any VideoFiles>,
        favourites: Capability<any Favourites>
    ) {
        self.favourites = favourites
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

/// People's favourite photos, and the signed-in person's own to change.
public protocol Favourites: Sendable {
    /// The account favourites belong to: signing in (`/login`) and who is
    /// signed in. Favourites are a person's, so the capability carries it.
    var account: any AccountSignIn { get }

    /// One page of `person`'s favourites, newest first; `nil` is the
    /// signed-in person's own, their non-public favourites included.
    /// Throws a sentence saying how to sign in when that needs a sign-in.
    func favourites(of person: Person?, page: Int, perPage: Int) async throws -> PhotoPage

    /// Makes `photo` one of the signed-in person's favourites.
    func addFavourite(_ photo: Photo) async throws

    /// Takes `photo` out of the signed-in person's favourites.
    func removeFavourite(_ photo: Photo) async throws
}

/// Signing in to a service in two steps (an address to approve the app at,
/// then the code it shows), after which the provider's calls are made as
/// that person.
public protocol AccountSignIn: Sendable {
    /// Who is signed in, or nil. Names as the service gave them: unsanitised.
    var signedInPerson: Person? { get }

    /// Step 1: starts a sign-in and returns the address where the person
    /// approves the app. A later start replaces an unfinished one.
    func startSignIn() async throws -> URL

    /// Step 2: the code the approval page showed; who signed in. From then
    /// on every call is made as them. A refused code leaves nobody signed in.
    func finishSignIn(verifier: String) async throws -> Person
}
