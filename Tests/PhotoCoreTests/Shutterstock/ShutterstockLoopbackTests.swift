import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Testing
import TestSupport
@testable import PhotoCore
@testable import ShutterstockService
@testable import Networking

/// The provider over real loopback HTTP, through `NetworkManager`, against a
/// small server that answers with the recorded bodies.
@Suite struct ShutterstockLoopbackTests {
    private static let goodToken = "v2/loopback-good-token"

    @Test func searchOverHTTPReturnsTheRecordedPage() async throws {
        try await withRecordedServer { server, network in
            let provider = ShutterstockProvider(credentials: try .token(Self.goodToken), baseURL: server.baseURL, network: network)
            let page = try await provider.search(.typed("forest"), page: 1, perPage: 5)
            #expect(page.page == 1)
            #expect(page.perPage == 5)
            #expect(page.total == 30_745_214)
            #expect(page.pages == 6_149_043)
            #expect(page.photos.map(\.id) == ["2730669441", "2699479365", "2593337003", "2716444763", "2695557961"])
            #expect(page.photos.first?.owner == "466368535")

            let seen = try #require(server.requests.last)
            #expect(seen.path == "/v2/images/search")
            #expect(seen.authorization == "Bearer \(Self.goodToken)")
            #expect(!(seen.userAgent ?? "").isEmpty)
            let items = URLComponents(string: "http://x/?" + seen.query)?.queryItems ?? []
            #expect(items.map { [$0.name, $0.value ?? ""] } == [
                ["query", "forest"], ["page", "1"], ["per_page", "5"], ["sort", "popular"],
                ["view", "minimal"], ["safe", "true"],
            ])
        }
    }

    @Test func basicCredentialsReachTheServer() async throws {
        try await withRecordedServer { server, network in
            let provider = ShutterstockProvider(credentials: try .key("my-key", secret: "my-secret"), baseURL: server.baseURL, network: network)
            await #expect(throws: ShutterstockError.self) { try await provider.recent(page: 1, perPage: 5) }
            #expect(server.requests.last?.authorization == "Basic bXkta2V5Om15LXNlY3JldA==")
            #expect(server.requests.last?.query.contains("sort=newest") == true)
            #expect(server.requests.last?.query.contains("query=") == false)
        }
    }

    @Test func refusedTokenBecomesAnUnauthorizedErrorWithoutTheToken() async throws {
        try await withRecordedServer { server, network in
            let wrong = "v2/loopback-wrong-token"
            let provider = ShutterstockProvider(credentials: try .token(wrong), baseURL: server.baseURL, network: network)
            let error = try await #require(throws: ShutterstockError.self) {
                try await provider.search(.typed("forest"), page: 1, perPage: 5)
            }
            guard case .http(.unauthorized) = error else {
                Issue.record("expected .unauthorized, got \(error)")
                return
            }
            #expect(error.description.contains("SHUTTERSTOCK_API_TOKEN"))
            #expect(!String(describing: error).contains(wrong) && !String(reflecting: error).contains(wrong))
            #expect(server.requests.last?.authorization == "Bearer \(wrong)")
        }
    }

    @Test func nothingListeningIsANetworkError() async throws {
        let network = NetworkManager()
        let base = try #require(URL(string: "http://127.0.0.1:\(try closedLoopbackPort())"))
        let provider = ShutterstockProvider(credentials: try .token(Self.goodToken), baseURL: base, network: network)
        do {
            _ = try await provider.search(.typed("x"), page: 1, perPage: 1)
            Issue.record("a search with nothing listening succeeded")
        } catch {
            #expect(error == .network(.connectionRefused(host: "127.0.0.1:\(base.port ?? 0)")))
        }
        await network.shutdown()
    }

    /// Runs `body` with the server and a manager, and stops both however it ends.
    private func withRecordedServer(
        _ body: (RecordedShutterstockServer, NetworkManager) async throws -> Void
    ) async throws {
        let server = try await RecordedShutterstockServer.start(
            acceptedAuthorization: "Bearer \(Self.goodToken)",
            searchBody: try ShutterstockRecorded.data(ShutterstockRecorded.forest2026),
            unauthorizedBody: try ShutterstockRecorded.data(ShutterstockRecorded.unauthorized401))
        let network = NetworkManager()
        do {
            try await body(server, network)
        } catch {
            await network.shutdown()
            await server.stop()
            throw error
        }
        await network.shutdown()
        await server.stop()
    }
}

/// What the server saw of one request.
struct SeenRequest: Sendable {
    var path: String
    var query: String
    var authorization: String?
    var userAgent: String?
}

/// `GET /v2/images/search` on a free loopback port: the accepted
/// `Authorization` gets the search body, anything else Shutterstock's
/// recorded 401, both with Shutterstock's `charset=utf8` content type.
final class RecordedShutterstockServer: Sendable {
    let baseURL: URL
    private let seen: NIOLockedValueBox<[SeenRequest]>
    private let services: ServiceGroup
    private let run: Task<Void, any Error>

    var requests: [SeenRequest] { seen.withLockedValue { $0 } }

    private init(baseURL: URL, seen: NIOLockedValueBox<[SeenRequest]>, services: ServiceGroup, run: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.seen = seen
        self.services = services
        self.run = run
    }

    static func start(acceptedAuthorization: String, searchBody: Data, unauthorizedBody: Data) async throws -> RecordedShutterstockServer {
        let seen = NIOLockedValueBox<[SeenRequest]>([])
        let router = Router()
        router.get("v2/images/search") { request, _ -> Response in
            let authorization = request.headers[.authorization]
            seen.withLockedValue {
                $0.append(SeenRequest(
                    path: request.uri.path, query: request.uri.query ?? "",
                    authorization: authorization, userAgent: request.headers[.userAgent]))
            }
            let accepted = authorization == acceptedAuthorization
            return Response(
                status: accepted ? .ok : .unauthorized,
                headers: [.contentType: "application/json; charset=utf8"],
                body: .init(byteBuffer: ByteBuffer(bytes: accepted ? searchBody : unauthorizedBody)))
        }
        let (ports, portContinuation) = AsyncStream<Int?>.makeStream()
        var logger = Logger(label: "shutterstock.loopback")
        logger.logLevel = .error
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port) },
            logger: logger)
        let services = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let run = Task {
            defer { portContinuation.finish() }
            try await services.run()
        }
        var port: Int?
        for await bound in ports {
            port = bound
            break
        }
        guard let port, let baseURL = URL(string: "http://127.0.0.1:\(port)") else {
            await services.triggerGracefulShutdown()
            _ = await run.result
            throw ServerDidNotStart()
        }
        return RecordedShutterstockServer(baseURL: baseURL, seen: seen, services: services, run: run)
    }

    /// Stops accepting, lets open connections finish, and waits until it has.
    func stop() async {
        await services.triggerGracefulShutdown()
        _ = await run.result
    }

    struct ServerDidNotStart: Error {}
}
