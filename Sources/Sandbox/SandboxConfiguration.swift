/// How a sandbox server behaves. The defaults give a fast, well-behaved
/// server on a free loopback port.
public struct SandboxConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port; `SandboxServer.port` tells which.
    public var port = 0
    /// Delay before every response (REST and images, not `/sandbox/*`).
    public var latency: Duration = .zero
    /// Per-response send rate limit in KiB/s; bodies then go out in small
    /// paced chunks, so a client can cancel mid-body.
    public var throttleKBps: Int? = nil
    /// One bandwidth in KiB/s shared by every response in flight, like a
    /// slow real line (with `latency`, its round trip); nil: unlimited.
    public var linkKBps: Int? = nil
    public var photoCount = 20_000
    public var seed: UInt64 = 1
    /// nil: any non-empty key is valid.
    public var requiredAPIKey: String? = nil
    /// The consumer secret OAuth signatures use; nil: `sandbox-secret`.
    public var flickrAPISecret: String? = nil
    /// The Shutterstock client id and secret `/v2/*` accepts (as Basic
    /// credentials, or exchanged for a Bearer token); nil: any non-empty
    /// pair, and any non-empty Bearer token.
    public var shutterstockCredentials: ShutterstockClientCredentials? = nil
    /// The client id and secret Openverse's token endpoint accepts; nil: any non-empty pair.
    public var openverseCredentials: OpenverseClientCredentials? = nil
    public var faults = FaultConfiguration()

    public init() {}
}

/// Deliberate failures, chosen deterministically: a URL is faulty when the
/// hash of the fault seed and its key falls under `rate`. The key is the
/// path for images; for Flickr REST calls it is the path with the call's
/// parameters (query and form body, as every call shares one path), for
/// Shutterstock calls the path with its query, in both cases without
/// credentials and OAuth values (nonces and timestamps change every call).
/// The `rest` scope covers the Shutterstock `/v2/*` and Openverse `/v1/*`
/// API endpoints too; Openverse's thumbnails and full-size images are images.
public struct FaultConfiguration: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// HTTP `status` with a short text body.
        case status
        /// Announces the full length, sends half, closes the connection.
        case reset
        /// 200 with the first half of the body (Content-Length matches), a broken JPEG.
        case truncate
        /// 200 with bytes that are no image (or no JSON).
        case garbage
        /// Status line and headers (with the full length), then silence: no
        /// body byte, the connection held open until the client gives up or
        /// the server shuts down.
        case stall
        /// Waits `slowHeadersDelay` before the status line, then answers normally.
        case slowHeaders = "slow-headers"
        /// The API's own outage answer: Flickr's `stat="fail"` code 105
        /// "Service currently unavailable" (HTTP 200, in the call's format),
        /// Shutterstock's and Openverse's HTTP 503 with a JSON message. Images get `status`.
        case apiError = "api-error"
        /// Answers valid on the wire and hostile in meaning, drawn from
        /// `hostileCases` (see `HostileCase`).
        case hostile
    }

    public enum Scope: String, Sendable, CaseIterable {
        case images, rest, all
    }

    /// Fraction of URLs that are faulty, 0...1.
    public var rate: Double = 0
    public var kind: Kind = .status
    public var status = 503
    /// How long the `slow-headers` fault holds back the status line.
    public var slowHeadersDelay: Duration = .seconds(10)
    /// A faulty URL fails on its first `times` requests, then works; 0 = always.
    public var times = 0
    public var seed: UInt64 = 1
    public var scope: Scope = .images
    /// The cases the `hostile` fault draws from; each faulty URL gets one
    /// that applies to it (an API answer or an image), or none.
    public var hostileCases: [HostileCase] = HostileCase.allCases

    public init() {}
}
