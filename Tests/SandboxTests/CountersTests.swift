import PhotoCore
import Foundation
import NIOConcurrencyHelpers
import Sandbox
import Testing
import TestSupport

@Suite struct CountersTests {
    @Test func countsRestAndImageRequestsAndImageBytes() async throws {
        try await withSandbox { server, network in
            _ = try await network.get(server.jsonCall("flickr.photos.getRecent", ["per_page": "3"]))
            _ = try await network.get(server.jsonCall("flickr.test.echo"))
            var bytes = 0
            for index in 0..<3 {
                bytes += try await network.get(server.imageURL(server.catalog.photo(at: index), .q)).body.count
            }
            try await settled(server)
            let stats = server.stats()
            #expect(stats.restRequests == 2)
            #expect(stats.imageRequests == 3)
            #expect(stats.imageBytes == bytes)
            #expect(stats.abortedResponses == 0)
            #expect(stats.faultsInjected == 0)
        }
    }

    @Test func statsEndpointUsesContractNamesAndIsNotCounted() async throws {
        try await withSandbox { server, network in
            _ = try await network.get(server.imageURL(server.catalog.photo(at: 0), .t))
            try await settled(server)
            let json = try await network.json(server.baseURL.appendingPathComponent("sandbox/stats"))
            for key in ["rest_requests", "image_requests", "image_bytes", "aborted_responses", "in_flight", "faults_injected"] {
                #expect(json[key] is Int, "\(key)")
            }
            #expect(json["image_requests"] as? Int == 1)
            #expect(json["in_flight"] as? Int == 0)
            #expect(json["rest_requests"] as? Int == 0)
        }
    }

    @Test func resetZeroesCountersAndLog() async throws {
        try await withSandbox { server, network in
            _ = try await network.get(server.jsonCall("flickr.test.echo"))
            _ = try await network.get(server.imageURL(server.catalog.photo(at: 0), .q))
            try await settled(server)
            let answer = try await rawHTTP(port: server.port, "POST /sandbox/reset HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(server.stats() == SandboxStats())
            #expect(server.requestLog().isEmpty)
        }
    }

    @Test func resetOverHTTPNeedsPost() async throws {
        try await withSandbox { server, network in
            _ = try await network.get(server.jsonCall("flickr.test.echo"))
            let url = server.baseURL.appendingPathComponent("sandbox/reset")
            #expect(await network.status(url) == 405)
            #expect(server.stats().restRequests == 1)
        }
    }

    @Test func logListsRequestsInArrivalOrderWithoutTheKey() async throws {
        try await withSandbox { server, network in
            let photo = server.catalog.photo(at: 0)
            _ = try await network.get(server.jsonCall("flickr.test.echo", ["api_key": "secret-key"]))
            _ = try await network.get(server.imageURL(photo, .q))
            _ = await network.status(server.baseURL.appendingPathComponent("missing"))
            try await settled(server)
            let log = server.requestLog()
            #expect(log.map(\.kind) == ["rest", "image", "other"])
            #expect(log.map(\.status) == [200, 200, 404])
            #expect(log.allSatisfy { !$0.path.contains("secret-key") && $0.endedAt != nil })
            // The client stops reading an error answer at its head, so the
            // 404 may or may not count as aborted, by how fast the server wrote.
            #expect(log.prefix(2).allSatisfy { !$0.aborted })
            #expect(log[1].path == photo.imagePath(.q))
            #expect(log[0].path.contains("method=flickr.test.echo"))
            let overHTTP = try await network.get(server.baseURL.appendingPathComponent("sandbox/log")).body
            #expect(try JSONDecoder().decode([SandboxRequestRecord].self, from: overHTTP) == log)
        }
    }

    @Test func latencyDelaysEveryResponse() async throws {
        try await withSandbox { $0.latency = .milliseconds(300) } _: { server, network in
            let clock = ContinuousClock()
            let started = clock.now
            _ = try await network.get(server.imageURL(server.catalog.photo(at: 0), .sq))
            _ = try await network.get(server.jsonCall("flickr.test.echo"))
            #expect(started.duration(to: clock.now) >= .milliseconds(600))
            try await settled(server)
            for record in server.requestLog() {
                #expect((record.endedAt ?? 0) - record.startedAt >= 0.3)
            }
        }
    }

    @Test func clientCancellingMidBodyCountsAsAbortedAndLeavesNothingInFlight() async throws {
        // 1 KiB/s: the ~25 KB body is still arriving when the cancel comes.
        try await withSandbox { $0.throttleKBps = 1 } _: { server, network in
            let url = server.imageURL(server.catalog.photo(at: 0), .l)
            let announced = NIOLockedValueBox<Int?>(nil)
            let download = Task {
                try await network.get(url, progress: { _, expected in announced.withLockedValue { $0 = expected } })
            }
            try await eventually("the image transfer started") {
                server.stats().imageBytes > 0 && announced.withLockedValue { $0 } != nil
            }
            #expect(server.stats().inFlight == 1)
            download.cancel()
            _ = await download.result
            try await eventually("the abort was counted") { server.stats().abortedResponses == 1 }
            try await eventually("nothing in flight") { server.stats().inFlight == 0 }
            let stats = server.stats()
            #expect(stats.lastAbortAt != nil)
            let record = try #require(server.requestLog().last)
            #expect(record.aborted)
            #expect(record.bytesSent > 0)
            // The announced length, not a second throttled download.
            let full = try #require(announced.withLockedValue { $0 })
            #expect(record.bytesSent < full)
        }
    }

    @Test func throttledTransferCompletesWhole() async throws {
        try await withSandbox { $0.throttleKBps = 200 } _: { server, network in
            let photo = server.catalog.photo(at: 9)
            let body = try await network.get(server.imageURL(photo, .n)).body
            try await settled(server)
            let dimensions = try #require(jpegDimensions(body))
            #expect(dimensions == photo.dimensions(.n))
            #expect(server.stats().abortedResponses == 0)
            #expect(server.stats().imageBytes == body.count)
        }
    }
}

/// Waits until every response the server started has ended (bytes and end
/// times are recorded just after the last byte is handed over, which can be
/// a moment after the client has it).
func settled(_ server: SandboxServer) async throws {
    try await eventually("no response in flight") { server.stats().inFlight == 0 }
}
