import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking

/// `FlickrProvider` retrying over real loopback HTTP: the server fails a
/// scripted number of times, the injected sleep records the waits.
@Suite struct FlickrRetryTests {
    static let page = #"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"id":"5","owner":"9@N00","secret":"abc","server":"7","farm":1,"title":"t"}]},"stat":"ok"}"#

    private func withProvider(
        _ failures: [ScriptedReply], idleTimeout: Duration = .seconds(5),
        _ body: (FlickrProvider, LoopbackHTTPServer, RetryPolicyTests.Waits) async throws -> Void
    ) async throws {
        var configuration = NetworkManager.Configuration()
        configuration.idleTimeout = idleTimeout
        try await LoopbackHTTPServer.failing(failures, then: .text(Self.page), network: configuration) { server, network in
            let waits = RetryPolicyTests.Waits()
            let provider = FlickrProvider(
                apiKey: "k", endpoint: server.restURL, network: network, retryPolicy: waits.policy())
            try await body(provider, server, waits)
        }
    }

    @Test func tooManyRequestsWaitsTheRetryAfterSecondsThenSucceeds() async throws {
        try await withProvider([.text("slow down", status: 429, headers: [("Retry-After", "7")])]) { provider, server, waits in
            let page = try await provider.recent(page: 1, perPage: 1)
            #expect(page.photos.map(\.id) == ["5"])
            #expect(server.requests.count == 2)
            #expect(waits.all == [.seconds(7)])
        }
    }

    @Test func retryAfterAsAnHTTPDateIsHonoured() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let scripted = Date()
        let date = formatter.string(from: scripted.addingTimeInterval(20))
        try await withProvider([.text("busy", status: 503, headers: [("Retry-After", date)])]) { provider, server, waits in
            _ = try await provider.recent(page: 1, perPage: 1)
            // However slow the machine, the wait is what remained of the 20 s (the date has 1 s resolution).
            let elapsed = Date().timeIntervalSince(scripted)
            #expect(server.requests.count == 2)
            let wait = try #require(waits.all.first)
            #expect(wait >= .seconds(19 - elapsed.rounded(.up)) && wait <= .seconds(21), "waited \(wait) after \(elapsed) s")
        }
    }

    @Test func serverErrorsAreRetriedWithBackoff() async throws {
        try await withProvider([.text("oops", status: 503), .text("oops", status: 502)]) { provider, server, waits in
            _ = try await provider.recent(page: 1, perPage: 1)
            #expect(server.requests.count == 3)
            #expect(waits.all == [.milliseconds(50), .milliseconds(100)])
        }
    }

    @Test func persistentServerErrorsGiveUpAfterFourAttempts() async throws {
        let failures = Array(repeating: ScriptedReply.text("oops", status: 500), count: 10)
        try await withProvider(failures) { provider, server, _ in
            let error = await #expect(throws: FlickrError.self) { try await provider.recent(page: 1, perPage: 1) }
            #expect(error == .network(.httpStatus(500, host: "127.0.0.1:\(server.port)")))
            #expect(server.requests.count == 4)
        }
    }

    @Test func flickrServiceUnavailableIsRetried() async throws {
        let unavailable = ScriptedReply.text(#"{"stat":"fail","code":105,"message":"Service currently unavailable"}"#)
        try await withProvider([unavailable, unavailable]) { provider, server, _ in
            _ = try await provider.search(.typed("kittens"), page: 1, perPage: 1)
            #expect(server.requests.count == 3)
        }
    }

    @Test func invalidKeyIsNotRetried() async throws {
        let invalid = ScriptedReply.text(#"{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}"#)
        try await withProvider([invalid, invalid]) { provider, server, waits in
            let error = await #expect(throws: FlickrError.self) { try await provider.search(.typed("kittens"), page: 1, perPage: 1) }
            #expect(error == .api(code: 100, message: "Invalid API Key (Key has invalid format)"))
            #expect(server.requests.count == 1)
            #expect(waits.all.isEmpty)
        }
    }

    @Test func clientErrorsAreNotRetried() async throws {
        try await withProvider([.text("no", status: 404), .text("no", status: 404)]) { provider, server, _ in
            let error = await #expect(throws: FlickrError.self) { try await provider.recent(page: 1, perPage: 1) }
            #expect(error == .network(.httpStatus(404, host: "127.0.0.1:\(server.port)")))
            #expect(server.requests.count == 1)
        }
    }

    /// A response that goes quiet after its head is dropped by the idle
    /// timeout and asked for again. (On a loaded machine a healthy answer
    /// can also outlast the short idle timeout and be asked for once more,
    /// so the count is at least two, not exactly two.)
    @Test func stalledResponseIsRetried() async throws {
        try await withProvider([.headThenSilence(contentLength: 500)], idleTimeout: .seconds(3)) { provider, server, _ in
            let page = try await provider.recent(page: 1, perPage: 1)
            #expect(page.photos.count == 1)
            #expect(server.requests.count >= 2)
        }
    }

    @Test func getSizesAndGetInfoAreRetriedToo() async throws {
        let unavailable = ScriptedReply.text(#"{"stat":"fail","code":105,"message":"Service currently unavailable"}"#)
        try await withProvider([unavailable]) { provider, server, _ in
            // The good answer is a photo list, so getInfo fails to decode it: after one retry.
            let error = await #expect(throws: FlickrError.self) { try await provider.info(photoID: "5") }
            guard case .malformedResponse? = error else {
                Issue.record("expected malformedResponse, got \(String(describing: error))")
                return
            }
            #expect(server.requests.count == 2)
            #expect(server.requests.allSatisfy { $0.parameters["method"] == "flickr.photos.getInfo" })
        }
    }
}
