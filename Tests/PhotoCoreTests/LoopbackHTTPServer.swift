import PhotoCore
import Networking
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// What the scripted server does with one request.
enum ScriptedReply: Sendable {
    /// A whole response.
    case respond(status: Int = 200, headers: [(String, String)] = [], body: Data = Data())
    /// The head (announcing `contentLength` bytes), then nothing more.
    case headThenSilence(contentLength: Int)
    /// The head (announcing `contentLength` bytes) and the first part of
    /// the body, then nothing more.
    case partial(body: Data, contentLength: Int)
    /// Nothing at all: not even a head.
    case silence
    /// The head, then the body in `chunks`, one every `interval`.
    case drip(chunks: [Data], interval: Duration)

    static func text(_ body: String, status: Int = 200, headers: [(String, String)] = []) -> ScriptedReply {
        .respond(status: status, headers: headers, body: Data(body.utf8))
    }
}

/// A request as the server saw it.
struct ReceivedRequest: Sendable {
    var uri: String
    var headers: [String: String]
    var method: String = "GET"
    var body = Data()

    /// The query's parameters, decoded.
    var parameters: [String: String] {
        let items = URLComponents(string: uri)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }
}

/// A tiny HTTP/1.1 server on a free loopback port that answers each request
/// as a closure says: whole responses, or silence after the head, or no
/// head at all, for the client's time-outs to meet. Real sockets, real
/// parsing; nothing mocked on the client's side.
final class LoopbackHTTPServer: Sendable {
    private let channel: any Channel
    private let connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>
    private let received: NIOLockedValueBox<[ReceivedRequest]>

    let port: Int
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    var restURL: URL { URL(string: "http://127.0.0.1:\(port)/services/rest/")! }
    /// Every request so far, in order of arrival.
    var requests: [ReceivedRequest] { received.withLockedValue { $0 } }

    private init(channel: any Channel, connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>,
                 received: NIOLockedValueBox<[ReceivedRequest]>, port: Int) {
        self.channel = channel
        self.connections = connections
        self.received = received
        self.port = port
    }

    static func start(_ reply: @escaping @Sendable (ReceivedRequest) -> ScriptedReply) async throws -> LoopbackHTTPServer {
        let connections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
        let received = NIOLockedValueBox<[ReceivedRequest]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                connections.withLockedValue { $0[ObjectIdentifier(child)] = child }
                child.closeFuture.whenComplete { _ in
                    connections.withLockedValue { _ = $0.removeValue(forKey: ObjectIdentifier(child)) }
                }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(ScriptedHandler(reply: reply, log: received))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw ChannelError.unknownLocalAddress
        }
        return LoopbackHTTPServer(channel: channel, connections: connections, received: received, port: port)
    }

    /// Runs `body` with a fresh server and shuts it down however the body ends.
    static func with<T>(
        _ reply: @escaping @Sendable (ReceivedRequest) -> ScriptedReply,
        _ body: (LoopbackHTTPServer) async throws -> T
    ) async throws -> T {
        let server = try await start(reply)
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// A server that answers `failures` in turn and then `success`, with a
    /// `NetworkManager` for it; both are shut down however `body` ends.
    static func failing<T>(
        _ failures: [ScriptedReply], then success: ScriptedReply,
        network configuration: NetworkManager.Configuration = NetworkManager.Configuration(),
        _ body: (LoopbackHTTPServer, NetworkManager) async throws -> T
    ) async throws -> T {
        let served = NIOLockedValueBox(0)
        return try await with({ _ in
            let index = served.withLockedValue { count in
                defer { count += 1 }
                return count
            }
            return index < failures.count ? failures[index] : success
        }) { server in
            let network = NetworkManager(configuration: configuration)
            do {
                let result = try await body(server, network)
                await network.shutdown()
                return result
            } catch {
                await network.shutdown()
                throw error
            }
        }
    }

    /// Stops listening and closes every open connection, silent ones included.
    func shutdown() async {
        try? await channel.close()
        for connection in connections.withLockedValue({ Array($0.values) }) {
            try? await connection.close()
        }
    }
}

/// Answers one connection's requests; lives on its channel's event loop.
private final class ScriptedHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let reply: @Sendable (ReceivedRequest) -> ScriptedReply
    private let log: NIOLockedValueBox<[ReceivedRequest]>
    private var head: HTTPRequestHead?
    private var body = Data()

    init(reply: @escaping @Sendable (ReceivedRequest) -> ScriptedReply, log: NIOLockedValueBox<[ReceivedRequest]>) {
        self.reply = reply
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = Data()
        case .body(let part):
            body.append(contentsOf: part.readableBytesView)
        case .end:
            guard let head else { return }
            let request = ReceivedRequest(
                uri: head.uri,
                headers: Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a }),
                method: head.method.rawValue, body: body)
            log.withLockedValue { $0.append(request) }
            answer(reply(request), context: context)
        }
    }

    private func answer(_ scripted: ScriptedReply, context: ChannelHandlerContext) {
        switch scripted {
        case .silence:
            return
        case .headThenSilence(let length):
            writeHead(status: 200, headers: [("Content-Length", String(length))], context: context)
            context.flush()
        case .partial(let body, let length):
            writeHead(status: 200, headers: [("Content-Length", String(length))], context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        case .respond(let status, let headers, let body):
            writeHead(status: status, headers: headers + [("Content-Length", String(body.count))], context: context)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .drip(let chunks, let interval):
            let total = chunks.reduce(0) { $0 + $1.count }
            writeHead(status: 200, headers: [("Content-Length", String(total))], context: context)
            context.flush()
            drip(chunks[...], every: interval, context: context)
        }
    }

    private func drip(_ chunks: ArraySlice<Data>, every interval: Duration, context: ChannelHandlerContext) {
        guard let next = chunks.first else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let nanoseconds = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
        context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds)) {
            guard context.channel.isActive else { return }
            context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: next)))), promise: nil)
            self.drip(chunks.dropFirst(), every: interval, context: context)
        }
    }

    private func writeHead(status: Int, headers: [(String, String)], context: ChannelHandlerContext) {
        var fields = HTTPHeaders(headers)
        if !fields.contains(name: "Content-Type") { fields.add(name: "Content-Type", value: "application/json") }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }
}
