import Foundation

// Providers without photostreams, albums, galleries or pools (Openverse,
// Shutterstock) keep these: each call throws a sentence saying so.
extension PhotoProvider {
    public func person(named name: String) async throws -> Person {
        throw UnsupportedByProvider(noCollectionsSentence)
    }

    public func photos(in collection: PhotoCollection, page: Int, perPage: Int) async throws -> PhotoPage {
        throw UnsupportedByProvider(noCollectionsSentence)
    }

    public func albums(of person: Person, page: Int, perPage: Int) async throws -> AlbumPage {
        throw UnsupportedByProvider(noCollectionsSentence)
    }

    public func readLink(_ text: String) -> LinkReading { .notALink }

    public func resolve(_ link: ProviderLink) async throws -> LinkTarget {
        throw UnsupportedByProvider(noCollectionsSentence)
    }

    public func videoURL(for photo: Photo) async throws -> URL? { nil }

    public func ownerPageURL(for photo: Photo) -> URL? { nil }

    public func pageURL(for collection: PhotoCollection) -> URL? { nil }

    /// What the service has instead of photostreams and albums; providers
    /// without them override it with their own sentence.
    public var collectionSupport: CollectionSupport {
        .unsupported("\(service.name) has no photostreams, albums, galleries or pools.")
    }

    private var noCollectionsSentence: String {
        switch collectionSupport {
        case .supported: "\(service.name) cannot do that."
        case .unsupported(let sentence): sentence
        }
    }
}
