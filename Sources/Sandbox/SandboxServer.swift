import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The embedded Flickr-compatible server: REST API, synthetic JPEGs and
/// counters, on Hummingbird.
public final class SandboxServer: Sendable {
    /// The port actually bound (the free one picked when configured with 0).
    public let port: Int
    /// `http://HOST:PORT`, with a wildcard bind address shown as 127.0.0.1.
    public let baseURL: URL
    public let catalog: Catalog

    /// `http://HOST:PORT/services/rest/`.
    public var restURL: URL { baseURL.appendingPathComponent("services/rest/", isDirectory: true) }

    private let handler: SandboxHandler
    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, Never>

    private init(port: Int, baseURL: URL, handler: SandboxHandler, serviceGroup: ServiceGroup, runTask: Task<Void, Never>) {
        self.port = port
        self.baseURL = baseURL
        self.catalog = handler.catalog
        self.handler = handler
        self.serviceGroup = serviceGroup
        self.runTask = runTask
    }

    /// Builds the catalog, binds and starts serving `services` (the app's
    /// provider list names them); returns once the server accepts
    /// connections. Throws when the address cannot be bound.
    public static func start(_ configuration: SandboxConfiguration, serving services: [ImitatedService]) async throws -> SandboxServer {
        let handler = SandboxHandler(configuration: configuration, services: services)
        var logger = Logger(label: "flickr.sandbox")
        logger.logLevel = .error

        let (started, startedContinuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let router = CallbackResponder<SandboxRequestContext> { request, context in
            try await handler.respond(to: request, context: context)
        }
        let application = Application(
            responder: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(120))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                startedContinuation.yield(.success(channel.localAddress?.port ?? configuration.port))
            },
            logger: logger)
        let serviceGroup = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let runTask = Task {
            do {
                try await serviceGroup.run()
                startedContinuation.yield(.failure(SandboxError.stoppedBeforeStarting))
            } catch {
                startedContinuation.yield(.failure(error))
            }
            startedContinuation.finish()
        }
        var outcome: Result<Int, any Error> = .failure(SandboxError.stoppedBeforeStarting)
        for await first in started {
            outcome = first
            break
        }
        let port: Int
        do {
            port = try outcome.get()
        } catch {
            await runTask.value
            throw SandboxError.couldNotStart(host: configuration.host, port: configuration.port, reason: String(describing: error))
        }
        let shownHost = ["0.0.0.0", "::", ""].contains(configuration.host) ? "127.0.0.1" : configuration.host
        let hostPart = shownHost.contains(":") ? "[\(shownHost)]" : shownHost
        guard let baseURL = URL(string: "http://\(hostPart):\(port)") else {
            await serviceGroup.triggerGracefulShutdown()
            await runTask.value
            throw SandboxError.couldNotStart(host: configuration.host, port: port, reason: "not a valid URL host")
        }
        handler.setAddress(hostPart: hostPart, port: port)
        return SandboxServer(port: port, baseURL: baseURL, handler: handler, serviceGroup: serviceGroup, runTask: runTask)
    }

    public func stats() -> SandboxStats { handler.recorder.snapshot() }

    /// The latest 10,000 requests (not `/sandbox/*`), in arrival order.
    public func requestLog() -> [SandboxRequestRecord] { handler.recorder.log() }

    /// Zeroes the counters and clears the log (as `POST /sandbox/reset`).
    public func resetStats() { handler.recorder.reset() }

    /// Stops accepting, ends throttled transfers early, waits for the server to stop.
    public func shutdown() async {
        handler.beginShutdown()
        await serviceGroup.triggerGracefulShutdown()
        await runTask.value
    }
}

public enum SandboxError: Error, CustomStringConvertible {
    case couldNotStart(host: String, port: Int, reason: String)
    case stoppedBeforeStarting

    public var description: String {
        switch self {
        case .couldNotStart(let host, let port, let reason):
            "The sandbox could not listen on \(host):\(port) (\(reason)). Try another --port, or --port 0 for a free one."
        case .stoppedBeforeStarting:
            "The sandbox stopped before it started listening."
        }
    }
}

/// Request context that keeps the connection's channel, so a response can
/// check whether its client is still there and the reset fault can close it.
struct SandboxRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
