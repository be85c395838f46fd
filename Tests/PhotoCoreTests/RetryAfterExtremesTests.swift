import Foundation
import Testing
import TestSupport
@testable import PhotoCore
@testable import FlickrService
@testable import Networking
@testable import OpenverseService
@testable import ShutterstockService

/// Waits a server names at the edges of what fits in a number: they must
/// never trap, never be slept through, and read as a sentence a person can
/// act on.
@Suite struct RetryAfterExtremesTests {
    static let huge = "9223372036854775807"

    // MARK: - Wording

    @Test(arguments: [
        Duration.seconds(Int64.max), .seconds(Int64.min), .seconds(-5), .zero,
        .seconds(Int64.max) + .seconds(Int64.max), .seconds(86_401),
    ])
    func everyProvidersWordingOfAnyWaitIsASentence(_ wait: Duration) {
        let openverse = OpenverseError.http(.rateLimited(retryAfter: wait, serverMessage: nil)).description
        let shutterstock = ShutterstockError.http(.rateLimited(retryAfter: wait, serverMessage: nil)).description
        let network = NetworkError.retryLater(status: 503, after: wait, host: "h").description
        for sentence in [openverse, shutterstock, network] {
            #expect(!sentence.contains("-"), "\(sentence)")
            #expect(!sentence.contains(Self.huge) && !sentence.contains("2147483647"), "\(sentence)")
        }
        if wait > .seconds(86_400) {
            #expect(openverse.contains("Try again in more than a day."), "\(openverse)")
            #expect(shutterstock.contains("Try again in more than a day."), "\(shutterstock)")
            #expect(network.contains("try again in more than a day"), "\(network)")
        }
    }

    /// Scripts/fuzz's retry-after target: a date with combining marks and
    /// control bytes made Foundation's DateFormatter trap ("Incorrect range").
    @Test func aDateThatIsNotASCIIIsNoWaitNotATrap() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzFindings/retry-after-1.txt")
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(RetryPolicy.retryAfter(text, now: Date(timeIntervalSince1970: 1_700_000_000)) == nil)
        #expect(RetryPolicy.retryAfter("Sun\u{36D}\u{1}0 08:49:37 1994") == nil)
    }

    @Test func shortWaitsKeepTheirUnits() {
        #expect(ServerWait.phrase(.seconds(90)) == "90 seconds")
        #expect(ServerWait.phrase(.milliseconds(1)) == "1 second")
        #expect(NetworkError.retryLater(status: 429, after: .seconds(600), host: "h").description
            == "h is busy (HTTP 429, too many requests); try again in about 10 minutes.")
        #expect(ShutterstockError.http(.rateLimited(retryAfter: .seconds(7), serverMessage: nil)).description
            .contains("Try again in 7 seconds."))
    }

    // MARK: - Reading

    @Test(arguments: [
        huge, "18446744073709551616", "99999999999999999999999999999999999999999999", "0009223372036854775807",
    ])
    func hugeDelaySecondsSaturate(_ value: String) throws {
        let wait = try #require(RetryPolicy.retryAfter(value))
        #expect(wait > ServerWait.longestNamed && wait <= ServerWait.ceiling)
        let throttle = try #require(OpenverseErrorBody.throttleWait(in: "Request was throttled. Expected available in \(value) seconds."))
        #expect(throttle > ServerWait.longestNamed && throttle <= ServerWait.ceiling)
    }

    @Test func hugeDoublesSaturateAndOddOnesAreNoWait() {
        #expect(ServerWait.seconds(1e300) == ServerWait.ceiling)
        #expect(ServerWait.seconds(.infinity) == ServerWait.ceiling)
        #expect(ServerWait.seconds(Double(Int64.max)) == ServerWait.ceiling)
        #expect(ServerWait.seconds(-1e300) == .zero)
        #expect(ServerWait.seconds(-.infinity) == .zero)
        #expect(ServerWait.seconds(.nan) == .zero)
        #expect(ServerWait.seconds(1.5) == .milliseconds(1_500))
        #expect(ServerWait.seconds(whole: Int.max) == ServerWait.ceiling)
        #expect(ServerWait.seconds(whole: Int.min) == .zero)
        #expect(ServerWait.seconds(digits: "1e9") == nil)
        #expect(ServerWait.seconds(digits: "") == nil)
        #expect(ServerWait.seconds(digits: "-5") == nil)
    }

    @Test func farDatesAreWithinTheCeiling() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let future = try #require(RetryPolicy.retryAfter("Fri, 31 Dec 9999 23:59:59 GMT", now: now))
        #expect(future > ServerWait.longestNamed && future <= ServerWait.ceiling)
        #expect(RetryPolicy.retryAfter("Mon, 01 Jan 0001 00:00:00 GMT", now: now) == .zero)
        // Whatever a formatter makes of a year past 9999, it must not trap.
        if let far = RetryPolicy.retryAfter("Fri, 31 Dec 999999999 23:59:59 GMT", now: now) {
            #expect(far <= ServerWait.ceiling)
        }
        // A far-away "now" (a clock gone wrong) must not trap either.
        #expect(RetryPolicy.retryAfter("Fri, 31 Dec 9999 23:59:59 GMT", now: .distantPast).map { $0 <= ServerWait.ceiling } == true)
    }

    @Test func aTokenThatLivesForeverDoesNotTrap() {
        let now = ContinuousClock.now
        let renew = OpenverseToken.renewAt(obtained: now, expiresIn: .max)
        #expect(renew > now)
        #expect(OpenverseToken.renewAt(obtained: now, expiresIn: .min) <= now)
    }

    // MARK: - Over loopback HTTP, with the real policy's limit

    @Test(arguments: [429, 503])
    func flickrSearchGivesUpAtOnceWithASentence(status: Int) async throws {
        let waits = RetryPolicyTests.Waits()
        try await LoopbackHTTPServer.failing(
            [.text("busy", status: status, headers: [("Retry-After", Self.huge)])], then: .text(FlickrRetryTests.page)
        ) { server, network in
            let provider = FlickrProvider(apiKey: "k", endpoint: server.restURL, network: network, retryPolicy: waits.policy())
            do {
                _ = try await provider.search(try #require(SearchQuery("owls")), page: 1, perPage: 1)
                Issue.record("a wait of 292 billion years was not refused")
            } catch {
                #expect(userMessage(for: error).contains("try again in more than a day"), "\(userMessage(for: error))")
            }
            #expect(waits.all.isEmpty, "slept \(waits.all)")
            #expect(server.requests.count == 1)
        }
    }

    @Test func openverseThrottleDetailGivesUpAtOnceWithASentence() async throws {
        let waits = RetryPolicyTests.Waits()
        let detail = #"{"detail":"Request was throttled. Expected available in \#(Self.huge) seconds."}"#
        try await LoopbackHTTPServer.failing(
            [.text(detail, status: 429, headers: [("Content-Type", "application/json")])], then: .text(OpenverseTestServer.onePage)
        ) { server, network in
            let provider = OpenverseProvider(baseURL: server.baseURL, network: network, retryPolicy: waits.policy())
            do {
                _ = try await provider.search(try #require(SearchQuery("pier")), page: 1, perPage: 1)
                Issue.record("a wait of 292 billion years was not refused")
            } catch {
                #expect(userMessage(for: error).contains("Try again in more than a day."), "\(userMessage(for: error))")
            }
            #expect(waits.all.isEmpty, "slept \(waits.all)")
        }
    }

    // MARK: - The binary

    private func runFlickr(_ arguments: [String], serving reply: @escaping @Sendable (ReceivedRequest) -> ScriptedReply)
        async throws -> ProcessRunner.Result
    {
        let home = try TemporaryDirectory()
        var environment = PTYProcess.baseEnvironment()
        environment["HOME"] = home.url.path
        environment["XDG_STATE_HOME"] = home.url.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = home.url.appendingPathComponent("cache").path
        return try await LoopbackHTTPServer.with(reply) { server in
            let filled = arguments.map { $0.replacingOccurrences(of: "PORT", with: "\(server.port)") }
            return try await ProcessRunner.run(try Binaries.flickr, arguments: filled, environment: environment)
        }
    }

    @Test(arguments: [429, 503])
    func flickrSearchCommandExitsOneWithASentence(status: Int) async throws {
        let result = try await runFlickr(
            ["search", "owls", "--api-url", "http://127.0.0.1:PORT/services/rest/", "--api-key", "k"]
        ) { _ in .text("busy", status: status, headers: [("Retry-After", Self.huge)]) }
        #expect(result.status == .exited(1), "\(result.transcript)")
        #expect(result.transcript.contains("more than a day"), "\(result.transcript)")
    }

    @Test func downloadOfAnImageThatAsksForAnAgeSaysSo() async throws {
        let out = try TemporaryDirectory()
        let result = try await runFlickr(
            ["download", "pier", "--provider", "openverse", "--api-url", "http://127.0.0.1:PORT", "--pages", "1",
             "--per-page", "1", "--out", out.url.path]
        ) { request in
            if request.uri.hasPrefix("/v1/images") {
                return .text(OpenverseTestServer.onePage.replacingOccurrences(of: "127.0.0.1/", with: "127.0.0.1:\(request.headers["host"]?.split(separator: ":").last ?? "80")/"))
            }
            return .text("busy", status: 503, headers: [("Retry-After", Self.huge)])
        }
        #expect(result.status == .exited(1), "\(result.transcript)")
        #expect(result.transcript.contains("more than a day"), "\(result.transcript)")
    }
}
