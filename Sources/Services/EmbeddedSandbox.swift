import Foundation
import Sandbox

/// The embedded sandbox, started at most once, by whichever provider needs
/// it first.
actor EmbeddedSandbox {
    /// The embedded sandbox prefers one fixed loopback port, so image URLs
    /// (the cache keys) stay the same from run to run and the last session's
    /// thumbnails come from the disk cache; another free port if it is taken.
    static let preferredPort = 47_839

    private var starting: Task<SandboxServer, any Error>?
    /// The server, once started.
    private(set) var started: SandboxServer?

    func server() async throws -> SandboxServer {
        let task = starting ?? Task { try await Self.start() }
        starting = task
        let server = try await task.value
        started = server
        return server
    }

    func shutdown() async {
        guard let starting else { return }
        if let server = try? await starting.value { await server.shutdown() }
    }

    private static func start() async throws -> SandboxServer {
        var configuration = SandboxConfiguration()
        configuration.port = preferredPort
        if let preferred = try? await SandboxServer.start(configuration) { return preferred }
        configuration.port = 0
        do {
            return try await SandboxServer.start(configuration)
        } catch {
            throw ServiceSetupError("Could not start the embedded sandbox: \(error)")
        }
    }
}
