import PhotoCore
import Foundation
import Networking
import NIOConcurrencyHelpers

/// Who a `FlickrProvider` calls Flickr as: nobody, or the person whose
/// stored access token it signs every REST call with.
///
/// A reference, shared by every copy of the provider, so `/login` at the
/// prompt signs the calls of the copies the app already holds. Holds the
/// consumer secret and the tokens: never printed or reflected.
public final class FlickrSignInState: Sendable {
    private struct State {
        var consumerSecret: String?
        var store: FlickrAccountStore?
        var account: FlickrAccount?
        /// A `/login` waiting for its verifier.
        var pending: FlickrPendingLogin?
        /// Why a stored sign-in cannot be used here, when one is stored but
        /// unusable (no secret, another server): what `me` then says.
        var unusable: String?
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// The sentence for a call that needs a sign-in when there is none.
    public var notSignedInSentence: String {
        state.withLockedValue { $0.unusable }
            ?? "Nobody is signed in to Flickr: run `flickr login` (or /login at the prompt) to sign in."
    }

    var account: FlickrAccount? { state.withLockedValue { $0.account } }
    var consumerSecret: String? { state.withLockedValue { $0.consumerSecret } }
    var store: FlickrAccountStore? { state.withLockedValue { $0.store } }

    public var isSignedIn: Bool { account != nil }

    /// The signed-in person, as the token's exchange named them.
    var person: Person? {
        account.map { account in
            Person(id: account.userNSID, username: account.username, realName: account.fullname)
        }
    }

    /// Takes the sign-in `store` keeps when it was issued by `issuer` for
    /// `consumerKey`, and `consumerSecret` to sign with (nil: none given).
    func use(store: FlickrAccountStore?, consumerSecret: String?, issuer: String, consumerKey: String) {
        let stored: FlickrAccount?
        var unusable: String?
        do {
            stored = try store?.account()
        } catch {
            stored = nil
            unusable = error.description
        }
        var account: FlickrAccount?
        if let stored {
            if stored.issuer != issuer || (stored.consumerKey.map { $0 != consumerKey } ?? false) {
                unusable = FlickrAccountError.signedInElsewhere(stored.issuer).description
            } else if consumerSecret == nil {
                unusable = FlickrAccountError.missingSecret.description
            } else {
                account = stored
            }
        }
        state.withLockedValue {
            $0 = State(consumerSecret: consumerSecret, store: store, account: account, pending: nil, unusable: unusable)
        }
    }

    func signedIn(_ account: FlickrAccount) {
        state.withLockedValue {
            $0.account = account
            $0.unusable = nil
        }
    }

    func setPending(_ pending: FlickrPendingLogin?) {
        state.withLockedValue { $0.pending = pending }
    }

    func takePending() -> FlickrPendingLogin? {
        state.withLockedValue { state in
            defer { state.pending = nil }
            return state.pending
        }
    }

    /// A signer for one call as the signed-in person, or nil when nobody is.
    func signer(consumerKey: String) -> OAuthSigner? {
        state.withLockedValue { state in
            guard let account = state.account, let secret = state.consumerSecret else { return nil }
            return OAuthSigner(consumerKey: consumerKey, consumerSecret: secret, token: account.token,
                               tokenSecret: account.tokenSecret)
        }
    }
}

// Holds the consumer secret and tokens: never print or reflect them.
extension FlickrSignInState: CustomStringConvertible, CustomReflectable {
    public var description: String { "FlickrSignInState(\(person?.id ?? "nobody"), \(SecretRedactor.placeholder))" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
