import PhotoCore
import Foundation
import Networking

/// Why a Shutterstock call failed, worded so a person knows what to do next.
///
/// Server text (`serverMessage`) is already cut to a few hundred characters
/// with control characters removed, and scrubbed of the credentials; the view
/// still sanitises it for the terminal. No case ever holds a credential.
public enum ShutterstockError: ProviderError, Sendable, Equatable {
    /// The credentials in the environment are incomplete or empty.
    case credentials(String)
    /// HTTP 401: the token, or the key and secret, were refused (or missing).
    case unauthorized(serverMessage: String?)
    /// HTTP 403: the account may not use this call.
    case forbidden(serverMessage: String?)
    /// HTTP 429: too many requests; `retryAfter` is the server's `Retry-After`.
    case rateLimited(retryAfter: Duration?, serverMessage: String?)
    /// HTTP 5xx: Shutterstock had a problem; worth another try later.
    case serverError(status: Int, serverMessage: String?)
    /// Any other non-2xx answer (400 bad parameters, 404 wrong address, …).
    case rejected(status: Int, serverMessage: String?)
    /// The answer was not a search result; the text says what was wrong.
    case malformedResponse(String)
    /// The request never got a usable answer.
    case network(NetworkError)
    /// The request was refused before it was sent (empty query, page out of range, bad address).
    case invalidRequest(String)

    /// The longest piece of server text a message quotes.
    static let serverMessageLimit = 200

    public var description: String {
        switch self {
        case .credentials(let reason):
            return reason
        case .unauthorized(let message):
            return "Shutterstock refused the credentials (HTTP 401\(Self.quote(message))). Set \(ShutterstockCredentials.tokenVariable) to a valid API token, or \(ShutterstockCredentials.keyVariable) and \(ShutterstockCredentials.secretVariable) to your app's consumer key and secret."
        case .forbidden(let message):
            return "Shutterstock does not allow this account to search images (HTTP 403\(Self.quote(message))). Check the app's products and permissions on Shutterstock's developer site."
        case .rateLimited(let retryAfter, let message):
            let wait = retryAfter.map { "Try again in \(Self.wait($0))." } ?? "Wait a moment and try again."
            return "Shutterstock is limiting how fast this app may ask (HTTP 429\(Self.quote(message))). \(wait)"
        case .serverError(let status, let message):
            return "Shutterstock had a problem answering (HTTP \(status)\(Self.quote(message))). Try again in a few minutes."
        case .rejected(404, let message):
            return "Shutterstock has no such address (HTTP 404\(Self.quote(message))). Check that --api-url (or SHUTTERSTOCK_API_URL) is the API's base URL, such as https://api.shutterstock.com."
        case .rejected(400, let message):
            return "Shutterstock refused the search as invalid (HTTP 400\(Self.quote(message)))."
        case .rejected(let status, let message):
            return "Shutterstock refused the request (HTTP \(status)\(Self.quote(message)))."
        case .malformedResponse(let reason):
            return "Shutterstock's answer could not be read: \(reason)"
        case .network(let error):
            return error.description
        case .invalidRequest(let reason):
            return reason
        }
    }

    /// Worth another try later: transient network failures, rate limits and
    /// server errors.
    public var isTransient: Bool {
        switch self {
        case .network(let error): error.isTransient
        case .rateLimited, .serverError: true
        case .rejected(let status, _): status == 408
        case .credentials, .unauthorized, .forbidden, .malformedResponse, .invalidRequest: false
        }
    }

    /// The network itself is down, so retrying now is pointless.
    public var isOffline: Bool {
        if case .network(let error) = self { return error.isOffline }
        return false
    }

    /// How long the server asked us to wait, when it said.
    public var retryAfter: Duration? {
        if case .rateLimited(let retryAfter, _) = self { return retryAfter }
        return nil
    }

    private static func quote(_ message: String?) -> String {
        guard let message, !message.isEmpty else { return "" }
        return ": “\(message)”"
    }

    private static func wait(_ duration: Duration) -> String {
        ServerWait.phrase(duration)
    }
}

// MARK: - From an HTTP answer

extension ShutterstockError {
    /// The error for a non-2xx answer: the status decides the case; the body
    /// (JSON `{"message"}` or `{"errors": […]}`, or an HTML page) supplies
    /// the server's words, and `Retry-After` the wait for a 429.
    static func http(
        status: Int, contentType: String? = nil, retryAfter: String? = nil, body: Data? = nil,
        redacting secrets: [String] = [], now: Date = Date()
    ) -> ShutterstockError {
        let message = body.flatMap {
            ShutterstockResponseDecoder.serverMessage(in: $0, contentType: contentType, redacting: secrets)
        }
        switch status {
        case 401: return .unauthorized(serverMessage: message)
        case 403: return .forbidden(serverMessage: message)
        case 429: return .rateLimited(retryAfter: retryAfter.flatMap { RetryPolicy.retryAfter($0, now: now) }, serverMessage: message)
        case 500...599: return .serverError(status: status, serverMessage: message)
        default: return .rejected(status: status, serverMessage: message)
        }
    }

    /// A copy with every credential form replaced, so a server that echoes
    /// the request cannot leak them.
    func redacting(_ secrets: [String]) -> ShutterstockError {
        func clean(_ text: String) -> String {
            SecretRedactor(secrets: secrets).redact(text)
        }
        switch self {
        case .credentials(let reason): return .credentials(clean(reason))
        case .unauthorized(let message): return .unauthorized(serverMessage: message.map(clean))
        case .forbidden(let message): return .forbidden(serverMessage: message.map(clean))
        case .rateLimited(let wait, let message): return .rateLimited(retryAfter: wait, serverMessage: message.map(clean))
        case .serverError(let status, let message): return .serverError(status: status, serverMessage: message.map(clean))
        case .rejected(let status, let message): return .rejected(status: status, serverMessage: message.map(clean))
        case .malformedResponse(let reason): return .malformedResponse(clean(reason))
        case .invalidRequest(let reason): return .invalidRequest(clean(reason))
        case .network(.other(let message, let host)): return .network(.other(clean(message), host: host))
        case .network(.invalidURL(let reason)): return .network(.invalidURL(clean(reason)))
        case .network: return self
        }
    }
}
