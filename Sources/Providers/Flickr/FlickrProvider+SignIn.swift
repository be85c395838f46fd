import PhotoCore
import Foundation
import Networking

/// Signing in from inside the app (`/login`): the same three OAuth steps as
/// `flickr login`, after which this provider's calls, and its copies', are
/// signed as the person who approved the app.
extension FlickrProvider: AccountSignIn {
    /// Signs calls as the sign-in `store` keeps for this server and key,
    /// with the key's `consumerSecret` (nil: none given, so nothing is
    /// signed and `me` says why). Also where `/login` keeps a new one.
    public func useSignIn(store: FlickrAccountStore?, consumerSecret: String?) {
        signIn.use(store: store, consumerSecret: consumerSecret,
                   issuer: FlickrOAuth.oauthBase(forREST: endpoint).absoluteString, consumerKey: apiKey)
    }

    public var signedInPerson: Person? { signIn.person }

    public func startSignIn() async throws -> URL {
        let oauth = try signInClient()
        let pending = try await oauth.requestToken()
        signIn.setPending(pending)
        return oauth.authorizeURL(for: pending)
    }

    public func finishSignIn(verifier: String) async throws -> Person {
        let oauth = try signInClient()
        guard let pending = signIn.takePending() else {
            throw FlickrError.invalidRequest("No sign-in is under way: /login starts one.")
        }
        let account = try await oauth.finish(pending, verifier: verifier, store: signIn.store)
        signIn.signedIn(account)
        return Person(id: account.userNSID, username: account.username, realName: account.fullname)
    }

    private func signInClient() throws(FlickrAccountError) -> FlickrOAuth {
        guard let secret = signIn.consumerSecret else { throw .missingSecret }
        return FlickrOAuth(consumerKey: apiKey, consumerSecret: secret, restEndpoint: endpoint, network: network,
                           retryPolicy: retryPolicy)
    }

    /// The signed-in person, for `me`; the sentence saying how to sign in otherwise.
    func me() throws(FlickrError) -> Person {
        guard let person = signIn.person else { throw .invalidRequest(signIn.notSignedInSentence) }
        return person
    }
}
