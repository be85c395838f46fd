import Foundation
import Testing
@testable import PhotoCore
@testable import Networking

/// `NetworkManager`'s idle timeout over real loopback HTTP: a server that
/// goes quiet ends in `.stalled`, whether it sent its headers or not; one
/// that keeps trickling bytes does not.
@Suite struct IdleTimeoutTests {
    private func withNetwork<T>(idleTimeout: Duration, _ body: (NetworkManager) async throws -> T) async throws -> T {
        var configuration = NetworkManager.Configuration()
        configuration.idleTimeout = idleTimeout
        // A whole-request deadline far away, so only the idle timer can end these.
        configuration.requestTimeout = .seconds(60)
        let network = NetworkManager(configuration: configuration)
        do {
            let result = try await body(network)
            await network.shutdown()
            return result
        } catch {
            await network.shutdown()
            throw error
        }
    }

    private func fetch(_ url: URL, with network: NetworkManager) async -> Result<Data, NetworkError> {
        do throws(NetworkError) {
            return .success(try await network.get(url).body)
        } catch {
            return .failure(error)
        }
    }

    /// A compressed answer's Content-Length counts compressed bytes: a short
    /// answer that compression made longer is whole, not cut off.
    @Test func aCompressedAnswerLongerThanItsTextIsWhole() async throws {
        let gzipped = Data([
            31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 42, 46, 73, 44, 81, 178, 82, 202, 207, 86, 170, 5, 0, 112, 35,
            32, 181, 13, 0, 0, 0,
        ])
        try await LoopbackHTTPServer.with({ _ in .respond(headers: [("Content-Encoding", "gzip")], body: gzipped) }) { server in
            try await withNetwork(idleTimeout: .seconds(30)) { network in
                let outcome = await fetch(server.baseURL.appendingPathComponent("rest"), with: network)
                #expect(outcome == .success(Data(#"{"stat":"ok"}"#.utf8)))
            }
        }
    }

    @Test func headersThenSilenceStalls() async throws {
        try await LoopbackHTTPServer.with({ _ in .headThenSilence(contentLength: 10_000) }) { server in
            try await withNetwork(idleTimeout: .milliseconds(300)) { network in
                let outcome = await fetch(server.baseURL.appendingPathComponent("image.jpg"), with: network)
                #expect(outcome == .failure(.stalled(host: "127.0.0.1:\(server.port)")))
            }
        }
    }

    @Test func slowHeadersStallTheSameWay() async throws {
        try await LoopbackHTTPServer.with({ _ in .silence }) { server in
            try await withNetwork(idleTimeout: .milliseconds(300)) { network in
                let outcome = await fetch(server.baseURL, with: network)
                #expect(outcome == .failure(.stalled(host: "127.0.0.1:\(server.port)")))
            }
        }
    }

    @Test func silenceAfterSomeOfTheBodyStalls() async throws {
        // Some of the body arrives, then the server holds the rest.
        let reply = ScriptedReply.partial(body: Data(repeating: 1, count: 300), contentLength: 10_000)
        try await LoopbackHTTPServer.with({ _ in reply }) { server in
            try await withNetwork(idleTimeout: .milliseconds(400)) { network in
                let outcome = await fetch(server.baseURL, with: network)
                #expect(outcome == .failure(.stalled(host: "127.0.0.1:\(server.port)")))
            }
        }
    }

    /// Bytes every 20 ms never let the idle timer fire: it waits for
    /// silence, not for the transfer to end. (30 s: a busy machine can hold
    /// a healthy trickle back for seconds.)
    @Test func aSteadyTrickleIsNotAStall() async throws {
        let chunks = (0..<15).map { Data(repeating: UInt8($0), count: 64) }
        try await LoopbackHTTPServer.with({ _ in .drip(chunks: chunks, interval: .milliseconds(20)) }) { server in
            try await withNetwork(idleTimeout: .seconds(30)) { network in
                let outcome = await fetch(server.baseURL, with: network)
                #expect(outcome == .success(chunks.reduce(Data(), +)))
            }
        }
    }

    @Test func stallsAreTransientAndSaySo() {
        let error = NetworkError.stalled(host: "live.staticflickr.com")
        #expect(error.isTransient)
        #expect(error != .timedOut(host: "live.staticflickr.com"))
        #expect(error.description == "live.staticflickr.com went quiet: no data arrived for too long, so the request was dropped.")
    }

    @Test func theDefaultIdleTimeoutIsAFewSeconds() {
        let configuration = NetworkManager.Configuration()
        #expect(configuration.idleTimeout == .seconds(5))
        #expect(configuration.connectTimeout != configuration.idleTimeout)
    }
}
