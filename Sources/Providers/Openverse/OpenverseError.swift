import PhotoCore
import Foundation
import Networking

/// Why an Openverse call failed, worded so a person knows what to do next.
///
/// Server text (`serverMessage`) is already cut to a few hundred characters,
/// with control characters removed and the credentials scrubbed; the view
/// still sanitises it for the terminal. No case ever holds a credential.
public enum OpenverseError: ProviderError, Sendable, Equatable {
    /// The credentials in the environment are incomplete or empty.
    case credentials(String)
    /// HTTP 401. `anonymous` says no token was sent, which for a search means
    /// the page was larger than anonymous callers may ask for.
    case unauthorized(anonymous: Bool, serverMessage: String?)
    /// The token endpoint refused the client id and secret.
    case tokenRefused(status: Int, serverMessage: String?)
    /// HTTP 400 for a page past the last one this caller may read.
    case pastLastPage(page: Int?, serverMessage: String?)
    /// Any other non-2xx answer: 403, 429 (its wait from `Retry-After`,
    /// else from the detail text), 5xx, or another status.
    case http(ServiceHTTPFailure)
    /// The answer was not what was asked for; the text says what was wrong.
    case malformedResponse(String)
    /// The request never got a usable answer.
    case network(NetworkError)
    /// The request was refused before it was sent.
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .credentials(let reason):
            return reason
        case .unauthorized(true, let message):
            return "Openverse refused the request (HTTP 401\(Self.quote(message))). \(Self.anonymousLimitAdvice)"
        case .unauthorized(false, let message):
            return "Openverse refused the access token (HTTP 401\(Self.quote(message))). Check \(OpenverseCredentials.clientIDVariable) and \(OpenverseCredentials.clientSecretVariable)."
        case .tokenRefused(let status, let message):
            return "Openverse did not issue an access token (HTTP \(status)\(Self.quote(message))). Check \(OpenverseCredentials.clientIDVariable) and \(OpenverseCredentials.clientSecretVariable), and that the app's email address was verified."
        case .pastLastPage(let page, let message):
            let which = page.map { "Page \($0) is" } ?? "That page is"
            return "\(which) past the last page Openverse serves for this search (HTTP 400\(Self.quote(message))). Earlier pages hold all the results there are."
        case .http(let failure):
            return failure.description(in: Self.words)
        case .malformedResponse(let reason):
            return "Openverse's answer could not be read: \(reason)"
        case .network(let error):
            switch error {
            case .notConnected, .connectionRefused, .timedOut:
                // Openverse has no sandbox stand-in of its own: say how to get one.
                return error.description + " Openverse needs the network; to try it offline, run `flickr sandbox --port 8080` and pass `--api-url http://127.0.0.1:8080`."
            default:
                return error.description
            }
        case .invalidRequest(let reason):
            return reason
        }
    }

    static let anonymousLimitAdvice =
        "Openverse allows at most 20 per page without credentials: use --per-page 20 or set \(OpenverseCredentials.clientIDVariable) and \(OpenverseCredentials.clientSecretVariable)."

    static func anonymousPageSizeAdvice(asked: Int) -> String {
        "\(asked) photos per page is too many: \(anonymousLimitAdvice)"
    }

    /// Worth another try later: transient network failures, rate limits and
    /// server errors.
    public var isTransient: Bool {
        switch self {
        case .network(let error): error.isTransient
        case .http(let failure): failure.isTransient
        case .credentials, .unauthorized, .tokenRefused, .pastLastPage, .malformedResponse, .invalidRequest: false
        }
    }

    /// How long the server asked us to wait, when it said.
    public var retryAfter: Duration? {
        if case .http(let failure) = self { return failure.retryAfter }
        return nil
    }

    /// Openverse's words for the HTTP failures every service shares (its
    /// 401 says whether a token was sent, so it has a case of its own).
    static let words = ServiceHTTPWords(
        service: "Openverse",
        unauthorized: .init("refused the request"),
        forbidden: .init("does not allow this request"),
        rateLimited: .init(
            "is limiting how often this app may ask",
            then: "Registered apps (\(OpenverseCredentials.clientIDVariable) and \(OpenverseCredentials.clientSecretVariable)) get higher limits."),
        waitUnsaid: "Wait a while and try again.",
        endpointVariable: OpenverseProvider.baseURLVariable, exampleBaseURL: "https://api.openverse.org")

    /// A 401 that says the token ran out or is no longer known, so a new
    /// token may help (a wrong client id or secret would not).
    var isExpiredToken: Bool {
        guard case .unauthorized(false, let message) = self else { return false }
        let said = (message ?? "").lowercased()
        return said.isEmpty || said.contains("expired") || said.contains("invalid token")
            || said.contains("token is invalid") || said.contains("authentication credentials")
    }

    private static func quote(_ message: String?) -> String {
        ServiceHTTPFailure.quote(message)
    }
}

// MARK: - From an HTTP answer

extension OpenverseError {
    /// The error for a non-2xx answer: the status decides the case; the body
    /// supplies the server's words, and `Retry-After` (else the throttle's
    /// own "available in N seconds") the wait for a 429.
    static func http(
        status: Int, contentType: String? = nil, retryAfter: String? = nil, body: Data? = nil,
        authenticated: Bool = false, page: Int? = nil, redacting secrets: [String] = [], now: Date = Date()
    ) -> OpenverseError {
        let message = body.flatMap { OpenverseErrorBody.message(in: $0, contentType: contentType, redacting: secrets) }
        switch status {
        case 401: return .unauthorized(anonymous: !authenticated, serverMessage: message)
        case 400 where isPastLastPage(message):
            return .pastLastPage(page: page, serverMessage: message)
        default:
            let wait = status == 429
                ? retryAfter.flatMap { RetryPolicy.retryAfter($0, now: now) } ?? OpenverseErrorBody.throttleWait(in: message)
                : nil
            return .http(ServiceHTTPFailure(status: status, retryAfter: wait, serverMessage: message))
        }
    }

    /// DRF's pagination wording ("Invalid page.") and Openverse's own
    /// ("Search result depth of 240 exceeded …", "page: … less than or equal to").
    private static func isPastLastPage(_ message: String?) -> Bool {
        guard let said = message?.lowercased() else { return false }
        return said.contains("invalid page") || said.contains("depth") || said.hasPrefix("page:")
            || said.contains("page out of range") || said.contains("exceed")
    }

    /// A copy with every credential form replaced, so a server that echoes
    /// the request cannot leak them.
    func redacting(_ secrets: [String]) -> OpenverseError {
        guard !secrets.isEmpty else { return self }
        let redactor = SecretRedactor(secrets: secrets)
        let clean = { (text: String) in redactor.redact(text) }
        switch self {
        case .credentials(let reason): return .credentials(clean(reason))
        case .unauthorized(let anonymous, let message): return .unauthorized(anonymous: anonymous, serverMessage: message.map(clean))
        case .tokenRefused(let status, let message): return .tokenRefused(status: status, serverMessage: message.map(clean))
        case .pastLastPage(let page, let message): return .pastLastPage(page: page, serverMessage: message.map(clean))
        case .http(let failure): return .http(failure.redacting(redactor))
        case .malformedResponse(let reason): return .malformedResponse(clean(reason))
        case .invalidRequest(let reason): return .invalidRequest(clean(reason))
        case .network(.other(let message, let host)): return .network(.other(clean(message), host: host))
        case .network(.invalidURL(let reason)): return .network(.invalidURL(clean(reason)))
        case .network: return self
        }
    }

    /// A transport failure in Openverse's terms: a bare status (answers
    /// whose body was not kept) still gets its Openverse sentence.
    static func from(_ error: NetworkError, authenticated: Bool, redacting secrets: [String]) -> OpenverseError {
        switch error {
        case .httpStatus(let status, _):
            return .http(status: status, authenticated: authenticated, redacting: secrets)
        case .retryLater(429, let after, _):
            return .http(.rateLimited(retryAfter: after, serverMessage: nil))
        case .retryLater(let status, _, _) where status >= 500:
            return .http(.serverError(status: status, serverMessage: nil))
        default:
            return .network(error)
        }
    }
}
