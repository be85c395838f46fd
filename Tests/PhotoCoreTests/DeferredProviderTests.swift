import Foundation
import Testing
import PhotoCore
import FlickrService
import Networking
import OpenverseService
import Sandbox
import ShutterstockService
import TestSupport

/// The stand-in that starts a provider on first use must answer exactly as
/// the provider it wraps, capability by capability and member by member
/// (the compiler sees to the members; this sees to what they answer).
@Suite("Deferred provider")
struct DeferredProviderTests {
    /// How each service is made on the sandbox's address, as the app makes it.
    static let services = ["flickr", "shutterstock", "openverse"]

    private static func maker(_ service: String, network: NetworkManager) throws -> @Sendable (URL) -> any PhotoProvider {
        switch service {
        case "openverse":
            // Openverse has no sandbox stand-in in the app; it is wrapped the same way here.
            return { OpenverseProvider(baseURL: $0, network: network, displayName: "Openverse (sandbox)") }
        default:
            let descriptor = service == "flickr" ? FlickrProvider.descriptor : ShutterstockProvider.descriptor
            let setup = ProviderSetup(environment: [:], apiKey: nil, apiURL: nil, network: network)
            guard case .sandbox(let make) = try descriptor.connect(setup) else {
                Issue.record("\(service) without credentials is not the sandbox")
                throw CancellationError()
            }
            return make
        }
    }

    /// A result or the sentence it failed with, to compare two providers' answers.
    private enum Outcome<Value: Equatable>: Equatable {
        case value(Value)
        case failure(String)
    }

    private static func outcome<Value: Equatable>(_ body: () async throws -> Value) async -> Outcome<Value> {
        do { return .value(try await body()) } catch { return .failure(userMessage(for: error)) }
    }

    /// Asks both the same question; they must give the same answer or fail alike.
    @discardableResult
    private static func expectSame<Value: Equatable>(
        _ what: String, _ deferred: () async throws -> Value, _ direct: () async throws -> Value
    ) async -> Outcome<Value> {
        let wrapped = await outcome(deferred)
        let expected = await outcome(direct)
        #expect(wrapped == expected, "\(what)")
        return expected
    }

    /// Texts a person may paste: each service's own links and others'.
    private static func links(_ catalog: Catalog, photo: Photo) -> [String] {
        let owner = catalog.wellKnownOwner
        return [
            "kittens", owner.photosURL, owner.profileURL, "https://www.flickr.com/photos/\(owner.urlName)/\(photo.id)/",
            "https://www.flickr.com/photos/\(owner.urlName)/albums/\(SandboxWellKnown.kittensAlbumID)",
            "https://www.flickr.com/groups/\(SandboxWellKnown.groupPathAlias)/pool/", "https://www.flickr.com/help/",
            "https://www.shutterstock.com/image-photo/a-cat-\(photo.id)", "https://openverse.org/image/\(photo.id)",
        ]
    }

    /// Every answer that needs no server: compared before the wrapped
    /// provider is made and again after.
    private static func expectSameImmediateAnswers(
        _ deferred: DeferredProvider, _ direct: any PhotoProvider, photo: Photo, catalog: Catalog, _ when: String
    ) {
        #expect(deferred.service == direct.service, "\(when)")
        #expect(deferred.displayName == direct.displayName, "\(when)")
        #expect(deferred.maxResults == direct.maxResults, "\(when)")
        #expect(deferred.perPageRange == direct.perPageRange, "\(when)")
        #expect(shape(deferred.capabilities) == shape(direct.capabilities), "\(when)")
        for link in links(catalog, photo: photo) {
            #expect(
                deferred.capabilities.links.available?.readLink(link) == direct.capabilities.links.available?.readLink(link),
                "\(when): \(link)")
        }
        #expect(deferred.photoPageURL(for: photo) == direct.photoPageURL(for: photo), "\(when)")
        let deferredCollections = deferred.capabilities.collections.available
        let directCollections = direct.capabilities.collections.available
        #expect(deferredCollections?.ownerPageURL(for: photo) == directCollections?.ownerPageURL(for: photo), "\(when)")
        let owner = Person(id: catalog.wellKnownOwner.nsid, username: SandboxWellKnown.username, pathAlias: SandboxWellKnown.pathAlias)
        for kind in PhotoCollection.Kind.allCases {
            let collection = PhotoCollection(kind: kind, id: SandboxWellKnown.kittensAlbumID, title: "t", owner: owner)
            #expect(
                deferredCollections?.pageURL(for: collection) == directCollections?.pageURL(for: collection), "\(when): \(kind)")
        }
    }

    /// Which capabilities a provider has, and the sentence for each it has not.
    private static func shape(_ capabilities: ProviderCapabilities) -> [String] {
        func one<Feature>(_ name: String, _ capability: Capability<Feature>) -> String {
            capability.unsupportedSentence.map { "\(name): \($0)" } ?? "\(name): supported"
        }
        return [
            one("recent", capabilities.recent), one("lookup", capabilities.lookup),
            one("collections", capabilities.collections), one("links", capabilities.links), one("videos", capabilities.videos),
            one("favourites", capabilities.favourites),
        ]
    }

    /// Image URLs may name the server, so they are compared once it runs.
    private static func expectSameImageURLs(_ deferred: DeferredProvider, _ direct: any PhotoProvider, photo: Photo) {
        for size in PhotoSize.allCases {
            #expect(deferred.imageURL(for: photo, size: size) == direct.imageURL(for: photo, size: size), "\(size)")
        }
        let need = PixelSize(width: 300, height: 200)
        #expect(deferred.imageURL(for: photo, covering: need) == direct.imageURL(for: photo, covering: need))
    }

    @Test(arguments: services)
    func answersEveryMemberAsTheProviderItWraps(_ service: String) async throws {
        try await withSandboxSession { server, network in
            let make = try Self.maker(service, network: network)
            let direct = make(server.baseURL)
            let deferred = DeferredProvider(unstarted: make(URL(string: "http://sandbox.invalid/")!)) { make(server.baseURL) }
            let query = try #require(SearchQuery("kittens"))
            let page = try await direct.search(query, page: 1, perPage: 10)
            let photo = try #require(page.photos.first)

            Self.expectSameImmediateAnswers(deferred, direct, photo: photo, catalog: server.catalog, "before it is made")

            let searched = await Self.outcome { try await deferred.search(query, page: 1, perPage: 10) }
            #expect(searched == .value(page))
            Self.expectSameImmediateAnswers(deferred, direct, photo: photo, catalog: server.catalog, "once made")
            Self.expectSameImageURLs(deferred, direct, photo: photo)
            let wrapped = deferred.capabilities
            let own = direct.capabilities
            await Self.expectSame(
                "recent", { try await wrapped.recent.required().recent(page: 2, perPage: 5) },
                { try await own.recent.required().recent(page: 2, perPage: 5) })
            await Self.expectSame("photoDetails", { try await deferred.photoDetails(for: photo) }, { try await direct.photoDetails(for: photo) })
            await Self.expectSame(
                "photoDetails(id:)", { try await wrapped.lookup.required().photoDetails(id: photo.id) },
                { try await own.lookup.required().photoDetails(id: photo.id) })
            let need = PixelSize(width: 2_000, height: 2_000)
            await Self.expectSame("resolveImageURL", { try await deferred.resolveImageURL(for: photo, covering: need) }, { try await direct.resolveImageURL(for: photo, covering: need) })
            await Self.expectSame(
                "videoURL", { try await wrapped.videos.required().videoURL(for: photo) },
                { try await own.videos.required().videoURL(for: photo) })

            let person = await Self.expectSame(
                "person", { try await wrapped.collections.required().person(named: SandboxWellKnown.pathAlias) },
                { try await own.collections.required().person(named: SandboxWellKnown.pathAlias) })
            let owner = Person(id: server.catalog.wellKnownOwner.nsid, username: SandboxWellKnown.username)
            await Self.expectSame(
                "albums", { try await wrapped.collections.required().albums(of: owner, page: 1, perPage: 5) },
                { try await own.collections.required().albums(of: owner, page: 1, perPage: 5) })
            let stream = PhotoCollection.photostream(of: owner)
            await Self.expectSame(
                "photos", { try await wrapped.collections.required().photos(in: stream, page: 1, perPage: 5) },
                { try await own.collections.required().photos(in: stream, page: 1, perPage: 5) })
            let link = ProviderLink.album(id: SandboxWellKnown.kittensAlbumID, owner: SandboxWellKnown.pathAlias)
            await Self.expectSame(
                "resolve", { try await wrapped.links.required().resolve(link) }, { try await own.links.required().resolve(link) })
            if service == "flickr" {
                // The comparison means something only if Flickr's answers are real ones.
                let found = try await own.collections.required().person(named: SandboxWellKnown.pathAlias)
                #expect(person == .value(found))
                #expect(wrapped.collections.available != nil && wrapped.links.available != nil)
            }
        }
    }
}
