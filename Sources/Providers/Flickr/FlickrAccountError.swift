import PhotoCore
import Foundation

/// Why signing in, or a call made as the signed-in person, failed, worded so
/// the person knows what to do. Never carries a key, secret or token.
public enum FlickrAccountError: WordedError, Equatable {
    /// Signing needs the secret that goes with the API key.
    case missingSecret
    /// No access token is stored.
    case notSignedIn
    /// The stored token was issued by another server (the sandbox, or Flickr).
    case signedInElsewhere(String)
    /// `--verifier` was refused at the exchange; nobody is signed in.
    case verifierRefused(String)
    /// Flickr's error 98 (or `token_rejected`): the stored token no longer works.
    case tokenRejected(String)
    /// An OAuth endpoint refused a step (`oauth_problem` or the HTTP status).
    case refused(step: String, problem: String)
    /// An OAuth answer without fields it must have (named); nobody is signed in.
    case incompleteAnswer(step: String, missing: [String])
    /// The token file could not be read or written.
    case storage(String)
    /// Any other failure of a call.
    case flickr(FlickrError)

    public var description: String {
        switch self {
        case .missingSecret:
            "Signing in to Flickr needs the API secret beside the key: set FLICKR_API_SECRET or pass --api-secret (both are on your key's page at flickr.com/services/apps/)."
        case .notSignedIn:
            "Nobody is signed in to Flickr. Run `flickr login` to sign in."
        case .signedInElsewhere(let issuer):
            "The stored Flickr sign-in is for \(issuer), not this server. Run `flickr login` to sign in here."
        case .verifierRefused(let problem):
            "Flickr refused the verifier (\(problem)), so nobody is signed in. Run `flickr login` again and type the code the authorize page shows."
        case .tokenRejected(let detail):
            "Your Flickr sign-in has expired or was revoked (\(detail)). Run `flickr login` (or /login at the prompt) to sign in again."
        case .refused(let step, let problem):
            "Flickr refused the \(step) (\(problem)). Check FLICKR_API_KEY and FLICKR_API_SECRET (or --api-key and --api-secret)."
        case .incompleteAnswer(let step, let missing):
            "Flickr's answer to the \(step) had no \(missing.joined(separator: ", ")), so nobody is signed in. Run `flickr login` again; if it keeps happening, the server at --api-url is not speaking Flickr's OAuth."
        case .storage(let reason):
            reason
        case .flickr(let error):
            error.description
        }
    }
}
