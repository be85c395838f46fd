import Foundation
import Networking
import NIOConcurrencyHelpers

/// A provider made on first use: a service the person may never switch to
/// (the embedded sandbox standing in for it costs a server start) is set up
/// only when it is first asked for something.
///
/// Every member of `PhotoProvider` is forwarded: calls that may wait make the
/// provider and ask it; answers given at once (what it can do, the links it
/// reads, its pages' addresses) come from `unstarted`, the same provider
/// built before its server runs, until the real one exists. Image URLs, which
/// name the server, come from what each photo carries until then.
public struct DeferredProvider: PhotoProvider {
    private let unstarted: any PhotoProvider
    private let state: NIOLockedValueBox<State>
    private let make: @Sendable () async throws -> any PhotoProvider

    private struct State {
        var making: Task<any PhotoProvider, any Error>?
        var made: (any PhotoProvider)?
    }

    /// - Parameter unstarted: the provider as it will be, built with an
    ///   address nothing is ever sent to; asked only what needs no network.
    /// - Parameter make: starts the server and builds the real provider.
    public init(
        unstarted: any PhotoProvider,
        make: @escaping @Sendable () async throws -> any PhotoProvider
    ) {
        self.unstarted = unstarted
        // A reference: every copy of this value shares the one provider.
        self.state = NIOLockedValueBox(State(making: nil, made: nil))
        self.make = make
    }

    /// The real provider, made once (later callers wait for the first).
    public func provider() async throws -> any PhotoProvider {
        let make = self.make
        let task = state.withLockedValue { state in
            if let making = state.making { return making }
            let making = Task { try await make() }
            state.making = making
            return making
        }
        let provider = try await task.value
        state.withLockedValue { $0.made = provider }
        return provider
    }

    private var made: (any PhotoProvider)? { state.withLockedValue { $0.made } }

    /// The real provider once made, else the unstarted one.
    private var current: any PhotoProvider { made ?? unstarted }

    // MARK: Answered at once

    public var service: PhotoService { current.service }
    public var displayName: String { current.displayName }
    public var maxResults: Int? { current.maxResults }
    public var perPageRange: ClosedRange<Int> { current.perPageRange }
    public var collectionSupport: CollectionSupport { current.collectionSupport }
    public var recentSupport: RecentSupport { current.recentSupport }

    public func readLink(_ text: String) -> LinkReading { current.readLink(text) }
    public func photoPageURL(for photo: Photo) -> URL? { current.photoPageURL(for: photo) }
    public func ownerPageURL(for photo: Photo) -> URL? { current.ownerPageURL(for: photo) }
    public func pageURL(for collection: PhotoCollection) -> URL? { current.pageURL(for: collection) }

    public func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        made?.imageURL(for: photo, covering: need) ?? photo.bestRendition(covering: need)?.url
    }

    public func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        if let made { return made.imageURL(for: photo, size: size) }
        if size.isSquare, let crop = photo.rendition(labelled: size.rawValue) { return crop.url }
        return photo.bestRendition(covering: size.requirement)?.url
    }

    // MARK: Made on first use

    public func search(_ query: SearchQuery, page: Int, perPage: Int) async throws -> PhotoPage {
        try await provider().search(query, page: page, perPage: perPage)
    }

    public func recent(page: Int, perPage: Int) async throws -> PhotoPage {
        try await provider().recent(page: page, perPage: perPage)
    }

    public func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? {
        try await provider().resolveImageURL(for: photo, covering: need)
    }

    public func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        try await provider().photoDetails(for: photo)
    }

    public func photoDetails(id: String) async throws -> PhotoDetails {
        try await provider().photoDetails(id: id)
    }

    public func person(named name: String) async throws -> Person {
        try await provider().person(named: name)
    }

    public func photos(in collection: PhotoCollection, page: Int, perPage: Int) async throws -> PhotoPage {
        try await provider().photos(in: collection, page: page, perPage: perPage)
    }

    public func albums(of person: Person, page: Int, perPage: Int) async throws -> AlbumPage {
        try await provider().albums(of: person, page: page, perPage: perPage)
    }

    public func resolve(_ link: ProviderLink) async throws -> LinkTarget {
        try await provider().resolve(link)
    }

    public func videoURL(for photo: Photo) async throws -> URL? {
        try await provider().videoURL(for: photo)
    }
}
