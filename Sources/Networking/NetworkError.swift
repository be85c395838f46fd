import Foundation

/// Why an HTTP exchange failed, in words a person can act on.
///
/// Messages name the host, never the full URL: request URLs carry the API key.
public enum NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No route to the host: DNS failed or the network is down.
    case notConnected(host: String)
    /// Something answered, but nothing listens on that port.
    case connectionRefused(host: String)
    /// No connection, or no complete answer, within the time allowed.
    case timedOut(host: String)
    /// The server went quiet: no response head, or no more body bytes, for
    /// longer than the idle timeout.
    case stalled(host: String)
    /// The server answered with a status outside 200–299.
    case httpStatus(Int, host: String)
    /// The server is overloaded or rate-limiting (HTTP 429, or a 5xx with
    /// `Retry-After`), and said how long to wait when it did.
    case retryLater(status: Int, after: Duration?, host: String)
    /// The secure connection could not be set up; the text says why.
    case tlsFailure(String, host: String)
    /// The connection broke mid-response.
    case connectionLost(host: String)
    /// The body exceeded the limit the caller set.
    case responseTooLarge(limit: Int, host: String)
    /// The caller cancelled; the transfer was aborted.
    case cancelled
    /// The URL cannot be fetched (bad scheme, no host).
    case invalidURL(String)
    /// Anything else the transport reported.
    case other(String, host: String)

    public var description: String {
        switch self {
        case .notConnected(let host):
            "Network unavailable: cannot reach \(host). Check your connection."
        case .connectionRefused(let host):
            "Connection refused by \(host). Is the server running?"
        case .timedOut(let host):
            "\(host) did not answer in time."
        case .stalled(let host):
            "\(host) went quiet: no data arrived for too long, so the request was dropped."
        case .retryLater(let status, let after, let host):
            "\(host) is busy (HTTP \(status)\(Self.reason(status).map { ", \($0)" } ?? ""))\(Self.wait(after))."
        case .tlsFailure(let reason, let host):
            "Could not make a secure connection to \(host): \(reason)."
        case .httpStatus(let status, let host):
            "\(host) answered HTTP \(status)\(Self.reason(status).map { " (\($0))" } ?? "")."
        case .connectionLost(let host):
            "The connection to \(host) broke before the response was complete."
        case .responseTooLarge(let limit, let host):
            "\(host) sent more than \(limit) bytes."
        case .cancelled:
            "Cancelled."
        case .invalidURL(let reason):
            "Invalid URL: \(reason)."
        case .other(let message, let host):
            "Request to \(host) failed: \(message)"
        }
    }

    /// Worth another try: server errors, rate limits, resets, time-outs and
    /// stalls. Client errors (4xx), refusals, TLS failures and cancellation
    /// are not.
    public var isTransient: Bool {
        switch self {
        case .httpStatus(let status, _): status >= 500 || status == 429 || status == 408
        case .timedOut, .stalled, .retryLater, .connectionLost: true
        case .notConnected, .connectionRefused, .tlsFailure, .responseTooLarge, .cancelled, .invalidURL, .other: false
        }
    }

    /// The network itself is unavailable (as opposed to one server misbehaving).
    public var isOffline: Bool {
        if case .notConnected = self { return true }
        return false
    }

    private static func wait(_ after: Duration?) -> String {
        guard let after else { return "; try again in a little while" }
        let seconds = ServerWait.wholeSeconds(after)
        if seconds < 2 { return "; try again in a moment" }
        if seconds < 120 { return "; try again in \(seconds) seconds" }
        if after > ServerWait.longestNamed { return "; try again in more than a day" }
        return "; try again in about \(ServerWait.phrase(after))"
    }

    private static func reason(_ status: Int) -> String? {
        switch status {
        case 400: "bad request"
        case 401: "unauthorised"
        case 403: "forbidden"
        case 404: "not found"
        case 429: "too many requests"
        case 500: "server error"
        case 502: "bad gateway"
        case 503: "service unavailable"
        case 504: "gateway timeout"
        default: nil
        }
    }
}

extension NetworkError {
    /// A copy whose free text has the redactor's secrets replaced.
    public func redacting(_ redactor: SecretRedactor) -> NetworkError {
        switch self {
        case .other(let message, let host): .other(redactor.redact(message), host: redactor.redact(host))
        case .invalidURL(let reason): .invalidURL(redactor.redact(reason))
        case .tlsFailure(let reason, let host): .tlsFailure(redactor.redact(reason), host: redactor.redact(host))
        default: self
        }
    }
}
