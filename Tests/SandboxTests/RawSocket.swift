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
func rawExchange(port: Int, _ request: String, quiet: Double, headTimeout: Double = 20) async throws -> RawExchange {
    try await onOwnThread {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("socket() failed") }
        defer { close(socket) }
        func setTimeout(_ seconds: Double) {
            var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("connect() failed") }
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw TestFailure("send() failed") }

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
