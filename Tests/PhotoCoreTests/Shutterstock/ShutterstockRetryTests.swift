import Foundation
import Testing
import TestSupport
@testable import PhotoCore
@testable import ShutterstockService

/// `ShutterstockProvider` over real loopback HTTP when the service fails:
/// which answers are tried again, how long it waits, and what the person
/// reads (the server's own words, never the credentials).
@Suite struct ShutterstockRetryTests {
    static let page = #"{"page":1,"per_page":1,"total_count":1,"data":[{"id":"42","description":"Pier ","aspect":1.5,"contributor":{"id":"7"},"assets":{"large_thumb":{"url":"http://127.0.0.1/t.jpg","width":150,"height":100}}}]}"#

    private func withProvider(
        _ failures: [ScriptedReply],
        _ body: (ShutterstockProvider, LoopbackHTTPServer, RetryPolicyTests.Waits) async throws -> Void
    ) async throws {
        try await LoopbackHTTPServer.failing(failures, then: .text(Self.page)) { server, network in
            let waits = RetryPolicyTests.Waits()
            let provider = ShutterstockProvider(
                credentials: try .token("secret-token-1"), baseURL: server.baseURL, network: network,
                retryPolicy: waits.policy())
            try await body(provider, server, waits)
        }
    }

    @Test func serviceUnavailableOnceIsRetriedAndTheSearchSucceeds() async throws {
        try await withProvider([.text(#"{"message":"Service Unavailable"}"#, status: 503)]) { provider, server, waits in
            let page = try await provider.search(.typed("pier"), page: 1, perPage: 1)
            #expect(page.photos.map(\.id) == ["42"])
            #expect(server.requests.count == 2)
            #expect(waits.all == [.milliseconds(50)])
        }
    }

    @Test func rateLimitWaitsTheRetryAfterSeconds() async throws {
        let limited = ScriptedReply.text(#"{"message":"Too many requests"}"#, status: 429, headers: [("Retry-After", "3")])
        try await withProvider([limited]) { provider, server, waits in
            _ = try await provider.search(.typed("pier"), page: 1, perPage: 1)
            #expect(server.requests.count == 2)
            #expect(waits.all == [.seconds(3)])
        }
    }

    @Test func unauthorizedIsNotRetriedAndQuotesTheServer() async throws {
        let denied = ScriptedReply.text(#"{"message":"Invalid access token secret-token-1"}"#, status: 401)
        try await withProvider([denied, denied]) { provider, server, waits in
            let error = await #expect(throws: ShutterstockError.self) { try await provider.search(.typed("pier"), page: 1, perPage: 1) }
            #expect(server.requests.count == 1)
            #expect(waits.all.isEmpty)
            let text = try #require(error).description
            #expect(text.contains("Invalid access token"), "the server's words: \(text)")
            #expect(!text.contains("secret-token-1"), "the token is redacted: \(text)")
            #expect(text.contains("SHUTTERSTOCK_API_TOKEN"), "says which variables to set: \(text)")
        }
    }

    @Test func errorsListIsQuotedForABadRequest() async throws {
        let bad = ScriptedReply.text(
            #"{"message":"Validation failed","errors":[{"code":"VALIDATION_INVALID","message":"per_page must be at most 500","path":"per_page"}]}"#,
            status: 400)
        try await withProvider([bad]) { provider, server, _ in
            let error = await #expect(throws: ShutterstockError.self) { try await provider.search(.typed("pier"), page: 1, perPage: 1) }
            #expect(server.requests.count == 1)
            let text = try #require(error).description
            #expect(text.contains("per_page"), "\(text)")
        }
    }

    @Test func cancellingASearchEndsItAtOnceAsCancelled() async throws {
        try await withProvider([.headThenSilence(contentLength: 500)]) { provider, server, waits in
            let search = Task { try await provider.search(.typed("pier"), page: 1, perPage: 1) }
            try await eventually("the request reached the server") { server.requests.count == 1 }
            search.cancel()
            let error = await #expect(throws: ShutterstockError.self) { try await search.value }
            #expect(error == .network(.cancelled))
            #expect(server.requests.count == 1, "a cancelled search is not retried")
            #expect(waits.all.isEmpty)
        }
    }
}
