import PhotoCore
import Foundation
import Networking

/// Why a Flickr call failed, worded so a person knows what to do next.
///
/// No case ever carries the API key: the provider redacts it from anything
/// that came back from the server before building one of these.
public enum FlickrError: ProviderError, Sendable, Equatable {
    /// Flickr answered `stat: fail` with this code and message.
    case api(code: Int, message: String)
    /// The answer was not a Flickr photo list; the text says what was wrong.
    case malformedResponse(String)
    /// The request never got a usable answer.
    case network(NetworkError)
    /// The request was refused before it was sent (empty query, page out of range, ...).
    case invalidRequest(String)
    /// Flickr has no such person, album, gallery, group or photo (or will
    /// not show it to this caller); the text names what was asked for.
    case notFound(String)

    public var description: String {
        switch self {
        case .api(let code, let message):
            Self.describeAPIFailure(code: code, message: message)
        case .malformedResponse(let reason):
            "Flickr's answer could not be read: \(reason)"
        case .network(let error):
            error.description
        case .invalidRequest(let reason), .notFound(let reason):
            reason
        }
    }

    /// The network itself is down, so retrying now is pointless.
    public var isOffline: Bool {
        if case .network(let error) = self { return error.isOffline }
        return false
    }

    /// Worth trying again by itself: transient network failures and
    /// Flickr's code 105 ("service currently unavailable"). Other failure
    /// codes mean the request itself is wrong, so they are final.
    public var isTransient: Bool {
        switch self {
        case .network(let error): error.isTransient
        case .api(let code, _): code == 105
        case .malformedResponse, .invalidRequest, .notFound: false
        }
    }

    /// What `RetryPolicy` makes of this failure.
    public var retryDecision: RetryPolicy.Decision {
        switch self {
        case .network(let error): RetryPolicy.decision(for: error)
        case .api(105, _): .retry
        case .api, .malformedResponse, .invalidRequest, .notFound: .stop
        }
    }

    /// `Flickr … (code N: message). What to do.` for the codes a read-only
    /// client can meet; the rest say the code and message plainly.
    private static func describeAPIFailure(code: Int, message: String) -> String {
        let detail = message.isEmpty ? "code \(code)" : "code \(code): \(message)"
        switch code {
        case 100:
            return "Flickr rejected the API key (\(detail)). Check FLICKR_API_KEY or --api-key."
        case 3:
            return "Flickr needs something to search for (\(detail)). Type some words, or ask for recent photos."
        case 10:
            return "Flickr's search is unavailable at the moment (\(detail)). Try again in a few minutes."
        case 105:
            return "Flickr is temporarily unavailable (\(detail)). Try again in a few minutes."
        case 20:
            return "Flickr serves only the first 4,000 results of a search (\(detail)). Narrow the query to see more."
        case 95:
            return "Flickr accepts only HTTPS (\(detail)). Use an https:// address with --api-url."
        case 96, 97:
            return "Flickr refused the request's credentials (\(detail)). Check FLICKR_API_KEY or --api-key, and FLICKR_API_SECRET when signed in."
        case 98:
            // Only a signed call meets it: the stored token was revoked or expired.
            return FlickrAccountError.tokenRejected(detail).description
        case 99:
            return "Flickr wants a sign-in that may do this (\(detail)). Run `flickr login` (or /login at the prompt) and approve the app."
        case 111:
            return "Flickr does not know the response format that was asked for (\(detail)). Check that --api-url points at Flickr's REST endpoint."
        case 112:
            return "Flickr does not know the method that was called (\(detail)). Check that --api-url points at Flickr's REST endpoint; a mirror may not offer every method."
        case 116:
            return "Flickr found a bad URL in the request (\(detail)). Check --api-url."
        case 114, 115:
            return "Flickr did not understand the request (\(detail)). Check that --api-url points at Flickr's REST endpoint."
        default:
            return message.isEmpty ? "Flickr error \(code)." : "Flickr error \(code): \(message)"
        }
    }
}

extension FlickrError {
    /// A copy with every spelling of the redactor's secrets replaced, so
    /// server echoes of the request cannot leak the API key.
    public func redacting(_ redactor: SecretRedactor) -> FlickrError {
        switch self {
        case .api(let code, let message):
            return .api(code: code, message: redactor.redact(message))
        case .malformedResponse(let reason):
            return .malformedResponse(redactor.redact(reason))
        case .invalidRequest(let reason):
            return .invalidRequest(redactor.redact(reason))
        case .notFound(let reason):
            return .notFound(redactor.redact(reason))
        case .network(let error):
            return .network(error.redacting(redactor))
        }
    }
}
