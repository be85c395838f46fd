import PhotoCore
import Networking
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Sandbox
import TestSupport

/// A started sandbox (3,000 photos) plus an HTTP client, shut down after the test body.
func withSandbox<T>(
    _ configure: (inout SandboxConfiguration) -> Void = { _ in },
    _ body: (SandboxServer, NetworkManager) async throws -> T
) async throws -> T {
    try await withSandboxSession(configure: configure, body)
}

extension SandboxServer {
    /// `/services/rest/?…` with the given parameters.
    func rest(_ parameters: [String: String]) -> URL {
        var components = URLComponents(url: restURL, resolvingAgainstBaseURL: false)
        components?.queryItems = parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components?.url ?? restURL
    }

    /// A JSON search (or other method) call's URL with a valid key.
    func jsonCall(_ method: String, _ parameters: [String: String] = [:]) -> URL {
        rest(["method": method, "api_key": "test", "format": "json", "nojsoncallback": "1"].merging(parameters) { $1 })
    }

    func imageURL(_ photo: CatalogPhoto, _ size: SandboxImageSize) -> URL {
        baseURL.appendingPathComponent(String(photo.imagePath(size).dropFirst()))
    }
}

extension NetworkManager {
    /// GETs and parses a JSON object.
    func json(_ url: URL) async throws -> [String: Any] {
        let body = try await get(url).body
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw TestFailure("not a JSON object: \(String(decoding: body, as: UTF8.self))")
        }
        return object
    }

    func text(_ url: URL, headers: [(String, String)] = []) async throws -> String {
        String(decoding: try await get(url, headers: headers).body, as: UTF8.self)
    }

    /// The HTTP status a GET got (2xx or the error's status).
    func status(_ url: URL) async -> Int? {
        do {
            return try await get(url).status
        } catch {
            if case .httpStatus(let status, _) = error { return status }
            return nil
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Width and height from a baseline or progressive JPEG's SOF marker.
func jpegDimensions(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data)
    guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var offset = 2
    while offset + 9 < bytes.count {
        guard bytes[offset] == 0xFF else { return nil }
        let marker = bytes[offset + 1]
        let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
            let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
            let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
            return (width, height)
        }
        offset += 2 + length
    }
    return nil
}

func photos(in response: [String: Any]) -> [[String: Any]] {
    (response["photos"] as? [String: Any])?["photo"] as? [[String: Any]] ?? []
}

func envelope(_ response: [String: Any]) -> [String: Any] {
    response["photos"] as? [String: Any] ?? [:]
}

/// Sends `request` verbatim over a fresh loopback connection and returns
/// everything the server sent until it closed (for checks below HTTP
/// clients: announced length versus bytes received, raw methods).
func rawHTTP(port: Int, _ request: String) async throws -> String {
    String(decoding: try await rawHTTPBytes(port: port, request), as: UTF8.self)
}

/// Like `rawHTTP`, as bytes.
func rawHTTPBytes(port: Int, _ request: String) async throws -> [UInt8] {
    try await onOwnThread {
        let socket = try connectedLoopbackSocket(port: port, sending: request)
        defer { close(socket) }
        setReceiveTimeout(socket, seconds: 90)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return received
    }
}

/// Splits a raw HTTP/1.1 response into its head and body bytes.
func splitResponse(_ raw: [UInt8]) -> (head: String, body: ArraySlice<UInt8>)? {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard raw.count >= 4, let start = (0...(raw.count - 4)).first(where: { Array(raw[$0..<$0 + 4]) == separator }) else {
        return nil
    }
    return (String(decoding: raw[..<start], as: UTF8.self), raw[(start + 4)...])
}

/// A TCP socket connected to 127.0.0.1:`port` that has sent `request`.
/// The caller closes it.
func connectedLoopbackSocket(port: Int, sending request: String) throws -> Int32 {
    // Close-on-exec: a child another test forks meanwhile would otherwise
    // hold this end open past `close`, and the server would not see us leave.
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw TestFailure("socket() failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(socket)
        throw TestFailure("connect() failed")
    }
    let bytes = Array(request.utf8)
    guard send(socket, bytes, bytes.count, 0) == bytes.count else {
        close(socket)
        throw TestFailure("send() failed")
    }
    return socket
}

/// Makes reads on `socket` give up after `seconds` of silence.
func setReceiveTimeout(_ socket: Int32, seconds: Double) {
    var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
}
