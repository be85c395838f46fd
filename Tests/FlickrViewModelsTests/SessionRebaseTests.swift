import PhotoCore
@testable import FlickrViewModels
import Foundation
import TestSupport
import Testing
import FlickrService

/// A session saved against the embedded sandbox comes back with Flickr's
/// image URLs rebuilt for this run's server, and other services' kept.
@MainActor
@Suite struct SessionRebaseTests {
    private let oldOrigin = "http://127.0.0.1:1111"

    private func restore(savedBy provider: String, sandboxOrigin: URL? = nil) throws -> [Photo] {
        let folder = try TemporaryDirectory(prefix: "session-rebase")
        let store = SessionStore(file: folder.url.appendingPathComponent("session.json"))
        let flickr = Photo(
            id: "1", owner: "o@N00", secret: "s", server: "1", title: "t",
            images: [.square150: PhotoImage(url: try #require(URL(string: oldOrigin + "/1_s_q.jpg")), width: 150, height: 150)])
        let stock = Photo(
            id: "2", owner: "7", title: "u",
            renditions: [PhotoRendition(label: "large_thumb", url: try #require(URL(string: oldOrigin + "/2.jpg")), width: 150, height: 100)])
        try store.save(SessionSnapshot(
            provider: provider, query: .search(.typed("x")),
            pages: [PhotoPage(page: 1, pages: 1, perPage: 2, total: 2, photos: [flickr, stock])]))
        let persistence = SessionPersistence(store: store, providerName: provider, sandboxOrigin: sandboxOrigin) { _ in }
        guard case .success(let restored?) = persistence.restore(signedInAs: nil) else {
            Issue.record("nothing restored")
            return []
        }
        return restored.pages.flatMap(\.photos)
    }

    @Test func sandboxSessionsRebuildFlickrURLsAndKeepOthers() throws {
        let photos = try restore(savedBy: "Flickr (sandbox)")
        #expect(photos.count == 2)
        #expect(photos.first?.renditions.isEmpty == true, "built again on this run's sandbox")
        #expect(photos.last?.renditions.map(\.url.absoluteString) == [oldOrigin + "/2.jpg"])
    }

    /// A Shutterstock session saved while the sandbox ran on a fallback port
    /// comes back on this run's sandbox (its assets were all unreachable).
    @Test func otherServicesMoveToThisRunsSandbox() throws {
        let photos = try restore(savedBy: "Shutterstock (sandbox)", sandboxOrigin: URL(string: "http://127.0.0.1:2222"))
        #expect(photos.last?.renditions.map(\.url.absoluteString) == ["http://127.0.0.1:2222/2.jpg"])
    }

    @Test func realServicesKeepEveryURL() throws {
        let photos = try restore(savedBy: "Flickr")
        #expect(photos.first?.renditions.map(\.url.absoluteString) == [oldOrigin + "/1_s_q.jpg"])
    }
}
