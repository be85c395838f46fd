import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking
@testable import OpenverseService
@testable import ShutterstockService

/// Providers without photostreams or albums say what they have instead,
/// and every collection call throws that sentence; Flickr's "not found"
/// sentences lose the key like every other error.
@Suite struct CollectionSupportTests {
    private static let network = ShutterstockRequestTests.idleNetwork

    @Test func openverseNamesItsCreatorFilter() async throws {
        let provider = OpenverseProvider(network: Self.network)
        let sentence = "Openverse has no albums or photostreams; user:NAME filters by creator (without other search words)."
        #expect(provider.collectionSupport == .unsupported(sentence))
        let error = try await #require(throws: UnsupportedByProvider.self) { try await provider.person(named: "ana") }
        #expect(error.description == sentence)
        #expect(provider.readLink("https://www.flickr.com/photos/george/") == .notALink)
    }

    @Test func shutterstockNamesItsContributorFilter() async throws {
        let provider = ShutterstockProvider(credentials: try .token("t0ken"), network: Self.network)
        let sentence = "Shutterstock has no albums or photostreams; user:NAME filters by contributor."
        #expect(provider.collectionSupport == .unsupported(sentence))
        let album = PhotoCollection(kind: .album, id: "1", title: "x")
        let error = try await #require(throws: UnsupportedByProvider.self) { try await provider.photos(in: album, page: 1, perPage: 10) }
        #expect(error.description == sentence)
    }

    @Test func notFoundSentencesAreFinalAndRedacted() {
        let error = FlickrError.notFound("Flickr has no user “SECRETKEY123”.")
        #expect(!error.isTransient && error.retryDecision == .stop)
        #expect(!error.redacting(SecretRedactor("SECRETKEY123")).description.contains("SECRETKEY123"))
    }
}
