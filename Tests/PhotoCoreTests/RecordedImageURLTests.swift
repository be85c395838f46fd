import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking

/// Recorded Flickr answers served by a loopback server (so the API host is
/// not Flickr's): image URLs are the `url_*` values as recorded, or built on
/// `live.staticflickr.com`, never on the API host.
@Suite struct RecordedImageURLTests {
    /// Every recorded photo list, by answer key.
    static let photoListKeys = RecordedResponses.answerKeyNames.filter {
        (try? RecordedResponses.answerKey(named: $0))?.stat == "ok"
    }

    /// Areas a grid cell, the detail view and downloads ask for.
    static let needs = [
        PixelSize(width: 64, height: 48), PixelSize(width: 240, height: 160), PixelSize(width: 480, height: 480),
        PixelSize(width: 1280, height: 800), PixelSize(width: 4000, height: 4000),
    ]

    private func withRecording<T>(
        _ keyName: String, _ body: (FlickrProvider, AnswerKey, LoopbackHTTPServer) async throws -> T
    ) async throws -> T {
        let key = try RecordedResponses.answerKey(named: keyName)
        let recorded = try RecordedResponses.body(named: key.bodyName)
        return try await LoopbackHTTPServer.with({ _ in .respond(body: recorded) }) { server in
            let network = NetworkManager()
            let provider = FlickrProvider(apiKey: "k", endpoint: server.restURL, network: network, retryPolicy: .never)
            do {
                let result = try await body(provider, key, server)
                await network.shutdown()
                return result
            } catch {
                await network.shutdown()
                throw error
            }
        }
    }

    @Test func thereAreRecordedPhotoLists() {
        #expect(Self.photoListKeys.count >= 8)
    }

    @Test(arguments: photoListKeys)
    func recordedURLsAreUsedAsGivenAndOthersBuiltOnTheStaticHost(_ keyName: String) async throws {
        try await withRecording(keyName) { provider, key, server in
            let page = try await provider.search(.typed("anything"), page: 1, perPage: 100)
            let expected = key.photos ?? []
            try #require(page.photos.count == expected.count)
            for (photo, want) in zip(page.photos, expected) {
                let recorded = Set(want.urls.values)
                // Carried sizes are exactly the recorded url_* values.
                #expect(Set(photo.renditions.map(\.url.absoluteString)) == recorded, "renditions of \(want.id)")
                let wholeSizes = want.urls.filter { !["url_sq", "url_q"].contains($0.key) }
                for need in Self.needs {
                    let chosen = try #require(provider.imageURL(for: photo, covering: need), "\(want.id) at \(need)")
                    #expect(chosen.host != "127.0.0.1", "\(want.id) at \(need): \(chosen)")
                    if wholeSizes.isEmpty {
                        #expect(chosen.absoluteString.hasPrefix("https://live.staticflickr.com/\(want.server)/\(want.id)_\(want.secret)"),
                                "\(want.id) at \(need): \(chosen)")
                    } else {
                        #expect(Set(wholeSizes.values).contains(chosen.absoluteString), "\(want.id) at \(need): \(chosen)")
                    }
                }
                for size in PhotoSize.allCases {
                    let url = try #require(provider.imageURL(for: photo, size: size), "\(want.id) \(size)")
                    #expect(url.host != "127.0.0.1" && url.host != server.baseURL.host, "\(want.id) \(size): \(url)")
                    #expect(recorded.contains(url.absoluteString) || url.host == "live.staticflickr.com",
                            "\(want.id) \(size): \(url)")
                }
            }
        }
    }

    /// Recording 08 names `url_c` only: a 400 px box gets it as recorded, and
    /// the square crop is built on the static host from server, id and secret.
    @Test func recordingWithOnlyURLCGivesItForLargerBoxesAndBuildsTheSquare() async throws {
        let name = "08-photos.search_JSONP-jsonFlickrApi_url_c-live-staticflickr_total-number_2023.expected.json"
        try await withRecording(name) { provider, _, _ in
            let photo = try #require(try await provider.search(.typed("berlin"), page: 1, perPage: 1).photos.first)
            #expect(provider.imageURL(for: photo, covering: PixelSize(width: 400, height: 400))?.absoluteString
                    == "https://live.staticflickr.com/3901/15008700875_0e262eee71_c.jpg")
            #expect(provider.imageURL(for: photo, size: .square150)?.absoluteString
                    == "https://live.staticflickr.com/3901/15008700875_0e262eee71_q.jpg")
            let ratio = try #require(photo.aspectRatio)
            #expect(abs(ratio - 800.0 / 451.0) < 0.0001)
        }
    }

    // MARK: - getSizes

    static let sizes = #"{"sizes":{"canblog":0,"canprint":0,"candownload":1,"size":[{"label":"Medium 640","width":640,"height":427,"source":"https:\/\/live.staticflickr.com\/7\/42_abc_z.jpg","media":"photo"},{"label":"Large 1600","width":1600,"height":1067,"source":"https:\/\/live.staticflickr.com\/7\/42_h1600_h.jpg","media":"photo"},{"label":"Large 2048","width":2048,"height":1365,"source":"https:\/\/live.staticflickr.com\/7\/42_k2048_k.jpg","media":"photo"}]},"stat":"ok"}"#

    /// A detail view bigger than anything the search carried asks getSizes
    /// once; later asks come from the cache, however many run at once.
    @Test func missingLargeSizesComeFromGetSizesOncePerPhoto() async throws {
        try await LoopbackHTTPServer.with({ _ in .text(Self.sizes) }) { server in
            let network = NetworkManager()
            let provider = FlickrProvider(apiKey: "k", endpoint: server.restURL, network: network, retryPolicy: .never)
            let photo = try Photo(
                id: "42", owner: "1@N00", title: "",
                renditions: [PhotoRendition(label: "z", url: #require(URL(string: "https://live.staticflickr.com/7/42_abc_z.jpg")), width: 640, height: 427)],
                flickr: FlickrPhotoKeys(secret: "abc", server: "7"))
            let need = PixelSize(width: 1500, height: 900)
            let urls = try await withThrowingTaskGroup(of: URL?.self) { group in
                for _ in 0..<8 { group.addTask { try await provider.resolveImageURL(for: photo, covering: need) } }
                return try await group.reduce(into: [URL?]()) { $0.append($1) }
            }
            let again = try await provider.resolveImageURL(for: photo, covering: need)
            let small = try await provider.resolveImageURL(for: photo, covering: PixelSize(width: 300, height: 300))
            await network.shutdown()

            #expect(Set(urls.map { $0?.absoluteString }) == ["https://live.staticflickr.com/7/42_h1600_h.jpg"])
            #expect(again?.lastPathComponent == "42_h1600_h.jpg")
            #expect(small?.lastPathComponent == "42_abc_z.jpg")
            // Concurrent first asks may each call; after that, never again.
            let calls = server.requests.filter { $0.parameters["method"] == "flickr.photos.getSizes" }
            #expect(calls.count >= 1 && calls.count <= 8)
            #expect(calls.allSatisfy { $0.parameters["photo_id"] == "42" })
            #expect(provider.sizeCache.count == 1)
            let countAfter = server.requests.count
            _ = try await provider.resolveImageURL(for: photo, covering: PixelSize(width: 2000, height: 2000))
            #expect(server.requests.count == countAfter)
        }
    }

    /// When getSizes fails, the best carried size is still shown.
    @Test func aFailedGetSizesFallsBackToTheCarriedSizes() async throws {
        let denied = ScriptedReply.text(#"{"stat":"fail","code":2,"message":"Permission denied"}"#)
        try await LoopbackHTTPServer.with({ _ in denied }) { server in
            let network = NetworkManager()
            let provider = FlickrProvider(apiKey: "k", endpoint: server.restURL, network: network, retryPolicy: .never)
            let photo = try Photo(
                id: "42", owner: "1@N00", title: "",
                renditions: [PhotoRendition(label: "z", url: #require(URL(string: "https://live.staticflickr.com/7/42_abc_z.jpg")), width: 640, height: 427)],
                flickr: FlickrPhotoKeys(secret: "abc", server: "7"))
            let url = try await provider.resolveImageURL(for: photo, covering: PixelSize(width: 2000, height: 2000))
            await network.shutdown()
            #expect(url?.lastPathComponent == "42_abc_z.jpg")
            #expect(server.requests.count == 1)
        }
    }
}
