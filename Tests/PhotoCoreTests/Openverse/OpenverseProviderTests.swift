import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import PhotoCore
@testable import Networking
@testable import OpenverseService
import FlickrService

/// `OpenverseProvider` over real loopback HTTP: the recorded pages as
/// `Photo`s, retries and waits, details, and what it refuses.
@Suite struct OpenverseProviderTests {
    private func serving(_ body: @escaping @Sendable (ReceivedRequest) -> ScriptedReply) -> OpenverseTestServer {
        let server = OpenverseTestServer()
        server.apiReply.withLockedValue { $0 = body }
        return server
    }

    @Test func recordedPageBecomesPhotosWithCreditsAndRenditions() async throws {
        let body = try OpenverseRecorded.data(OpenverseRecorded.catPage3)
        try await OpenverseTestServer.with(serving { _ in .respond(body: body) }, anonymous: true) { provider, server, _ in
            let page = try await provider.search(.typed("cat"), page: 3, perPage: 20)
            #expect(page.page == 3 && page.pages == 20 && page.perPage == 20 && page.total == 10_000)
            #expect(page.photos.count == 20)
            #expect(server.requests.last?.parameters == ["q": "cat", "page": "3", "page_size": "20"])

            let photo = try #require(page.photos.first)
            let results = try OpenverseResponseDecoder.decodeSearch(body)
            let image = try #require(results.images.first)
            #expect(photo.id == image.id && photo.title == image.title && photo.owner == image.creator)
            #expect(photo.credit?.license == image.licenseTerms)
            #expect(photo.credit?.attribution == image.attribution)
            #expect(photo.credit?.pageURL == image.foreignLandingURL)
            #expect(photo.credit?.fileType == image.filetype)
            #expect(provider.photoPageURL(for: photo) == image.foreignLandingURL)
            // The grid gets Openverse's thumbnail, /open the full image.
            #expect(provider.imageURL(for: photo, covering: PixelSize(width: 300, height: 200)) == image.thumbnail)
            #expect(provider.imageURL(for: photo, size: .small240) == image.thumbnail)
            #expect(provider.imageURL(for: photo, size: .large1024) == image.url)
            #expect(provider.imageURL(for: photo, covering: PixelSize(width: 1200, height: 900)) == image.url)
            if let width = image.width, let height = image.height {
                #expect(photo.aspectRatio == Double(width) / Double(height))
            }
        }
    }

    @Test func photoKeepsItsCreditThroughCodable() throws {
        var image = OpenverseImage(id: "4bc43a04-ef46-4544-a0c1-63c63f56e276", title: "Pier")
        image.creator = "Ann"
        image.license = "by-sa"
        image.licenseVersion = "4.0"
        image.licenseURL = URL(string: "https://creativecommons.org/licenses/by-sa/4.0/")
        image.attribution = "\"Pier\" by Ann is licensed under CC BY-SA 4.0."
        image.foreignLandingURL = URL(string: "https://example.org/pier")
        image.filetype = "png"
        image.source = "wikimedia"
        let photo = OpenverseProvider.photo(from: image)
        let decoded = try JSONDecoder().decode(Photo.self, from: try JSONEncoder().encode(photo))
        #expect(decoded == photo)
        #expect(decoded.credit?.license?.shortName == "CC BY-SA 4.0")
        // Photos saved before credits existed still load.
        let old = Data(#"{"id":"1","owner":"o","title":"t","renditions":[]}"#.utf8)
        #expect(try JSONDecoder().decode(Photo.self, from: old).credit == nil)
    }

    @Test func onlyWebPagesArePhotoPages() async throws {
        try await OpenverseTestServer.with(anonymous: true) { provider, _, _ in
            var photo = Photo(id: "x", owner: "", title: "", credit: PhotoCredit(pageURL: URL(string: "javascript:alert(1)")))
            #expect(provider.photoPageURL(for: photo) == nil)
            photo.credit = nil
            #expect(provider.photoPageURL(for: photo) == nil)
        }
    }

    @Test func serverErrorIsRetriedAndTheSearchSucceeds() async throws {
        let waits = RetryPolicyTests.Waits()
        try await LoopbackHTTPServer.failing(
            [.text(#"{"detail":"Internal Server Error"}"#, status: 500)], then: .text(OpenverseTestServer.onePage)
        ) { server, network in
            let provider = OpenverseProvider(baseURL: server.baseURL, network: network, retryPolicy: waits.policy())
            let page = try await provider.search(.typed("pier"), page: 1, perPage: 20)
            #expect(page.photos.count == 1)
            #expect(server.requests.count == 2)
            #expect(waits.all == [.milliseconds(50)])
        }
    }

    @Test func throttledWithRetryAfterWaitsThatLong() async throws {
        let waits = RetryPolicyTests.Waits()
        let throttled = ScriptedReply.text(#"{"detail":"Request was throttled. Expected available in 3 seconds."}"#, status: 429, headers: [("Retry-After", "3")])
        try await LoopbackHTTPServer.failing([throttled], then: .text(OpenverseTestServer.onePage)) { server, network in
            let notices = ServiceNotices()
            let provider = OpenverseProvider(baseURL: server.baseURL, network: network, retryPolicy: waits.policy(), notices: notices)
            let heard = NIOLockedValueBox<[String]>([])
            let listening = notices.listen { text in heard.withLockedValue { $0.append(text) } }
            _ = try await provider.search(.typed("pier"), page: 1, perPage: 20)
            listening.cancel()
            #expect(server.requests.count == 2)
            #expect(waits.all == [.seconds(3)])
            #expect(heard.withLockedValue { $0 } == ["Openverse asked to wait 3 s (rate limit); trying again then."],
                    "the wait is said, not only waited")
        }
    }

    @Test func throttledWithoutRetryAfterWaitsWhatTheDetailSays() async throws {
        let waits = RetryPolicyTests.Waits()
        let throttled = ScriptedReply.text(#"{"detail":"Request was throttled. Expected available in 7 seconds."}"#, status: 429)
        try await LoopbackHTTPServer.failing([throttled], then: .text(OpenverseTestServer.onePage)) { server, network in
            let provider = OpenverseProvider(baseURL: server.baseURL, network: network, retryPolicy: waits.policy())
            _ = try await provider.search(.typed("pier"), page: 1, perPage: 20)
            #expect(waits.all == [.seconds(7)])
        }
    }

    @Test func recordedThrottleAskingForAnHourIsNotWaitedOut() async throws {
        let waits = RetryPolicyTests.Waits()
        let body = try OpenverseRecorded.data(OpenverseRecorded.throttled429)
        try await LoopbackHTTPServer.failing([.respond(status: 429, body: body)], then: .text(OpenverseTestServer.onePage)) { server, network in
            let provider = OpenverseProvider(baseURL: server.baseURL, network: network, retryPolicy: waits.policy())
            let error = try await #require(throws: OpenverseError.self) { try await provider.search(.typed("pier"), page: 1, perPage: 20) }
            #expect(error.retryAfter == .seconds(3_600))
            #expect(error.description.contains("Try again in 1 hour."))
            #expect(server.requests.count == 1)
            #expect(waits.all.isEmpty)
        }
    }

    @Test func anonymousTooLargePageFromTheServerNamesTheFix() async throws {
        let server = serving { _ in .text(#"{"detail":"Authentication credentials were not provided."}"#, status: 401) }
        try await OpenverseTestServer.with(server, anonymous: true) { provider, _, _ in
            let error = try await #require(throws: OpenverseError.self) { try await provider.search(.typed("pier"), page: 1, perPage: 20) }
            #expect(error.description.contains("use --per-page 20 or set OPENVERSE_CLIENT_ID and OPENVERSE_CLIENT_SECRET"))
        }
    }

    @Test func anonymousLimitsAreKeptWithoutAsking() async throws {
        try await OpenverseTestServer.with(anonymous: true) { provider, server, _ in
            #expect(provider.perPageRange == 1...20)
            #expect(provider.maxResults == 400)
            #expect(provider.lastServedPage(pages: 250, perPage: 20) == 20)
            await #expect(throws: OpenverseError.self) { try await provider.search(.typed("pier"), page: 1, perPage: 21) }
            await #expect(throws: OpenverseError.self) { try await provider.search(.typed("pier"), page: 21, perPage: 20) }
            #expect(server.requests.isEmpty)
        }
        try await OpenverseTestServer.with { provider, _, _ in
            #expect(provider.perPageRange == 1...500)
            #expect(provider.maxResults == nil)
        }
    }

    @Test func recentIsRefusedInASentence() async throws {
        try await OpenverseTestServer.with(anonymous: true) { provider, server, _ in
            let error = #expect(throws: UnsupportedByProvider.self) { try provider.capabilities.recent.required() }
            #expect(error?.description == "Openverse has no recent photos; type words to search.")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func detailsComeFromTheImageEndpointWithTags() async throws {
        let one = #"{"id":"4bc43a04-ef46-4544-a0c1-63c63f56e276","title":"Pier","creator":"Ann","license":"cc0","license_version":"1.0","attribution":"\"Pier\" by Ann is marked with CC0 1.0.","source":"nasa","provider":"flickr","tags":[{"name":"sea"},{"name":"pier"}],"foreign_landing_url":"https://example.org/p"}"#
        let server = serving { request in
            request.path.hasPrefix("/v1/images/4bc43a04") ? .text(one) : .text(OpenverseTestServer.onePage)
        }
        try await OpenverseTestServer.with(server, anonymous: true) { provider, loopback, _ in
            let details = try await provider.photoDetails(id: "4BC43A04-EF46-4544-A0C1-63C63F56E276")
            #expect(loopback.requests.last?.path == "/v1/images/4bc43a04-ef46-4544-a0c1-63c63f56e276/")
            #expect(details.title == "Pier" && details.ownerName == "Ann" && details.license?.shortName == "CC0 1.0")
            #expect(details.tags == ["sea", "pier"])
            #expect(details.description.contains("is marked with CC0 1.0"))
            #expect(details.description.contains("Source: nasa (via flickr)"))
            #expect(details.pageURL == URL(string: "https://example.org/p"))
            await #expect(throws: OpenverseError.self) { try await provider.photoDetails(id: "../etc/passwd") }
        }
    }

    @Test func detailsFallBackToTheSearchResultWhenTheEndpointFails() async throws {
        let server = serving { request in
            request.path == "/v1/images/" ? .text(OpenverseTestServer.onePage) : .text(#"{"detail":"Not found."}"#, status: 404)
        }
        try await OpenverseTestServer.with(server, anonymous: true) { provider, _, _ in
            let photo = try #require(try await provider.search(.typed("pier"), page: 1, perPage: 20).photos.first)
            let details = try await provider.photoDetails(for: photo)
            #expect(details.title == "Pier" && details.ownerName == "Ann" && details.license?.shortName == "CC BY 2.0")
            #expect(details.pageURL == URL(string: "https://www.flickr.com/photos/1/2"))
        }
    }
}
