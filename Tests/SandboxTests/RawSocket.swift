import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a raw client saw: the response head, the body bytes that followed
/// it, and whether the server closed the connection.
struct RawExchange {
    var head: String
    var body: [UInt8]
    var closedByServer: Bool

    var statusLine: String { String(head.split(separator: "\r\n").first ?? "") }

    var contentLength: Int? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }
}

/// Sends `request` over a fresh loopback connection, reads the response head
/// (waiting up to `headTimeout` seconds between bytes), then reads body bytes until the server closes or
/// sends nothing for `quiet` seconds, and closes the socket: a client that
/// gives up.
func rawExchange(port: Int, _ request: String, quiet: Double, headTimeout: Double = 90) async throws -> RawExchange {
    try await onOwnThread {
        let socket = try connectedLoopbackSocket(port: port, sending: request)
        defer { close(socket) }
        func setTimeout(_ seconds: Double) { setReceiveTimeout(socket, seconds: seconds) }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var closed = false
        setTimeout(headTimeout)
        while splitResponse(received) == nil {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { closed = true }
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        guard let (head, early) = splitResponse(received) else {
            throw TestFailure("no response head (\(received.count) bytes, closed: \(closed))")
        }
        var body = Array(early)
        if !closed {
            setTimeout(quiet)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count == 0 { closed = true }
                guard count > 0 else { break }
                body.append(contentsOf: buffer[0..<count])
            }
        }
        return RawExchange(head: head, body: body, closedByServer: closed)
    }
}

/// Runs blocking work (socket reads that wait seconds) on a thread of its
/// own: on the few threads of Swift's cooperative pool it would starve the
/// servers under test.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.start()
    }
}
