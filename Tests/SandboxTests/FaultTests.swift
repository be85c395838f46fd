import PhotoCore
import Networking
import Foundation
import Sandbox
import Testing

@Suite struct FaultTests {
    private func faulty(_ kind: FaultConfiguration.Kind, scope: FaultConfiguration.Scope = .images,
                        rate: Double = 1, times: Int = 0) -> (inout SandboxConfiguration) -> Void {
        { configuration in
            configuration.faults.kind = kind
            configuration.faults.rate = rate
            configuration.faults.scope = scope
            configuration.faults.times = times
        }
    }

    @Test func statusFaultAnswersTheConfiguredStatus() async throws {
        try await withSandbox({ configuration in
            self.faulty(.status)(&configuration)
            configuration.faults.status = 502
        }) { server, network in
            #expect(await network.status(server.imageURL(server.catalog.photo(at: 0), .q)) == 502)
            #expect(server.stats().faultsInjected == 1)
            #expect(server.requestLog().last?.status == 502)
        }
    }

    @Test func resetFaultAnnouncesTheFullLengthAndClosesHalfway() async throws {
        try await withSandbox(faulty(.reset)) { server, network in
            let path = server.catalog.photo(at: 1).imagePath(.z)
            let raw = try await rawHTTPBytes(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            let (head, body) = try #require(splitResponse(raw))
            let announced = try #require(head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") })
            let length = try #require(Int(announced.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)))
            #expect(body.count == length / 2)
            // An HTTP client sees the body end early (AsyncHTTPClient reports a parser EOF error).
            await #expect(throws: NetworkError.self) {
                try await network.get(server.imageURL(server.catalog.photo(at: 1), .z))
            }
            #expect(server.stats().faultsInjected == 2)
        }
    }

    @Test func truncateFaultSendsHalfTheJPEGWithAMatchingLength() async throws {
        let photo = Catalog(photoCount: 3_000).photo(at: 2)
        let full = try await withSandbox { server, network in
            try await network.get(server.imageURL(photo, .z)).body
        }
        try await withSandbox(faulty(.truncate)) { server, network in
            let body = try await network.get(server.imageURL(photo, .z)).body
            #expect(body.count == full.count / 2)
            #expect(body == full.prefix(full.count / 2))
            #expect(body.suffix(2) != Data([0xFF, 0xD9]))
        }
    }

    @Test func garbageFaultSendsBytesThatAreNoImage() async throws {
        try await withSandbox(faulty(.garbage)) { server, network in
            let response = try await network.get(server.imageURL(server.catalog.photo(at: 3), .q))
            #expect(response.status == 200)
            #expect(!response.body.isEmpty)
            #expect(response.body.prefix(2) != Data([0xFF, 0xD8]))
        }
    }

    @Test func faultyURLFailsOnlyItsFirstTimesRequests() async throws {
        try await withSandbox(faulty(.status, times: 2)) { server, network in
            let url = server.imageURL(server.catalog.photo(at: 4), .q)
            var statuses: [Int?] = []
            for _ in 0..<4 { statuses.append(await network.status(url)) }
            #expect(statuses == [503, 503, 200, 200])
            let other = server.imageURL(server.catalog.photo(at: 5), .q)
            #expect(await network.status(other) == 503)
            #expect(server.stats().faultsInjected == 3)
        }
    }

    @Test func rateChoosesTheSameURLsForTheSameFaultSeed() async throws {
        func faultyIndexes(faultSeed: UInt64) async throws -> [Int] {
            try await withSandbox({ configuration in
                self.faulty(.status, rate: 0.5)(&configuration)
                configuration.faults.seed = faultSeed
            }) { server, network in
                var failing: [Int] = []
                for index in 0..<40 where await network.status(server.imageURL(server.catalog.photo(at: index), .q)) != 200 {
                    failing.append(index)
                }
                return failing
            }
        }
        let first = try await faultyIndexes(faultSeed: 9)
        #expect(try await faultyIndexes(faultSeed: 9) == first)
        #expect(try await faultyIndexes(faultSeed: 10) != first)
        #expect((5...35).contains(first.count))
    }

    @Test func scopeSelectsWhichResponsesFail() async throws {
        try await withSandbox(faulty(.status, scope: .rest)) { server, network in
            #expect(await network.status(server.jsonCall("flickr.test.echo")) == 503)
            #expect(await network.status(server.imageURL(server.catalog.photo(at: 0), .q)) == 200)
        }
        try await withSandbox(faulty(.garbage, scope: .images)) { server, network in
            let response = try await network.json(server.jsonCall("flickr.test.echo"))
            #expect(response["stat"] as? String == "ok")
        }
        try await withSandbox(faulty(.status, scope: .all)) { server, network in
            #expect(await network.status(server.jsonCall("flickr.test.echo")) == 503)
            #expect(await network.status(server.imageURL(server.catalog.photo(at: 0), .q)) == 503)
        }
    }

    @Test func notFoundImagesAreNotFaulted() async throws {
        try await withSandbox(faulty(.status)) { server, network in
            let photo = server.catalog.photo(at: 0)
            let url = try #require(URL(string: server.baseURL.absoluteString + "/\(photo.server)/\(photo.id)_ffffffffff_q.jpg"))
            #expect(await network.status(url) == 404)
            #expect(server.stats().faultsInjected == 0)
        }
    }
}
