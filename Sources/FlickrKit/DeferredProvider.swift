import Foundation
import Networking
import NIOConcurrencyHelpers

/// A provider made on first use: a service the person may never switch to
/// (the embedded sandbox standing in for it costs a server start) is set up
/// only when it is first asked for something.
///
/// Until then, image URLs come from what each photo carries.
public struct DeferredProvider: PhotoProvider {
    public let service: PhotoService
    public let displayName: String
    public let maxResults: Int?
    private let state: NIOLockedValueBox<State>

    private struct State {
        var making: Task<any PhotoProvider, any Error>?
        var made: (any PhotoProvider)?
    }

    public init(
        service: PhotoService, displayName: String, maxResults: Int?,
        make: @escaping @Sendable () async throws -> any PhotoProvider
    ) {
        self.service = service
        self.displayName = displayName
        self.maxResults = maxResults
        // A reference: every copy of this value shares the one provider.
        self.state = NIOLockedValueBox(State(making: nil, made: nil))
        self.make = make
    }

    private let make: @Sendable () async throws -> any PhotoProvider

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

    public func search(_ query: SearchQuery, page: Int, perPage: Int) async throws -> PhotoPage {
        try await provider().search(query, page: page, perPage: perPage)
    }

    public func recent(page: Int, perPage: Int) async throws -> PhotoPage {
        try await provider().recent(page: page, perPage: perPage)
    }

    public func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        made?.imageURL(for: photo, covering: need) ?? photo.bestRendition(covering: need)?.url
    }

    public func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws -> URL? {
        try await provider().resolveImageURL(for: photo, covering: need)
    }

    public func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        if let made { return made.imageURL(for: photo, size: size) }
        if size.isSquare, let crop = photo.rendition(labelled: size.rawValue) { return crop.url }
        return photo.bestRendition(covering: size.requirement)?.url
    }

    public func photoPageURL(for photo: Photo) -> URL? {
        made?.photoPageURL(for: photo)
    }

    public func photoDetails(for photo: Photo) async throws -> PhotoDetails {
        try await provider().photoDetails(for: photo)
    }

    public func photoDetails(id: String) async throws -> PhotoDetails {
        try await provider().photoDetails(id: id)
    }
}
