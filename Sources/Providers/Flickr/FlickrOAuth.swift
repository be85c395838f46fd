import PhotoCore
import Foundation
import Networking

/// Flickr's sign-in (OAuth 1.0a, HMAC-SHA1) and the calls made as the
/// signed-in person.
///
/// The three OAuth endpoints sit beside the REST endpoint:
/// `BASE/services/rest/` → `BASE/services/oauth/…`, so `--api-url` moves all
/// of them; Flickr itself serves them from www.flickr.com. Every answer's
/// text is redacted of the key, the secret and the tokens before it can
/// reach an error message.
public struct FlickrOAuth: Sendable {
    /// `…/services/oauth/`.
    public let oauthBase: URL
    public let restEndpoint: URL
    let signer: OAuthSigner
    let network: NetworkManager
    let retryPolicy: RetryPolicy

    public init(
        consumerKey: String, consumerSecret: String, restEndpoint: URL = FlickrProvider.defaultEndpoint,
        network: NetworkManager, retryPolicy: RetryPolicy = RetryPolicy(),
        clock: @escaping OAuthSigner.Clock = { Date() }
    ) {
        self.restEndpoint = restEndpoint
        self.oauthBase = Self.oauthBase(forREST: restEndpoint)
        self.signer = OAuthSigner(consumerKey: consumerKey, consumerSecret: consumerSecret, clock: clock)
        self.network = network
        self.retryPolicy = retryPolicy
    }

    /// Flickr's REST host has its OAuth on www.flickr.com; anything else
    /// (the sandbox, a test server) keeps it beside the REST path.
    public static func oauthBase(forREST rest: URL) -> URL {
        if rest.host?.lowercased() == FlickrProvider.defaultEndpoint.host {
            return URL(string: "https://www.flickr.com/services/oauth/")!
        }
        var components = URLComponents(url: rest, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        let bare = components?.url ?? rest
        return bare.deletingLastPathComponent().appendingPathComponent("oauth", isDirectory: true)
    }

    public var issuer: String { oauthBase.absoluteString }
    var requestTokenURL: URL { oauthBase.appendingPathComponent("request_token", isDirectory: false) }
    var accessTokenURL: URL { oauthBase.appendingPathComponent("access_token", isDirectory: false) }

    /// Every secret of this sign-in, with the account's when there is one.
    func redactor(_ account: FlickrAccount? = nil, pending: FlickrPendingLogin? = nil) -> SecretRedactor {
        SecretRedactor(secrets: signer.secrets + [account?.token, account?.tokenSecret, pending?.token, pending?.tokenSecret].compactMap { $0 })
    }

    // MARK: - Signing in

    /// Step 1: a request token for an out-of-band verifier.
    public func requestToken() async throws(FlickrAccountError) -> FlickrPendingLogin {
        let answer = try await oauthStep(
            "request for a sign-in token", url: requestTokenURL, signer: signer, extra: [("oauth_callback", "oob")])
        guard let token = answer["oauth_token"], let secret = answer["oauth_token_secret"], !token.isEmpty else {
            throw .refused(step: "request for a sign-in token", problem: "its answer had no oauth_token")
        }
        return FlickrPendingLogin(issuer: issuer, token: token, tokenSecret: secret)
    }

    /// Step 2: where the person approves the app and reads the verifier.
    public func authorizeURL(for pending: FlickrPendingLogin, perms: String = "write") -> URL {
        var components = URLComponents(url: oauthBase.appendingPathComponent("authorize", isDirectory: false),
                                       resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = "oauth_token=\(OAuthSigner.percentEncode(pending.token))&perms=\(OAuthSigner.percentEncode(perms))"
        return components?.url ?? oauthBase
    }

    /// Step 3: the verifier for the access token and who signed in. A
    /// refused verifier throws `.verifierRefused`.
    public func exchange(_ pending: FlickrPendingLogin, verifier: String) async throws(FlickrAccountError) -> FlickrAccount {
        let code = verifier.trimmingCharacters(in: .whitespacesAndNewlines)
        let signer = signer.with(token: pending.token, tokenSecret: pending.tokenSecret)
        let answer: [String: String]
        do {
            answer = try await oauthStep("verifier", url: accessTokenURL, signer: signer, extra: [("oauth_verifier", code)])
        } catch .refused(_, let problem), .tokenRejected(let problem) {
            throw .verifierRefused(problem)
        }
        let missing = ["oauth_token", "oauth_token_secret", "user_nsid"].filter { answer[$0]?.isEmpty ?? true }
        guard missing.isEmpty, let token = answer["oauth_token"], let secret = answer["oauth_token_secret"],
              let nsid = answer["user_nsid"]
        else { throw .incompleteAnswer(step: "access token exchange", missing: missing) }
        return FlickrAccount(
            issuer: issuer, token: token, tokenSecret: secret, userNSID: nsid,
            username: answer["username"] ?? "", fullname: answer["fullname"] ?? "", consumerKey: signer.consumerKey)
    }

    /// One signed GET to an OAuth endpoint, its `a=b&…` answer as a dictionary.
    private func oauthStep(
        _ step: String, url: URL, signer: OAuthSigner, extra: [(String, String)]
    ) async throws(FlickrAccountError) -> [String: String] {
        let redactor = SecretRedactor(secrets: signer.secrets)
        let response: NetworkManager.Response
        do {
            response = try await retryPolicy.run(
                classify: { RetryPolicy.decision(for: $0) }, cancelled: { .cancelled }
            ) { _ throws(NetworkError) in
                // Signed afresh on every try: a nonce is used once.
                let response = try await network.get(
                    url, headers: [signer.authorizationHeader(method: "GET", url: url, extra: extra)],
                    maxBytes: 64 << 10, errorBodies: true)
                try Self.checkBusy(response, host: url.host ?? "Flickr")
                return response
            }
        } catch {
            throw .flickr(.network(error.redacting(redactor)))
        }
        let text = String(decoding: response.body, as: UTF8.self)
        let fields = Dictionary(OAuthSigner.formParameters(text), uniquingKeysWith: { first, _ in first })
        guard (200..<300).contains(response.status) else {
            let problem = fields["oauth_problem"].map { "oauth_problem=\(FlickrAccount.printable($0))" } ?? "HTTP \(response.status)"
            if fields["oauth_problem"] == "token_rejected" || fields["oauth_problem"] == "token_expired" {
                throw .tokenRejected(redactor.redact(problem))
            }
            throw .refused(step: step, problem: redactor.redact(problem))
        }
        return fields
    }

    /// A busy server (429, or a 5xx without an `oauth_problem`) is asked
    /// again like a REST call, and when it stays busy says so: only a
    /// refusal should send the person to check their key.
    private static func checkBusy(_ response: NetworkManager.Response, host: String) throws(NetworkError) {
        guard response.status == 429 || response.status >= 500 else { return }
        let text = String(decoding: response.body.prefix(4096), as: UTF8.self)
        guard !text.contains("oauth_problem=") else { return }
        let after = response.retryAfter.flatMap { RetryPolicy.retryAfter($0) }
        guard response.status == 429 || after != nil else { throw .httpStatus(response.status, host: host) }
        throw .retryLater(status: response.status, after: after, host: host)
    }

    /// Step 3 and keeping the account in `store`: `flickr login` and
    /// `/login` both end here. A refused verifier leaves nobody signed in.
    public func finish(
        _ pending: FlickrPendingLogin, verifier: String, store: FlickrAccountStore?
    ) async throws(FlickrAccountError) -> FlickrAccount {
        let signedIn: FlickrAccount
        do {
            signedIn = try await exchange(pending, verifier: verifier)
        } catch {
            try store?.removePending()
            switch error {
            case .verifierRefused, .incompleteAnswer: try store?.removeAccount()
            default: break
            }
            throw error
        }
        try store?.save(signedIn)
        try store?.removePending()
        return signedIn
    }

    // MARK: - Signed calls

    /// `flickr.test.login`: who the stored token belongs to, as Flickr sees it.
    public func testLogin(_ account: FlickrAccount) async throws(FlickrAccountError) -> (nsid: String, username: String) {
        let root = try await signedCall(method: "flickr.test.login", parameters: [], account: account)
        guard let user = root["user"], let nsid = user["id"]?.lenientString, !nsid.isEmpty else {
            throw .flickr(.malformedResponse("flickr.test.login's answer has no user id."))
        }
        return (nsid, user["username"]?.lenientString ?? "")
    }

    /// A REST call signed with the account's token; error 98 becomes `.tokenRejected`.
    func signedCall(
        method: String, parameters: [(String, String)], account: FlickrAccount
    ) async throws(FlickrAccountError) -> WireValue {
        guard account.issuer == issuer else { throw .signedInElsewhere(account.issuer) }
        let signer = signer.with(token: account.token, tokenSecret: account.tokenSecret)
        let redactor = redactor(account)
        let rest = FlickrProvider(apiKey: signer.consumerKey, endpoint: restEndpoint, network: network)
        do {
            let url = try rest.requestURL(method: method, parameters: parameters)
            return try await retryPolicy.run(classify: { $0.retryDecision }, cancelled: { .network(.cancelled) }) { _ throws(FlickrError) in
                let data: Data
                do throws(NetworkError) {
                    data = try await network.get(url, headers: [signer.authorizationHeader(method: "GET", url: url)]).body
                } catch {
                    throw FlickrError.network(error)
                }
                return try ResponseExcerpt.redacting(signer.secrets) { () throws(FlickrError) in
                    let root = try FlickrResponseDecoder.readTree(data)
                    try FlickrResponseDecoder.checkStatus(root)
                    return root
                }
            }
        } catch {
            let redacted = error.redacting(redactor)
            if case .api(98, let message) = redacted { throw .tokenRejected("code 98: \(message)") }
            throw .flickr(redacted)
        }
    }
}

// Holds the consumer secret: never print or reflect it.
extension FlickrOAuth: CustomStringConvertible, CustomReflectable {
    public var description: String { "FlickrOAuth(\(oauthBase.host ?? "?"), \(SecretRedactor.placeholder))" }
    public var customMirror: Mirror { Mirror(self, children: ["oauthBase": oauthBase]) }
}
