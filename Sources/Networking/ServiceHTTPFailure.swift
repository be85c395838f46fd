import Foundation

/// A non-2xx answer from a photo service's API, as every provider's errors
/// share it: the status decides the case, the body gives the server's words
/// (already cut, cleaned and redacted by the provider), and a 429 carries
/// the wait it asked for. A provider's error wraps it and words it with its
/// own `ServiceHTTPWords`.
public enum ServiceHTTPFailure: Sendable, Equatable {
    /// HTTP 401: the credentials were refused (or missing).
    case unauthorized(serverMessage: String?)
    /// HTTP 403: the account may not use this call.
    case forbidden(serverMessage: String?)
    /// HTTP 429: too many requests; `retryAfter` is the wait the server asked for.
    case rateLimited(retryAfter: Duration?, serverMessage: String?)
    /// HTTP 5xx: the service had a problem; worth another try later.
    case serverError(status: Int, serverMessage: String?)
    /// Any other non-2xx answer (400 bad parameters, 404 wrong address, …).
    case rejected(status: Int, serverMessage: String?)

    /// The case for `status`; `retryAfter` is kept only for a 429.
    public init(status: Int, retryAfter: Duration?, serverMessage: String?) {
        switch status {
        case 401: self = .unauthorized(serverMessage: serverMessage)
        case 403: self = .forbidden(serverMessage: serverMessage)
        case 429: self = .rateLimited(retryAfter: retryAfter, serverMessage: serverMessage)
        case 500...599: self = .serverError(status: status, serverMessage: serverMessage)
        default: self = .rejected(status: status, serverMessage: serverMessage)
        }
    }

    public var serverMessage: String? {
        switch self {
        case .unauthorized(let message), .forbidden(let message), .rateLimited(_, let message),
             .serverError(_, let message), .rejected(_, let message):
            message
        }
    }

    /// Worth another try later: rate limits, server errors and timeouts.
    public var isTransient: Bool {
        switch self {
        case .rateLimited, .serverError: true
        case .rejected(let status, _): status == 408
        case .unauthorized, .forbidden: false
        }
    }

    /// How long the server asked us to wait, when it said.
    public var retryAfter: Duration? {
        if case .rateLimited(let retryAfter, _) = self { return retryAfter }
        return nil
    }

    /// A copy with the server's words redacted, so a server that echoes the
    /// request cannot leak a credential.
    public func redacting(_ redactor: SecretRedactor) -> ServiceHTTPFailure {
        let clean = { (message: String?) in message.map(redactor.redact) }
        return switch self {
        case .unauthorized(let message): .unauthorized(serverMessage: clean(message))
        case .forbidden(let message): .forbidden(serverMessage: clean(message))
        case .rateLimited(let wait, let message): .rateLimited(retryAfter: wait, serverMessage: clean(message))
        case .serverError(let status, let message): .serverError(status: status, serverMessage: clean(message))
        case .rejected(let status, let message): .rejected(status: status, serverMessage: clean(message))
        }
    }

    /// The sentence a person reads, in the service's words: what happened
    /// (with the status and the server's own words) and what to do.
    public func description(in words: ServiceHTTPWords) -> String {
        let name = words.service
        switch self {
        case .unauthorized(let message):
            return "\(name) \(words.unauthorized.what) (HTTP 401\(Self.quote(message)))." + words.unauthorized.then
        case .forbidden(let message):
            return "\(name) \(words.forbidden.what) (HTTP 403\(Self.quote(message)))." + words.forbidden.then
        case .rateLimited(let retryAfter, let message):
            let wait = retryAfter.map { "Try again in \(ServerWait.phrase($0))." } ?? words.waitUnsaid
            return "\(name) \(words.rateLimited.what) (HTTP 429\(Self.quote(message))). \(wait)" + words.rateLimited.then
        case .serverError(let status, let message):
            return "\(name) had a problem answering (HTTP \(status)\(Self.quote(message))). Try again in a few minutes."
        case .rejected(404, let message):
            return "\(name) has no such address (HTTP 404\(Self.quote(message))). Check that --api-url (or \(words.endpointVariable)) is the API's base URL, such as \(words.exampleBaseURL)."
        case .rejected(400, let message):
            return "\(name) refused the search as invalid (HTTP 400\(Self.quote(message)))."
        case .rejected(let status, let message):
            return "\(name) refused the request (HTTP \(status)\(Self.quote(message)))."
        }
    }

    /// `: “words”` after the status, or nothing when the server said none.
    public static func quote(_ message: String?) -> String {
        guard let message, !message.isEmpty else { return "" }
        return ": “\(message)”"
    }
}

/// One service's words for `ServiceHTTPFailure`'s sentences.
public struct ServiceHTTPWords: Sendable {
    /// What the service did, after its name ("refused the credentials"),
    /// and the sentences after the status that say what to do ("" for none).
    public struct Reaction: Sendable {
        public var what: String
        public var then: String

        public init(_ what: String, then: String? = nil) {
            self.what = what
            self.then = then.map { " " + $0 } ?? ""
        }
    }

    public var service: String
    public var unauthorized: Reaction
    public var forbidden: Reaction
    /// "is limiting how fast this app may ask", and what else helps.
    public var rateLimited: Reaction
    /// Said for a 429 that named no wait ("Wait a moment and try again.").
    public var waitUnsaid: String
    /// The variable that sets `--api-url`'s default, and an address it takes.
    public var endpointVariable: String
    public var exampleBaseURL: String

    public init(
        service: String, unauthorized: Reaction, forbidden: Reaction, rateLimited: Reaction, waitUnsaid: String,
        endpointVariable: String, exampleBaseURL: String
    ) {
        self.service = service
        self.unauthorized = unauthorized
        self.forbidden = forbidden
        self.rateLimited = rateLimited
        self.waitUnsaid = waitUnsaid
        self.endpointVariable = endpointVariable
        self.exampleBaseURL = exampleBaseURL
    }
}
