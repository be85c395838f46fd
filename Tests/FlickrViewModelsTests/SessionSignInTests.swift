import Foundation
import PhotoCore
import Testing
import TestSupport
@testable import FlickrViewModels

/// A session fetched signed in may hold the person's non-public photos: it
/// comes back only to the same sign-in, and signing out drops it.
@MainActor
@Suite("A signed session")
struct SessionSignInTests {
    private func store(in folder: TemporaryDirectory, signedInAs: String?) throws -> SessionStore {
        let store = SessionStore(file: folder.url.appendingPathComponent("session.json"))
        let photo = Photo(id: "1", owner: "o@N00", title: "mine",
                          visibility: Photo.Visibility(isPublic: false))
        try store.save(SessionSnapshot(
            provider: "Flickr", query: .search(.typed("x")),
            pages: [PhotoPage(page: 1, pages: 2, perPage: 1, total: 2, photos: [photo])], signedInAs: signedInAs))
        return store
    }

    private func restored(_ store: SessionStore, signedInAs: String?) -> Bool {
        let persistence = SessionPersistence(store: store, providerName: "Flickr") { _ in }
        guard case .success(let restored) = persistence.restore(signedInAs: signedInAs) else { return false }
        return restored != nil
    }

    @Test func aSignedSessionComesBackOnlyToItsSignIn() throws {
        let folder = try TemporaryDirectory(prefix: "session-signed")
        let store = try store(in: folder, signedInAs: "12345678@N01")
        #expect(!restored(store, signedInAs: nil), "restored with nobody signed in")
        #expect(!restored(store, signedInAs: "999@N00"), "restored to someone else")
        #expect(restored(store, signedInAs: "12345678@N01"))
    }

    @Test func anUnsignedSessionComesBackToAnyone() throws {
        let folder = try TemporaryDirectory(prefix: "session-unsigned")
        let store = try store(in: folder, signedInAs: nil)
        #expect(restored(store, signedInAs: nil))
    }

    @Test func signingOutForgetsASignedSessionAndKeepsAnUnsignedOne() throws {
        let signed = try TemporaryDirectory(prefix: "session-forget")
        let signedStore = try store(in: signed, signedInAs: "12345678@N01")
        #expect(try signedStore.forgetSignedListings())
        #expect(!FileManager.default.fileExists(atPath: signedStore.file.path))

        let unsigned = try TemporaryDirectory(prefix: "session-keep")
        let unsignedStore = try store(in: unsigned, signedInAs: nil)
        #expect(try !unsignedStore.forgetSignedListings())
        #expect(FileManager.default.fileExists(atPath: unsignedStore.file.path))
    }
}
