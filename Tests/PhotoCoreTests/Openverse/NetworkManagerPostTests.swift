import Foundation
import Testing
import TestSupport
@testable import PhotoCore
@testable import Networking
@testable import OpenverseService

/// `NetworkManager.post`, the form POST the token endpoint needs: the same
/// transport and error mapping as `get`, over real loopback HTTP.
@Suite struct NetworkManagerPostTests {
    @Test func formArrivesEncodedWithItsContentType() async throws {
        try await LoopbackHTTPServer.failing([], then: .text(#"{"ok":true}"#)) { server, network in
            let url = server.baseURL.appendingPathComponent("form")
            let response = try await network.post(url, form: [("a b", "c&d=e+f"), ("é", "")], headers: [("X-Test", "1")])
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
            let seen = try #require(server.requests.first)
            #expect(seen.method == "POST")
            #expect(seen.headers["content-type"] == "application/x-www-form-urlencoded")
            #expect(seen.headers["x-test"] == "1")
            #expect(!(seen.headers["user-agent"] ?? "").isEmpty)
            #expect(String(decoding: seen.body, as: UTF8.self) == "a%20b=c%26d%3De%2Bf&%C3%A9=")
        }
    }

    @Test func errorStatusesMapAsGetsDo() async throws {
        try await LoopbackHTTPServer.failing([], then: .text("nope", status: 400)) { server, network in
            let url = server.baseURL.appendingPathComponent("form")
            await #expect(throws: NetworkError.httpStatus(400, host: "127.0.0.1:\(server.port)")) {
                try await network.post(url, form: [])
            }
            let kept = try await network.post(url, form: [], errorBodies: true)
            #expect(kept.status == 400 && String(decoding: kept.body, as: UTF8.self) == "nope")
        }
    }

    @Test func nothingListeningIsRefusedAndBadURLsAreRefusedBeforeSending() async throws {
        let network = NetworkManager()
        let port = try closedLoopbackPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/token"))
        await #expect(throws: NetworkError.connectionRefused(host: "127.0.0.1:\(port)")) { try await network.post(url, form: [("a", "b")]) }
        let ftp = try #require(URL(string: "ftp://127.0.0.1/token"))
        await #expect(throws: NetworkError.self) { try await network.post(ftp, form: []) }
        await network.shutdown()
    }
}
