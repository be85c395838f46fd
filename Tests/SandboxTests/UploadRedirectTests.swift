import Foundation
import Networking
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An upload is never redirected: a 307 would send the photo again to a
/// host the server names, and the app would trust that host's answer.
@Suite(.timeLimit(.minutes(2))) struct UploadRedirectTests {
    @Test func anUploadAnsweredWithARedirectIsNotSentOn() async throws {
        // Where the redirect points: nothing listens there, so following it
        // would end as "connection refused", not as the 307 itself.
        let elsewhere = try closedLoopbackPort()
        let listener = try SilentListener()
        defer { listener.close() }
        let port = listener.port
        let answering = Task { try await onOwnThread { try Self.answerOnce(listener.socket, with: [
            "HTTP/1.1 307 Temporary Redirect",
            "Location: http://127.0.0.1:\(elsewhere)/services/upload/",
            "Content-Length: 0", "Connection: close", "", "",
        ].joined(separator: "\r\n")) } }
        let network = NetworkManager()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/services/upload/"))
        let result: Result<NetworkManager.Response, NetworkError>
        do {
            result = .success(try await network.post(url, body: .init([.bytes(Array("photo".utf8))]), contentType: "image/jpeg"))
        } catch {
            result = .failure(error)
        }
        await network.shutdown()
        _ = try? await answering.value
        switch result {
        case .failure(.httpStatus(let status, _)):
            #expect(status == 307)
        default:
            Issue.record("expected the redirect itself as the answer, got \(result)")
        }
    }

    /// Accepts one connection, reads its head and body, and sends `answer`.
    private static func answerOnce(_ listener: Int32, with answer: String) throws {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { throw POSIXError(.ECONNABORTED) }
        defer { close(connection) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let length = text[..<end.lowerBound].split(separator: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.distance(from: end.upperBound, to: text.utf8.endIndex) >= length { break }
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        _ = Array(answer.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
    }
}
