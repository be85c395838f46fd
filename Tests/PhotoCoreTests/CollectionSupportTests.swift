import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking
@testable import OpenverseService
@testable import ShutterstockService

/// Providers without photostreams or albums say what they have instead,
/// for collections and links alike, and asking for either throws that
/// sentence; Flickr's "not found" sentences lose the key like every other error.
@Suite struct CollectionSupportTests {
    private static let network = ShutterstockRequestTests.idleNetwork

    @Test func openverseNamesItsCreatorFilter() async throws {
        let provider = OpenverseProvider(network: Self.network)
        let sentence = "Openverse has no albums or photostreams; user:NAME filters by creator (without other search words)."
        #expect(provider.capabilities.collections.unsupportedSentence == sentence)
        #expect(provider.capabilities.links.unsupportedSentence == sentence)
        let error = try #require(throws: UnsupportedByProvider.self) { try provider.capabilities.collections.required() }
        #expect(error.description == sentence)
    }

    @Test func shutterstockNamesItsContributorFilter() async throws {
        let provider = ShutterstockProvider(credentials: try .token("t0ken"), network: Self.network)
        let sentence = "Shutterstock has no albums or photostreams; user:NAME filters by contributor."
        #expect(provider.capabilities.collections.unsupportedSentence == sentence)
        #expect(provider.capabilities.links.unsupportedSentence == sentence)
        let error = try #require(throws: UnsupportedByProvider.self) { try provider.capabilities.links.required() }
        #expect(error.description == sentence)
    }

    @Test func notFoundSentencesAreFinalAndRedacted() {
        let error = FlickrError.notFound("Flickr has no user “SECRETKEY123”.")
        #expect(!error.isTransient && error.retryDecision == .stop)
        #expect(!error.redacting(SecretRedactor("SECRETKEY123")).description.contains("SECRETKEY123"))
    }
}
