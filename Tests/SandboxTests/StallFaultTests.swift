import PhotoCore
import Networking
import Foundation
import Sandbox
import Services
import TestSupport
import Testing

/// The faults that live on the connection: `stall` and `slow-headers`.
@Suite(.timeLimit(.minutes(2))) struct StallFaultTests {
    private func faulty(_ kind: FaultConfiguration.Kind, times: Int = 0) -> (inout SandboxConfiguration) -> Void {
        { configuration in
            configuration.faults.kind = kind
            configuration.faults.rate = 1
            configuration.faults.scope = .all
            configuration.faults.times = times
            configuration.faults.slowHeadersDelay = .seconds(3)
        }
    }

    @Test func stallSendsTheHeadThenNoBodyUntilTheClientGivesUp() async throws {
        try await withSandbox(faulty(.stall)) { server, _ in
            let path = server.catalog.photo(at: 0).imagePath(.q)
            let exchange = try await rawExchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n", quiet: 0.3)
            #expect(exchange.statusLine == "HTTP/1.1 200 OK")
            #expect((exchange.contentLength ?? 0) > 0)
            #expect(exchange.body.isEmpty)
            #expect(!exchange.closedByServer)
            try await eventually("the abandoned response was counted") { server.stats().abortedResponses == 1 }
            try await settled(server)
            #expect(server.stats().faultsInjected == 1)
            #expect(server.requestLog().last?.aborted == true)
            #expect(server.requestLog().last?.bytesSent == 0)
        }
    }

    @Test func stalledRESTCallTimesOutInAnHTTPClient() async throws {
        var network = NetworkManager.Configuration()
        network.idleTimeout = .milliseconds(500)
        try await withSandboxSession(network: network, configure: faulty(.stall)) { server, client in
            await #expect(throws: NetworkError.self) {
                try await client.get(server.jsonCall("flickr.test.echo"))
            }
            // The client gave up; the server notices the closed connection a moment later.
            try await eventually("the abandoned response was counted") { server.stats().abortedResponses == 1 }
            try await settled(server)
            #expect(server.stats().abortedResponses == 1)
        }
    }

    @Test func stalledResponsesEndAtShutdown() async throws {
        var configuration = SandboxConfiguration()
        configuration.photoCount = 500
        faulty(.stall)(&configuration)
        let server = try await SandboxServer.start(configuration)
        let path = server.catalog.photo(at: 0).imagePath(.t)
        let clients = (0..<3).map { _ in
            // Only the shutdown may end these reads: no quiet period a busy machine outlasts.
            Task { try await rawExchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n", quiet: 600) }
        }
        try await eventually("three stalled responses") {
            server.requestLog().filter { $0.status == 200 }.count == 3 && server.stats().inFlight == 3
        }
        await server.shutdown()
        for client in clients {
            let exchange = try await client.value
            #expect(exchange.closedByServer)
            #expect(exchange.body.isEmpty)
        }
        let stats = server.stats()
        #expect(stats.inFlight == 0)
        #expect(stats.abortedResponses == 3)
    }

    @Test func stallHonoursTimes() async throws {
        try await withSandbox(faulty(.stall, times: 1)) { server, network in
            let path = server.catalog.photo(at: 2).imagePath(.q)
            let first = try await rawExchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n", quiet: 0.3)
            #expect(first.body.isEmpty)
            let body = try await network.get(server.imageURL(server.catalog.photo(at: 2), .q)).body
            #expect(jpegDimensions(body)?.width == 150)
        }
    }

    @Test func slowHeadersDelaysTheStatusLineThenAnswersWhole() async throws {
        try await withSandbox({ configuration in
            self.faulty(.slowHeaders)(&configuration)
            configuration.faults.slowHeadersDelay = .milliseconds(400)
        }) { server, network in
            let clock = ContinuousClock()
            let started = clock.now
            let photo = server.catalog.photo(at: 3)
            let body = try await network.get(server.imageURL(photo, .n)).body
            #expect(started.duration(to: clock.now) >= .milliseconds(400))
            #expect(jpegDimensions(body).map { [$0.width, $0.height] } == [photo.dimensions(.n).width, photo.dimensions(.n).height])
            let response = try await network.json(server.jsonCall("flickr.test.echo"))
            #expect(response["stat"] as? String == "ok")
            try await settled(server)
            #expect(server.stats().faultsInjected == 2)
            #expect(server.stats().abortedResponses == 0)
        }
    }

    @Test func clientLeavingDuringSlowHeadersIsCountedAsAborted() async throws {
        // A delay no busy machine outlasts: with 3 s, a CI run that took longer
        // than that to get from the count to `close` saw the response sent
        // whole, and never counted as aborted.
        try await withSandbox({ configuration in
            self.faulty(.slowHeaders)(&configuration)
            configuration.faults.slowHeadersDelay = .seconds(600)
        }) { server, _ in
            let path = server.catalog.photo(at: 4).imagePath(.q)
            // Leaves while the headers are held (nothing has arrived), but only
            // once the server holds the response and watches for departures
            // (the fault is counted then): a client that leaves earlier is
            // only a half-close to the server, which Hummingbird allows, and
            // then nothing tells it the client left. Waiting for that, not for
            // a fixed time, keeps a busy machine from making this a race.
            let socket = try connectedLoopbackSocket(port: server.port, sending: "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            try await eventually("the server holding the response") { server.stats().faultsInjected == 1 }
            #expect(server.stats().abortedResponses == 0)
            close(socket)
            try await eventually("the abandoned response was counted") { server.stats().abortedResponses == 1 }
            try await settled(server)
        }
    }

    @Test func slowHeadersDoNotHoldUpShutdown() async throws {
        var configuration = SandboxConfiguration()
        configuration.photoCount = 500
        faulty(.slowHeaders)(&configuration)
        configuration.faults.slowHeadersDelay = .seconds(600)
        let server = try await SandboxServer.start(configuration)
        let path = server.catalog.photo(at: 0).imagePath(.t)
        let client = Task { try await rawExchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n", quiet: 600) }
        try await eventually("the request arrived") { server.stats().inFlight == 1 }
        await server.shutdown()
        _ = await client.result
        #expect(server.stats().inFlight == 0)
    }
}
