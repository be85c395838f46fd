import Foundation
import Testing
import TestSupport
@testable import PhotoCore
@testable import FlickrService
@testable import Networking
import NIOConcurrencyHelpers
import Sandbox
import NIOConcurrencyHelpers

/// `FlickrProvider` and `NetworkManager` against the real sandbox over
/// loopback HTTP. The sandbox writes Flickr's wire format on its own, so these
/// check our requests and decoding against an independent implementation.
@Suite struct FlickrSandboxTests {
    @Test func searchPagesFollowTheCatalogsRelevanceOrder() async throws {
        try await withSandbox { server, provider, _ in
            let matches = server.catalog.search(text: "kittens", sort: .relevance)
            try #require(matches.count > 60)
            for page in 1...2 {
                let result = try await provider.search(.typed("kittens"), page: page, perPage: 30)
                let expected = matches[((page - 1) * 30)..<(page * 30)].map { server.catalog.photo(at: $0) }
                #expect(result.page == page)
                #expect(result.perPage == 30)
                #expect(result.total == matches.count)
                #expect(result.pages == (matches.count + 29) / 30)
                #expect(result.photos.map(\.id) == expected.map(\.id))
                for (photo, want) in zip(result.photos, expected) {
                    #expect(photo.owner == want.owner)
                    #expect(photo.secret == want.secret)
                    #expect(photo.server == want.server)
                    #expect(photo.farm == want.farm)
                    #expect(photo.title == want.title)
                    #expect(photo.ownerName == want.ownerName)
                    #expect(photo.dateTaken == want.dateTaken)
                }
            }
        }
    }

    @Test func searchAsksForTheExtrasTheGridAndOpenUse() async throws {
        try await withSandbox { server, provider, _ in
            let photo = try #require(try await provider.search(.typed("sunset"), page: 1, perPage: 5).photos.first)
            let want = try #require(server.catalog.photo(id: photo.id))
            // Every requested size the sandbox serves and the photo is big enough for, and no other.
            let longest = max(want.originalWidth, want.originalHeight)
            let offered = FlickrProvider.requestedSizes.filter {
                SandboxImageSize(rawValue: $0.rawValue) != nil && ($0.isSquare || $0.longestEdge <= longest)
            }
            #expect(Set(photo.images.keys) == Set(offered))
            #expect(photo.renditions.count == offered.count)
            for (size, image) in photo.images {
                let served = try #require(SandboxImageSize(rawValue: size.rawValue))
                #expect(image.width == want.dimensions(served).width, "width of \(size)")
                #expect(image.height == want.dimensions(served).height, "height of \(size)")
            }
            let ratio = try #require(photo.aspectRatio)
            #expect(abs(ratio - Double(want.originalWidth) / Double(want.originalHeight)) < 0.01)
        }
    }

    /// The URL we would build from server, id and secret is the one the
    /// sandbox sent, and it serves a JPEG there.
    @Test func builtImageURLsMatchTheSentOnesAndServeJPEGs() async throws {
        try await withSandbox { _, provider, network in
            let photo = try #require(try await provider.search(.typed("beach"), page: 1, perPage: 3).photos.first)
            var bare = photo
            bare.images = [:]
            for size in [PhotoSize.square150, .medium640, .large1024] {
                #expect(provider.imageURL(for: bare, size: size) == photo.images[size]?.url)
            }
            let url = try #require(provider.imageURL(for: photo, size: .square150))
            let body = try await network.get(url).body
            #expect(body.starts(with: [0xFF, 0xD8, 0xFF]))
        }
    }

    @Test func recentListsTheNewestUploadsFirst() async throws {
        try await withSandbox { server, provider, _ in
            let page = try await provider.recent(page: 2, perPage: 20)
            #expect(page.page == 2)
            #expect(page.total == server.catalog.count)
            #expect(page.photos.map(\.id) == (20..<40).map { server.catalog.photo(at: $0).id })
        }
    }

    @Test func echoAcceptsAValidKey() async throws {
        try await withSandbox { _, provider, _ in
            try await provider.echo()
        }
    }

    @Test func emptyKeyIsRejectedWithCode100() async throws {
        try await withSandbox(apiKey: "") { _, provider, _ in
            let error = await #expect(throws: FlickrError.self) { try await provider.search(.typed("kittens"), page: 1, perPage: 10) }
            guard case .api(let code, _)? = error else {
                Issue.record("expected an API error, got \(String(describing: error))")
                return
            }
            #expect(code == 100)
            #expect(error?.description.hasPrefix("Flickr rejected the API key (code 100") == true)
            await #expect(throws: FlickrError.api(code: 100, message: "Invalid API Key (Key has invalid format)")) {
                try await provider.echo()
            }
        }
    }

    /// The sandbox's JSONP (no `nojsoncallback`) decodes to the same page.
    @Test func sandboxJSONPDecodesLikeItsJSON() async throws {
        try await withSandbox { _, provider, network in
            let url = try provider.searchRequestURL(.typed("kittens"), page: 1, perPage: 10)
            var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            components.queryItems = (components.queryItems ?? []).filter { $0.name != "nojsoncallback" }
                + [URLQueryItem(name: "jsoncallback", value: "cb_42")]
            let jsonp = try await network.get(try #require(components.url)).body
            #expect(jsonp.starts(with: Array("cb_42(".utf8)))
            let json = try await network.get(url).body
            #expect(try FlickrResponseDecoder.decodePhotoPage(jsonp) == FlickrResponseDecoder.decodePhotoPage(json))
        }
    }

    /// The sandbox's XML (`format=rest`) decodes to the same page too.
    @Test func sandboxXMLDecodesLikeItsJSON() async throws {
        try await withSandbox { _, provider, network in
            let url = try provider.searchRequestURL(.typed("sunset"), page: 2, perPage: 10)
            var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            components.queryItems = components.queryItems?.filter { $0.name != "nojsoncallback" && $0.name != "format" }
            let xml = try await network.get(try #require(components.url)).body
            #expect(String(decoding: xml, as: UTF8.self).contains("<rsp stat=\"ok\">"))
            let json = try await network.get(url).body
            #expect(try FlickrResponseDecoder.decodePhotoPage(xml) == FlickrResponseDecoder.decodePhotoPage(json))
        }
    }

    @Test func nothingListeningSaysConnectionRefused() async throws {
        let port = try closedLoopbackPort()
        let network = NetworkManager()
        let provider = FlickrProvider(
            apiKey: "SECRETKEY123", endpoint: try #require(URL(string: "http://127.0.0.1:\(port)/services/rest/")),
            network: network)
        let error = await #expect(throws: FlickrError.self) { try await provider.search(.typed("kittens"), page: 1, perPage: 10) }
        await network.shutdown()
        #expect(error == .network(.connectionRefused(host: "127.0.0.1:\(port)")))
        #expect(error?.description == "Connection refused by 127.0.0.1:\(port). Is the server running?")
    }

    @Test func silentServerStallsAfterTheIdleTimeout() async throws {
        var fast = NetworkManager.Configuration()
        fast.idleTimeout = .milliseconds(300)
        fast.requestTimeout = .seconds(20)
        try await withSandbox(network: fast, retry: .never, configure: { $0.latency = .seconds(3) }) { server, provider, _ in
            let error = await #expect(throws: FlickrError.self) { try await provider.search(.typed("kittens"), page: 1, perPage: 10) }
            #expect(error == .network(.stalled(host: "127.0.0.1:\(server.port)")))
            #expect(error?.isTransient == true)
        }
    }

    @Test func serverErrorStatusIsANetworkError() async throws {
        try await withSandbox(configure: {
            $0.faults.rate = 1
            $0.faults.scope = .rest
            $0.faults.kind = .status
            $0.faults.status = 503
        }) { server, provider, _ in
            let error = await #expect(throws: FlickrError.self) { try await provider.recent(page: 1, perPage: 10) }
            #expect(error == .network(.httpStatus(503, host: "127.0.0.1:\(server.port)")))
        }
    }

    @Test func garbageBodyIsAMalformedResponse() async throws {
        try await withSandbox(configure: {
            $0.faults.rate = 1
            $0.faults.scope = .rest
            $0.faults.kind = .garbage
        }) { _, provider, _ in
            let error = await #expect(throws: FlickrError.self) { try await provider.recent(page: 1, perPage: 10) }
            guard case .malformedResponse? = error else {
                Issue.record("expected malformedResponse, got \(String(describing: error))")
                return
            }
        }
    }

    /// Cancelling the task that fetches a slow (throttled) image closes the
    /// connection mid-body: the sandbox counts an aborted response. At
    /// 1 KiB/s the ~25 KB image takes ~25 s, so the cancel lands mid-body.
    @Test func cancellingAThrottledImageFetchAbortsTheTransfer() async throws {
        try await withSandbox(configure: { $0.throttleKBps = 1 }) { server, provider, network in
            let photo = try #require(try await provider.search(.typed("kittens"), page: 1, perPage: 1).photos.first)
            let url = try #require(provider.imageURL(for: photo, size: .large1024))
            server.resetStats()

            let received = ByteCounter()
            let fetch = Task { () -> Result<Int, NetworkError> in
                do throws(NetworkError) {
                    let response = try await network.get(url, progress: { count, _ in received.set(count) })
                    return .success(response.body.count)
                } catch {
                    return .failure(error)
                }
            }
            #expect(await poll { received.value > 0 }, "no body bytes arrived")
            fetch.cancel()
            let outcome = await fetch.value
            #expect(outcome == .failure(.cancelled))
            #expect(await poll { server.stats().abortedResponses >= 1 }, "the sandbox saw no aborted response")
            let record = try #require(server.requestLog().last { $0.kind == "image" })
            #expect(record.aborted)
        }
    }

    /// No message from any failure path contains the API key.
    @Test func apiKeyNeverAppearsInErrors() async throws {
        let key = "SECRETKEY123"
        var messages: [String] = []

        try await withSandbox(apiKey: key, configure: { $0.requiredAPIKey = "another-key" }) { _, provider, _ in
            do { _ = try await provider.search(.typed("kittens"), page: 1, perPage: 10) } catch {
                messages += [String(describing: error), String(reflecting: error)]
            }
            do { try await provider.echo() } catch { messages += [String(describing: error), String(reflecting: error)] }
        }
        try await withSandbox(apiKey: key, configure: {
            $0.faults.rate = 1
            $0.faults.scope = .rest
            $0.faults.kind = .garbage
        }) { _, provider, _ in
            do { _ = try await provider.recent(page: 1, perPage: 10) } catch {
                messages += [String(describing: error), String(reflecting: error)]
            }
        }
        let port = try closedLoopbackPort()
        let network = NetworkManager()
        let nowhere = FlickrProvider(
            apiKey: key, endpoint: try #require(URL(string: "http://127.0.0.1:\(port)/services/rest/")), network: network)
        do { _ = try await nowhere.search(.typed("kittens"), page: 1, perPage: 10) } catch {
            messages += [String(describing: error), String(reflecting: error)]
        }
        await network.shutdown()
        messages.append(String(describing: nowhere))

        #expect(messages.count == 9)
        for message in messages {
            #expect(!message.contains(key), "leaked in: \(message)")
        }
    }
}

/// Latest byte count reported by a progress callback, from any thread.
private final class ByteCounter: Sendable {
    private let storage = NIOLockedValueBox(0)
    var value: Int { storage.withLockedValue { $0 } }
    func set(_ count: Int) { storage.withLockedValue { $0 = count } }
}
