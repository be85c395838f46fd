import PhotoCore
import Foundation
import Networking

/// Why a Commons call failed, worded so a person knows what to do next.
///
/// `api.php` reports most failures as HTTP 200 with an `error` object: its
/// `code` picks the sentence and its `info` is quoted (cut short, controls
/// removed; the view still sanitises it for the terminal).
public enum CommonsError: ProviderError, Sendable, Equatable {
    /// `maxlag`: the database replicas lag; `retryAfter` from the header, else the lag.
    case lagged(retryAfter: Duration?, info: String)
    /// `cirrussearch-offset-too-large`: the page lies past the 10,000 results search reaches.
    case pastLastPage(page: Int?)
    /// `ratelimited`, or HTTP 429.
    case rateLimited(retryAfter: Duration?, info: String?)
    /// Any other `error` code.
    case refused(code: String, info: String)
    /// HTTP 5xx.
    case serverError(status: Int, message: String?)
    /// Any other non-2xx answer (403 for a refused User-Agent, 404 for a wrong address).
    case rejected(status: Int, message: String?)
    /// The answer was not what was asked for; the text says what was wrong.
    case malformedResponse(String)
    /// The request never got a usable answer.
    case network(NetworkError)
    /// The request was refused before it was sent.
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .lagged(let wait, let info):
            let when = wait.map { "try again in \(ServerWait.phrase($0))" } ?? "try again in a minute"
            return "Commons' databases are busy catching up (maxlag\(Self.quote(info))); \(when)."
        case .pastLastPage(let page):
            let which = page.map { "Page \($0) lies" } ?? "That page lies"
            return "\(which) past the first \(CommonsSearchRequest.resultCap.formatted()) results, the most Commons search serves: the page before was the last. Narrow the search to see others."
        case .rateLimited(let wait, let info):
            let when = wait.map { "Try again in \(ServerWait.phrase($0))." } ?? "Wait a while and try again."
            return "Commons is limiting how often this app may ask\(Self.quote(info)). \(when)"
        case .refused("missingparam", let info), .refused("nosrsearch", let info):
            return "Commons needs words to search for\(Self.quote(info)). Type some words, or a filter with them."
        case .refused(let code, let info):
            return "Commons refused the request (\(ResponseExcerpt.make(code, limit: 60))\(Self.quote(info)))."
        case .serverError(let status, let message):
            return "Commons had a problem answering (HTTP \(status)\(Self.quote(message))). Try again in a few minutes."
        case .rejected(403, let message):
            return "Commons refused the request (HTTP 403\(Self.quote(message))). Wikimedia blocks clients it cannot identify; check that nothing between here and Commons strips the User-Agent."
        case .rejected(404, let message):
            return "There is no api.php at that address (HTTP 404\(Self.quote(message))). Check that --api-url (or \(CommonsProvider.endpointVariable)) is the address of api.php, such as \(CommonsProvider.defaultEndpoint.absoluteString)."
        case .rejected(let status, let message):
            return "Commons refused the request (HTTP \(status)\(Self.quote(message)))."
        case .malformedResponse(let reason):
            return "Commons' answer could not be read: \(reason)"
        case .network(let error):
            switch error {
            case .notConnected, .connectionRefused, .timedOut:
                // Commons, like Openverse, needs no key and so no sandbox stands in silently: say how to get one.
                return error.description + " Commons needs the network; to try it offline, run `flickr sandbox --port 8080` and pass `--api-url http://127.0.0.1:8080/w/api.php`."
            default:
                return error.description
            }
        case .invalidRequest(let reason):
            return reason
        }
    }

    /// Worth another try: lag, rate limits, server errors, transient transport failures.
    var isTransient: Bool {
        switch self {
        case .lagged, .rateLimited, .serverError: true
        case .network(let error): error.isTransient
        case .rejected(let status, _): status == 408
        case .pastLastPage, .refused, .malformedResponse, .invalidRequest: false
        }
    }

    /// How long the server asked to wait, when it said.
    var retryAfter: Duration? {
        switch self {
        case .lagged(let wait, _), .rateLimited(let wait, _): wait
        default: nil
        }
    }

    private static func quote(_ message: String?) -> String {
        guard let message, !message.isEmpty else { return "" }
        return ": “\(ResponseExcerpt.make(message, limit: 200))”"
    }
}

// MARK: - From an answer

extension CommonsError {
    /// The error an `error` object names. `maxlag` waits `Retry-After`, else
    /// the lag it reports (at least a second), else five seconds, as
    /// MediaWiki advises.
    static func from(_ failure: CommonsAPIFailure, retryAfter: String?, page: Int?, now: Date = Date()) -> CommonsError {
        let info = failure.info
        switch failure.code {
        case "maxlag":
            let wait = retryAfter.flatMap { RetryPolicy.retryAfter($0, now: now) }
                ?? failure.lag.map { ServerWait.seconds(max($0, 1)) } ?? .seconds(5)
            return .lagged(retryAfter: wait, info: info)
        case "cirrussearch-offset-too-large":
            return .pastLastPage(page: page)
        case "ratelimited":
            return .rateLimited(retryAfter: retryAfter.flatMap { RetryPolicy.retryAfter($0, now: now) }, info: info)
        default:
            return .refused(code: failure.code, info: info)
        }
    }

    /// The error for a non-2xx answer; its body (text or a page) supplies the words.
    static func http(status: Int, retryAfter: String?, body: Data?, now: Date = Date()) -> CommonsError {
        let message = body.flatMap(Self.message(in:))
        switch status {
        case 429: return .rateLimited(retryAfter: retryAfter.flatMap { RetryPolicy.retryAfter($0, now: now) }, info: message)
        case 500...599: return .serverError(status: status, message: message)
        default: return .rejected(status: status, message: message)
        }
    }

    /// A transport failure in Commons' terms.
    static func from(_ error: NetworkError) -> CommonsError {
        switch error {
        case .httpStatus(let status, _): .http(status: status, retryAfter: nil, body: nil)
        case .retryLater(429, let after, _): .rateLimited(retryAfter: after, info: nil)
        case .retryLater(let status, _, _) where status >= 500: .serverError(status: status, message: nil)
        default: .network(error)
        }
    }

    /// What an error body says: an API error's info, a page's headline, or
    /// the start of plain text.
    private static func message(in body: Data) -> String? {
        if let root = try? JSONReading.read(body), let failure = CommonsResponseDecoder.failure(in: root) {
            return failure.info.isEmpty ? failure.code : failure.info
        }
        let text = String(decoding: body.prefix(64 << 10), as: UTF8.self)
        if text.drop(while: \.isWhitespace).first == "<" { return HTMLText.headline(text).map { ResponseExcerpt.make($0) } }
        let excerpt = ResponseExcerpt.make(text, limit: 160)
        return excerpt.isEmpty ? nil : excerpt
    }
}
