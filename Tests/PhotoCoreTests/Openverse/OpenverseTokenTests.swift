import Foundation
import Testing
@testable import PhotoCore
@testable import Networking
@testable import OpenverseService

/// Client credentials → one token, reused until shortly before it expires,
/// renewed once on an "expired" 401, over real loopback HTTP.
@Suite struct OpenverseTokenTests {
    private func search(_ provider: OpenverseProvider) async throws -> PhotoPage {
        try await provider.search(.typed("pier"), page: 1, perPage: 50)
    }

    @Test func tokenIsFetchedWithAFormPostAndSentAsBearer() async throws {
        try await OpenverseTestServer.with { provider, server, _ in
            let page = try await search(provider)
            #expect(page.photos.map(\.title) == ["Pier"])
            let token = try #require(server.requests.first)
            #expect(token.isTokenRequest && token.method == "POST")
            #expect(token.headers["content-type"] == "application/x-www-form-urlencoded")
            #expect(String(decoding: token.body, as: UTF8.self)
                == "client_id=loopback-client-id&client_secret=loopback-secret%2B%2F%3Dvalue&grant_type=client_credentials")
            let get = try #require(server.requests.last)
            #expect(get.method == "GET" && get.path == "/v1/images/")
            #expect(get.authorization == "Bearer tok-1")
            #expect(get.parameters["page_size"] == "50", "a token allows more than 20 per page")
        }
    }

    @Test func anonymousSearchesSendNoToken() async throws {
        try await OpenverseTestServer.with(anonymous: true) { provider, server, _ in
            _ = try await provider.search(.typed("pier"), page: 1, perPage: 20)
            #expect(server.requests.count == 1)
            #expect(server.requests.first?.authorization == nil)
            #expect(server.requests.contains { $0.isTokenRequest } == false)
        }
    }

    @Test func oneTokenServesManySearches() async throws {
        try await OpenverseTestServer.with { provider, server, tokens in
            for _ in 0..<3 { _ = try await search(provider) }
            #expect(server.requests.filter(\.isTokenRequest).count == 1)
            #expect(server.requests.filter { !$0.isTokenRequest }.allSatisfy { $0.authorization == "Bearer tok-1" })
            #expect(await tokens.fetches == 1)
        }
    }

    @Test func searchesStartedTogetherShareOneTokenFetch() async throws {
        let server = OpenverseTestServer()
        // A slow token answer, so every search arrives while it is on its way.
        server.tokenReply.withLockedValue { reply in
            reply = { number in
                let body = Data(#"{"access_token":"tok-\#(number)","expires_in":36000,"token_type":"Bearer"}"#.utf8)
                return .drip(chunks: [body.prefix(10), body.dropFirst(10)], interval: .milliseconds(300))
            }
        }
        try await OpenverseTestServer.with(server) { provider, loopback, _ in
            try await withThrowingTaskGroup(of: PhotoPage.self) { group in
                for _ in 0..<8 { group.addTask { try await search(provider) } }
                for try await page in group { #expect(page.photos.count == 1) }
            }
            #expect(loopback.requests.filter(\.isTokenRequest).count == 1)
            #expect(loopback.requests.filter { !$0.isTokenRequest }.count == 8)
        }
    }

    @Test func tokenIsRenewedShortlyBeforeItExpires() async throws {
        let clock = ManualClock()
        try await OpenverseTestServer.with(OpenverseTestServer(expiresIn: 3_600), tokens: OpenverseTokenStore(now: clock.now)) { provider, server, _ in
            _ = try await search(provider)
            clock.advance(by: .seconds(3_500))
            _ = try await search(provider)
            #expect(server.requests.filter(\.isTokenRequest).count == 1, "still good 100 s before expiry")
            clock.advance(by: .seconds(60))
            _ = try await search(provider)
            #expect(server.requests.filter(\.isTokenRequest).count == 2, "renewed within the last minute")
            #expect(server.requests.last?.authorization == "Bearer tok-2")
        }
    }

    @Test func renewalMarginIsATenthOfAShortLife() {
        let start = ContinuousClock.now
        #expect(OpenverseToken.renewAt(obtained: start, expiresIn: 36_000) == start + .seconds(35_940))
        #expect(OpenverseToken.renewAt(obtained: start, expiresIn: 100) == start + .seconds(90))
        #expect(OpenverseToken.renewAt(obtained: start, expiresIn: 0) == start)
    }

    @Test func expiredTokenIsFetchedAgainOnceAndTheSearchSucceeds() async throws {
        let server = OpenverseTestServer()
        server.apiReply.withLockedValue { reply in
            reply = { request in
                request.authorization == "Bearer tok-1"
                    ? .text(#"{"detail":"Token has expired."}"#, status: 401)
                    : .text(OpenverseTestServer.onePage)
            }
        }
        try await OpenverseTestServer.with(server) { provider, loopback, _ in
            let page = try await search(provider)
            #expect(page.photos.count == 1)
            #expect(loopback.requests.map(\.path) == ["/v1/auth_tokens/token/", "/v1/images/", "/v1/auth_tokens/token/", "/v1/images/"])
            #expect(loopback.requests.last?.authorization == "Bearer tok-2")
        }
    }

    @Test func aTokenRefusedTwiceEndsWithTheRefusalNotALoop() async throws {
        let server = OpenverseTestServer()
        server.apiReply.withLockedValue { reply in
            reply = { _ in .text(#"{"detail":"Token has expired."}"#, status: 401) }
        }
        try await OpenverseTestServer.with(server) { provider, loopback, _ in
            let error = try await #require(throws: OpenverseError.self) { try await search(provider) }
            #expect(error == .unauthorized(anonymous: false, serverMessage: "Token has expired."))
            #expect(loopback.requests.count == 4)
        }
    }

    @Test func refusedClientCredentialsSaySoWithoutTheSecret() async throws {
        let server = OpenverseTestServer()
        server.tokenReply.withLockedValue { reply in
            reply = { _ in
                .text(#"{"error":"invalid_client","detail":"Bad client_secret loopback-secret+/=value"}"#, status: 401)
            }
        }
        try await OpenverseTestServer.with(server) { provider, loopback, _ in
            let error = try await #require(throws: OpenverseError.self) { try await search(provider) }
            guard case .tokenRefused(401, _) = error else {
                Issue.record("expected .tokenRefused, got \(error)")
                return
            }
            #expect(error.description.contains("OPENVERSE_CLIENT_ID"))
            for text in [error.description, String(reflecting: error), userMessage(for: error)] {
                #expect(!text.contains(OpenverseTestServer.clientSecret) && !text.contains("loopback-secret"), "\(text)")
            }
            #expect(loopback.requests.count == 1, "no search goes out without a token")
        }
    }

    @Test func tokenAnswerWithoutATokenIsMalformed() async throws {
        let server = OpenverseTestServer()
        server.tokenReply.withLockedValue { reply in reply = { _ in .text(#"{"expires_in":36000}"#) } }
        try await OpenverseTestServer.with(server) { provider, _, _ in
            let error = try await #require(throws: OpenverseError.self) { try await search(provider) }
            #expect(error.description.contains("access_token"))
        }
    }
}
