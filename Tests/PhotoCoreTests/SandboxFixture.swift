import Foundation
import Testing
@testable import PhotoCore
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

