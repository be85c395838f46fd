import NIOHTTPCompression
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The one place that performs HTTP.
///
/// Built on AsyncHTTPClient: one pooled client per process, HTTP/1 keep-alive,
/// and cancellation that aborts the transfer. Cancelling the calling `Task`
/// closes the connection mid-body; the server sees the client go away.
public final class NetworkManager: Sendable {
    public struct Configuration: Sendable {
        /// Time to establish a connection (TCP and TLS).
        public var connectTimeout: Duration = .seconds(10)
        /// Longest silence once the request is sent: waiting for the response
        /// head, or between two pieces of the body. Ends in `.stalled`. Also
        /// the longest a piece of a streamed body waits for the connection to
        /// take it: a server that stopped reading fails the send as fast.
        public var idleTimeout: Duration = .seconds(5)
        /// Whole-request deadline.
        public var requestTimeout: Duration = .seconds(60)
        /// Longest wait for the answer once a streamed body (an upload) has
        /// gone out: the server may process a large photo for tens of seconds
        /// before it says a word. Sending itself still stalls after `idleTimeout`.
        public var answerTimeout: Duration = .seconds(120)
        /// Connections kept per host; image downloads use up to this many at once.
        public var connectionsPerHost: Int = 8
        /// `flickr/VERSION (+URL)`: every request names the app and its project.
        public var userAgent: String = AppIdentity.userAgent

        public init() {}
    }

    /// What came back from a successful (2xx) exchange.
    public struct Response: Sendable {
        public var status: Int
        public var contentType: String?
        /// The `Retry-After` header as sent (only kept when error bodies are).
        public var retryAfter: String?
        public var body: Data

        public init(status: Int, contentType: String? = nil, retryAfter: String? = nil, body: Data) {
            self.status = status
            self.contentType = contentType
            self.retryAfter = retryAfter
            self.body = body
        }
    }

    /// Called as bytes arrive: bytes so far, and the length the server
    /// announced (nil when it did not).
    public typealias Progress = @Sendable (_ received: Int, _ expected: Int?) -> Void

    let client: HTTPClient
    /// For streamed bodies only: the same, but its idle read timer (which
    /// starts after the last byte is sent) is `answerTimeout`.
    let uploadClient: HTTPClient
    let configuration: Configuration
    let logger: Logger

    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "flickr.network")) {
        self.client = Self.makeClient(configuration, idleRead: configuration.idleTimeout)
        // An upload is never redirected: a 307 would send the photo, and
        // trust the answer of, whatever host it names.
        self.uploadClient = Self.makeClient(configuration, idleRead: configuration.answerTimeout, redirects: false)
        self.configuration = configuration
        // The transport's debug and trace lines quote request URLs and
        // bodies, which carry API keys: it never logs below `info`.
        var transportLogger = logger
        transportLogger.logLevel = max(logger.logLevel, .info)
        self.logger = transportLogger
    }

    /// A client whose read timeout is `idleRead` (AsyncHTTPClient has one per client, not per request).
    private static func makeClient(_ configuration: Configuration, idleRead: Duration, redirects: Bool = true) -> HTTPClient {
        var config = HTTPClient.Configuration()
        config.timeout = .init(
            connect: .nanoseconds(Int64(configuration.connectTimeout.nanoseconds)),
            read: .nanoseconds(Int64(idleRead.nanoseconds)))
        config.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = configuration.connectionsPerHost
        // Fail fast on "connection refused" instead of retrying until the deadline.
        config.connectionPool.retryConnectionEstablishment = false
        config.redirectConfiguration = redirects ? .follow(max: 5, allowCycles: false) : .disallow
        // A cap on what a body may grow to, not on its ratio: a page of
        // repetitive JSON (a long title, many alike photos) compresses far
        // past 20:1 and is still an honest answer; 64 MB still stops a bomb.
        config.decompression = .enabled(limit: .size(64 << 20))
        return HTTPClient(eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: config)
    }

    /// Connections kept per host: requests beyond that wait inside the client.
    public var connectionsPerHost: Int { configuration.connectionsPerHost }

    /// GETs `url` and returns the whole body.
    ///
    /// - Throws: `NetworkError` (never the transport's own errors). A non-2xx
    ///   status throws `.httpStatus`, or `.retryLater` for 429 and for a 5xx
    ///   that came with `Retry-After`. Silence longer than `idleTimeout`
    ///   (before the head or mid-body) throws `.stalled`. Cancellation of
    ///   the calling task throws `.cancelled` after the transfer was aborted.
    ///   With `errorBodies`, a non-2xx answer is returned whole instead (its
    ///   status, `Retry-After` and body), for APIs that explain errors in it.
    public func get(
        _ url: URL,
        headers: [(String, String)] = [],
        maxBytes: Int = 64 << 20,
        errorBodies: Bool = false,
        progress: Progress? = nil
    ) async throws(NetworkError) -> Response {
        let hostLabel = try Self.hostLabel(of: url)

        var fields = HTTPHeaders([("User-Agent", configuration.userAgent)])
        for (name, value) in headers { fields.add(name: name, value: value) }

        do {
            if Task.isCancelled { throw NetworkError.cancelled }
            let request = try HTTPClient.Request(url: url.absoluteString, method: .GET, headers: fields)
            let collector = ResponseCollector(
                host: hostLabel, maxBytes: maxBytes, keepsErrorBodies: errorBodies, progress: progress)
            return try await execute(request, on: client, collector: collector, within: configuration.requestTimeout)
        } catch {
            throw Self.classify(error, host: hostLabel)
        }
    }

    /// The host as messages name it (with its port), once `url` is one this
    /// client fetches: http or https, with a host.
    static func hostLabel(of url: URL) throws(NetworkError) -> String {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidURL("only http and https URLs can be fetched")
        }
        guard let host = url.host, !host.isEmpty else { throw .invalidURL("the URL has no host") }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// Runs `request` on `client` until `timeout` has passed, aborting the
    /// transfer when the calling task is cancelled.
    func execute(
        _ request: HTTPClient.Request, on client: HTTPClient, collector: ResponseCollector, within timeout: Duration
    ) async throws -> Response {
        let parts = timeout.components
        let deadline = NIODeadline.now() + .seconds(parts.seconds) + .nanoseconds(parts.attoseconds / 1_000_000_000)
        let task = client.execute(request: request, delegate: collector, deadline: deadline, logger: logger)
        return try await withTaskCancellationHandler {
            try await task.futureResult.get()
        } onCancel: {
            task.cancel()
        }
    }

    /// Closes pooled connections. Call once, before the process exits.
    public func shutdown() async {
        try? await client.shutdown()
        try? await uploadClient.shutdown()
    }

    /// Maps transport errors to `NetworkError`, so no NIO type leaks out.
    static func classify(_ error: any Error, host: String) -> NetworkError {
        if let error = error as? NetworkError { return error }
        if error is CancellationError || Task.isCancelled { return .cancelled }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled, .requestStreamCancelled: return .cancelled
            // The client's read timeout is an idle timer, restarted by every
            // read (configured as `idleTimeout`).
            case .readTimeout: return .stalled(host: host)
            case .connectTimeout, .writeTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout:
                return .timedOut(host: host)
            case .remoteConnectionClosed, .bodyLengthMismatch: return .connectionLost(host: host)
            case .invalidURL, .emptyHost, .emptyScheme: return .invalidURL(error.shortDescription)
            default: return .other(error.shortDescription, host: host)
            }
        }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return .notConnected(host: host)
            }
            let causes = error.connectionErrors.map(\.error)
            if let first = causes.first { return classify(first, host: host) }
            return .notConnected(host: host)
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return .connectionRefused(host: host)
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN, EADDRNOTAVAIL: return .notConnected(host: host)
            case ECONNRESET, EPIPE: return .connectionLost(host: host)
            case ETIMEDOUT: return .timedOut(host: host)
            default: return .other(String(cString: strerror(error.errnoCode)), host: host)
            }
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return .timedOut(host: host)
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return .connectionLost(host: host)
            default: return .other(String(describing: error), host: host)
            }
        }
        if let reason = tlsFailureReason(error) {
            return reason.isEmpty ? .connectionLost(host: host) : .tlsFailure(reason, host: host)
        }
        // A server that closes before the announced length leaves the HTTP
        // parser mid-message: the connection broke, worth a retry.
        if error is HTTPParserError { return .connectionLost(host: host) }
        if error is SocketAddressError { return .notConnected(host: host) }
        if error is NIOConnectionError { return .notConnected(host: host) }
        return .other(String(describing: type(of: error)), host: host)
    }
}

/// Why a TLS error happened, in words; "" for a connection that simply ended
/// without TLS's goodbye (a reset, not a security failure); `nil` when the
/// error is not TLS's.
private func tlsFailureReason(_ error: any Error) -> String? {
    if let error = error as? NIOSSLExtraError {
        if error == .failedToValidateHostname || error == .serverHostnameImpossibleToMatch {
            return "its certificate is for another host name"
        }
        return "the TLS handshake failed (\(error))"
    }
    if let error = error as? BoringSSLError { return handshakeReason(String(describing: error)) }
    guard let error = error as? NIOSSLError else { return nil }
    switch error {
    case .uncleanShutdown: return ""
    case .handshakeFailed(let cause): return handshakeReason(String(describing: cause))
    case .noCertificateToValidate, .unableToValidateCertificate: return "its certificate could not be checked"
    default: return "TLS failed (\(error))"
    }
}

private func handshakeReason(_ detail: String) -> String {
    let lowered = detail.lowercased()
    if lowered.contains("certificate_verify_failed") || lowered.contains("certificate verify failed") {
        return "its certificate is not trusted (expired, self-signed or for another name)"
    }
    if lowered.contains("wrong_version_number") || lowered.contains("http_request") {
        return "it does not speak TLS on that port (is it an http:// address?)"
    }
    return "the TLS handshake failed"
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
