import PhotoCore
import Networking
import Sandbox
import Services

/// Runs `body` with a real sandbox on a free loopback port and a
/// `NetworkManager`, and shuts both down however the body ends (a manager
/// released without `shutdown()` stops the process in debug builds).
///
/// - Parameter photoCount: a small catalog keeps start-up cheap; tests that
///   need everyday queries to match thousands pass the default 20,000.
/// - Parameter network: by default `.testing`, whose timeouts a loaded
///   machine does not outlast.
public func withSandboxSession<T>(
    isolation: isolated (any Actor)? = #isolation,
    photoCount: Int = 3_000,
    network networkConfiguration: NetworkManager.Configuration = .testing,
    configure: (inout SandboxConfiguration) -> Void = { _ in },
    _ body: (SandboxServer, NetworkManager) async throws -> T
) async throws -> T {
    var configuration = SandboxConfiguration()
    configuration.photoCount = photoCount
    configure(&configuration)
    let server = try await SandboxServer.start(configuration)
    let network = NetworkManager(configuration: networkConfiguration)
    do {
        let result = try await body(server, network)
        await network.shutdown()
        await server.shutdown()
        return result
    } catch {
        await network.shutdown()
        await server.shutdown()
        throw error
    }
}

extension NetworkManager.Configuration {
    /// The defaults, but with a 60 s idle timeout and a 5-minute deadline:
    /// the app's 5 s and 60 s suit a real network, while a busy CI machine
    /// can stall a healthy loopback transfer longer, and tests throttle
    /// images to ~30 s. Tests of stalls set their own.
    public static var testing: Self {
        var configuration = Self()
        configuration.idleTimeout = .seconds(60)
        configuration.requestTimeout = .seconds(300)
        return configuration
    }
}

extension SearchQuery {
    /// A search as a test types it; the text must hold words.
    public static func typed(_ text: String) -> SearchQuery {
        guard let query = SearchQuery(text) else { preconditionFailure("a test search needs words, got “\(text)”") }
        return query
    }
}
