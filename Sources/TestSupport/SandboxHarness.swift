import PhotoCore
import Networking
import Foundation
import Sandbox
import Services

/// An in-process sandbox server for a test, with its counters read the way
/// an outside script reads them: `GET /sandbox/stats` over loopback HTTP.
///
/// Each harness listens on its own free port, so tests can run in parallel.
/// Call `shutdown()` when done, or use `SandboxHarness.with`.
public final class SandboxHarness: Sendable {
    public let server: SandboxServer
    private let network: NetworkManager

    private init(server: SandboxServer, network: NetworkManager) {
        self.server = server
        self.network = network
    }

    /// Starts a sandbox on a free loopback port (the configuration's port is
    /// forced to 0 so parallel tests never collide).
    public static func start(_ configuration: SandboxConfiguration = SandboxConfiguration()) async throws -> SandboxHarness {
        var configuration = configuration
        configuration.port = 0
        let server = try await SandboxServer.start(configuration)
        return SandboxHarness(server: server, network: NetworkManager())
    }

    /// Runs `body` with a started sandbox and always shuts it down afterwards.
    public static func with<Result>(
        _ configuration: SandboxConfiguration = SandboxConfiguration(),
        _ body: (SandboxHarness) async throws -> Result
    ) async throws -> Result {
        let harness = try await start(configuration)
        do {
            let result = try await body(harness)
            await harness.shutdown()
            return result
        } catch {
            await harness.shutdown()
            throw error
        }
    }

    /// `http://127.0.0.1:PORT/services/rest/`, for `--api-url`.
    public var restURL: URL { server.restURL }
    public var baseURL: URL { server.baseURL }
    public var port: Int { server.port }
    /// The synthetic catalog the server answers from, to check results against.
    public var catalog: Catalog { server.catalog }

    /// The counters, fetched from `GET /sandbox/stats`.
    public func stats() async throws -> SandboxCounters {
        let response = try await network.get(baseURL.appendingPathComponent("sandbox/stats"))
        do {
            return try JSONDecoder().decode(SandboxCounters.self, from: response.body)
        } catch {
            throw SandboxHarnessError.undecodable(
                "/sandbox/stats", body: String(decoding: response.body, as: UTF8.self), reason: "\(error)")
        }
    }

    /// The body of a GET of `url` (one of this sandbox's), as text; through
    /// the app's own HTTP layer, so no test blocks a thread waiting.
    public func text(of url: URL) async throws -> String {
        String(decoding: try await network.get(url).body, as: UTF8.self)
    }

    /// The request log, fetched from `GET /sandbox/log` (arrival order).
    public func requestLog() async throws -> [SandboxRequestRecord] {
        let response = try await network.get(baseURL.appendingPathComponent("sandbox/log"))
        do {
            return try JSONDecoder().decode([SandboxRequestRecord].self, from: response.body)
        } catch {
            throw SandboxHarnessError.undecodable(
                "/sandbox/log", body: String(decoding: response.body.prefix(2000), as: UTF8.self), reason: "\(error)")
        }
    }

    /// Polls the counters until `condition` holds; throws with the last
    /// counters seen when `timeout` passes first.
    @discardableResult
    public func waitForStats(
        _ description: String,
        timeout: Duration = PTYProcess.defaultTimeout,
        until condition: (SandboxCounters) -> Bool
    ) async throws -> SandboxCounters {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let stats = try await stats()
            if condition(stats) { return stats }
            if clock.now >= deadline {
                throw SandboxHarnessError.timedOut(waitingFor: description, last: stats)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops the server and the HTTP client used for the counters.
    public func shutdown() async {
        await network.shutdown()
        await server.shutdown()
    }
}

/// `GET /sandbox/stats` as the product contract names its fields. Decoded
/// here on purpose rather than with the sandbox's own type, so a renamed
/// wire field fails the end-to-end tests.
public struct SandboxCounters: Sendable, Decodable, Equatable, CustomStringConvertible {
    public var restRequests: Int
    public var imageRequests: Int
    public var imageBytes: Int
    public var abortedResponses: Int
    public var inFlight: Int

    enum CodingKeys: String, CodingKey {
        case restRequests = "rest_requests"
        case imageRequests = "image_requests"
        case imageBytes = "image_bytes"
        case abortedResponses = "aborted_responses"
        case inFlight = "in_flight"
    }

    public var description: String {
        "rest_requests=\(restRequests) image_requests=\(imageRequests) image_bytes=\(imageBytes) "
            + "aborted_responses=\(abortedResponses) in_flight=\(inFlight)"
    }
}

public enum SandboxHarnessError: Error, Sendable, CustomStringConvertible {
    case undecodable(String, body: String, reason: String)
    case timedOut(waitingFor: String, last: SandboxCounters)

    public var description: String {
        switch self {
        case .undecodable(let path, let body, let reason):
            "\(path) answered something that is not the contract's JSON (\(reason)): \(body)"
        case .timedOut(let what, let last):
            "Timed out waiting for the sandbox: \(what). Last counters: \(last)."
        }
    }
}
