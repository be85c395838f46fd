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
    /// A non-2xx answer: 401, 403, 429 with its wait, 5xx, or another status.
    case http(ServiceHTTPFailure)
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
        case .http(let failure):
            return failure.description(in: Self.words)
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
        case .http(let failure): failure.isTransient
        case .credentials, .malformedResponse, .invalidRequest: false
        }
    }

    /// The network itself is down, so retrying now is pointless.
    public var isOffline: Bool {
        if case .network(let error) = self { return error.isOffline }
        return false
    }

    /// How long the server asked us to wait, when it said.
    public var retryAfter: Duration? {
        if case .http(let failure) = self { return failure.retryAfter }
        return nil
    }

    /// Shutterstock's words for the HTTP failures every service shares.
    static let words = ServiceHTTPWords(
        service: "Shutterstock",
        unauthorized: .init(
            "refused the credentials",
            then: "Set \(ShutterstockCredentials.tokenVariable) to a valid API token, or \(ShutterstockCredentials.keyVariable) and \(ShutterstockCredentials.secretVariable) to your app's consumer key and secret."),
        forbidden: .init(
            "does not allow this account to search images",
            then: "Check the app's products and permissions on Shutterstock's developer site."),
        rateLimited: .init("is limiting how fast this app may ask"),
        waitUnsaid: "Wait a moment and try again.",
        endpointVariable: ShutterstockProvider.baseURLVariable, exampleBaseURL: "https://api.shutterstock.com")
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
        let wait = retryAfter.flatMap { RetryPolicy.retryAfter($0, now: now) }
        return .http(ServiceHTTPFailure(status: status, retryAfter: wait, serverMessage: message))
    }

    /// A copy with every credential form replaced, so a server that echoes
    /// the request cannot leak them.
    func redacting(_ secrets: [String]) -> ShutterstockError {
        let redactor = SecretRedactor(secrets: secrets)
        func clean(_ text: String) -> String {
            redactor.redact(text)
        }
        switch self {
        case .credentials(let reason): return .credentials(clean(reason))
        case .http(let failure): return .http(failure.redacting(redactor))
        case .malformedResponse(let reason): return .malformedResponse(clean(reason))
        case .invalidRequest(let reason): return .invalidRequest(clean(reason))
        case .network(.other(let message, let host)): return .network(.other(clean(message), host: host))
        case .network(.invalidURL(let reason)): return .network(.invalidURL(clean(reason)))
        case .network: return self
        }
    }
}
