import Foundation
import Testing
@testable import FlickrKit
@testable import FlickrService
@testable import Networking
import Sandbox
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real sandbox on a free loopback port, a `NetworkManager` and a provider
/// pointed at it; both are shut down however the body ends.
func withSandbox<T>(
    apiKey: String = "sandbox",
    network networkConfiguration: NetworkManager.Configuration = .init(),
    retry: RetryPolicy = .quick,
    configure: (inout SandboxConfiguration) -> Void = { _ in },
    _ body: (SandboxServer, FlickrProvider, NetworkManager) async throws -> T
) async throws -> T {
    try await withSandboxSession(photoCount: 5_000, network: networkConfiguration, configure: configure) { server, network in
        let provider = FlickrProvider(
            apiKey: apiKey, endpoint: server.restURL, imageHost: server.baseURL, network: network, displayName: "sandbox",
            retryPolicy: retry)
        return try await body(server, provider, network)
    }
}

extension RetryPolicy {
    /// The usual four tries with millisecond waits, so tests that meet
    /// transient failures do not sit through real backoff.
    static let quick = RetryPolicy(baseDelay: .milliseconds(2), maxDelay: .milliseconds(10))
}

/// A loopback port that was just bound and closed, so nothing listens on it.
func closedLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    try #require(bound == 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    try #require(named == 0)
    return Int(UInt16(bigEndian: address.sin_port))
}
