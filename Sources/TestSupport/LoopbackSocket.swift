import Foundation

/// A loopback port with nothing listening (bound for the rest of the run), for
/// "connection refused" tests.
public func closedLoopbackPort() throws -> Int {
    // Close-on-exec: a child another test forks meanwhile must not hold it.
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(.EMFILE) }
    // Kept bound, never listening, for the rest of the run: connections to
    // it are refused, and no server another test starts meanwhile can be
    // given the port (closed at once, a full run once saw a sandbox take it).
    var keep = false
    defer { if !keep { close(socket) } }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(socket, $0, length) }
    }
    guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    guard named == 0 else { throw POSIXError(.EINVAL) }
    keep = true
    return Int(UInt16(bigEndian: address.sin_port))
}
