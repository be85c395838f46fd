import Foundation
import Networking
import NIOConcurrencyHelpers

/// A provider made on first use: a service the person may never switch to
/// (the embedded sandbox standing in for it costs a server start) is set up
/// only when it is first asked for something.
///
/// It has the capabilities of the provider it stands for, by construction:
/// `capabilities` maps the unstarted provider's, each to a forwarder that
/// implements every member of its protocol (none has a default), so a
/// capability or member left out is a compile error, not "not supported".
/// Calls that may wait make the provider and ask it; answers given at once
/// (the links it reads, its pages' addresses) come from `unstarted`, the same
/// provider built before its server runs, until the real one exists. Image
/// URLs, which name the server, come from what each photo carries until then.
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

    /// The real provider's `capability`; the unstarted one has the same
    /// capabilities, so it is there unless the made one says otherwise.
    fileprivate func madeCapability<Feature>(
        _ capability: KeyPath<ProviderCapabilities, Capability<Feature>>
    ) async throws -> Feature {
        try await provider().capabilities[keyPath: capability].required()
    }

    /// `capability` of the real provider once made, else of the unstarted one.
    fileprivate func currentCapability<Feature>(_ capability: KeyPath<ProviderCapabilities, Capability<Feature>>) -> Feature? {
        current.capabilities[keyPath: capability].available
    }

    // MARK: Answered at once

    public var service: PhotoService { current.service }
    public var displayName: String { current.displayName }
    public var maxResults: Int? { current.maxResults }
    public var perPageRange: ClosedRange<Int> { current.perPageRange }

    public var capabilities: ProviderCapabilities {
        let wrapped = current.capabilities
        return ProviderCapabilities(
            recent: wrapped.recent.map { _ in Recent(deferred: self) },
            lookup: wrapped.lookup.map { _ in Lookup(deferred: self) },
            collections: wrapped.collections.map { Collections(deferred: self, unstarted: $0) },
            links: wrapped.links.map { Links(deferred: self, unstarted: $0) },
            videos: wrapped.videos.map { _ in Videos(deferred: self) },
            favourites: wrapped.favourites.map { _ in Faves(deferred: self) })
    }

    public func photoPageURL(for photo: Photo) -> URL? { current.photoPageURL(for: photo) }

    public func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        made?.imageURL(for: photo, covering: need) ?? photo.carriedImageURL(covering: need)
    }

    public func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        if let made { return made.imageURL(for: photo, size: size) }
        return photo.carriedImageURL(size: size)
    }

    // MARK: Made on first use

    public func search(_ query: SearchQuery, page: Int, perPage: Int) async throws -> PhotoPage {
        try await provider().search(query, page: page, perPage: perPage)
    }

    public func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? {
        try await provider().resolveImageURL(for: photo, covering: need)
    }

    public func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        try await provider().photoDetails(for: photo)
    }
}

// MARK: - Forwarders, one per capability

extension DeferredProvider {
    private struct Recent: RecentPhotos {
        let deferred: DeferredProvider

        func recent(page: Int, perPage: Int) async throws -> PhotoPage {
            try await deferred.madeCapability(\.recent).recent(page: page, perPage: perPage)
        }
    }

    private struct Lookup: PhotoLookup {
        let deferred: DeferredProvider

        func photoDetails(id: String) async throws -> PhotoDetails {
            try await deferred.madeCapability(\.lookup).photoDetails(id: id)
        }
    }

    private struct Collections: PhotoCollections {
        let deferred: DeferredProvider
        let unstarted: any PhotoCollections

        private var now: any PhotoCollections { deferred.currentCapability(\.collections) ?? unstarted }

        func person(named name: String) async throws -> Person {
            try await deferred.madeCapability(\.collections).person(named: name)
        }

        func photos(in collection: PhotoCollection, page: Int, perPage: Int) async throws -> PhotoPage {
            try await deferred.madeCapability(\.collections).photos(in: collection, page: page, perPage: perPage)
        }

        func albums(of person: Person, page: Int, perPage: Int) async throws -> AlbumPage {
            try await deferred.madeCapability(\.collections).albums(of: person, page: page, perPage: perPage)
        }

        func ownerPageURL(for photo: Photo) -> URL? { now.ownerPageURL(for: photo) }

        func pageURL(for collection: PhotoCollection) -> URL? { now.pageURL(for: collection) }
    }

    private struct Links: LinkReader {
        let deferred: DeferredProvider
        let unstarted: any LinkReader

        func readLink(_ text: String) -> LinkReading {
            (deferred.currentCapability(\.links) ?? unstarted).readLink(text)
        }

        func foreignLinkSentence(host: String) -> String {
            (deferred.currentCapability(\.links) ?? unstarted).foreignLinkSentence(host: host)
        }

        func resolve(_ link: ProviderLink) async throws -> LinkTarget {
            try await deferred.madeCapability(\.links).resolve(link)
        }
    }

    private struct Videos: VideoFiles {
        let deferred: DeferredProvider

        func videoURL(for photo: Photo) async throws -> URL? {
            try await deferred.madeCapability(\.videos).videoURL(for: photo)
        }
    }

    private struct Faves: Favourites {
        let deferred: DeferredProvider

        var account: any AccountSignIn { Account(deferred: deferred) }

        func favourites(of person: Person?, page: Int, perPage: Int) async throws -> PhotoPage {
            try await deferred.madeCapability(\.favourites).favourites(of: person, page: page, perPage: perPage)
        }

        func addFavourite(_ photo: Photo) async throws {
            try await deferred.madeCapability(\.favourites).addFavourite(photo)
        }

        func removeFavourite(_ photo: Photo) async throws {
            try await deferred.madeCapability(\.favourites).removeFavourite(photo)
        }
    }

    private struct Account: AccountSignIn {
        let deferred: DeferredProvider

        /// Nobody until the provider is made: its sign-in is read then.
        var signedInPerson: Person? { deferred.currentCapability(\.favourites)?.account.signedInPerson }

        func startSignIn() async throws -> URL {
            try await deferred.madeCapability(\.favourites).account.startSignIn()
        }

        func finishSignIn(verifier: String) async throws -> Person {
            try await deferred.madeCapability(\.favourites).account.finishSignIn(verifier: verifier)
        }
    }
}
