import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Flickr's sign-in as the sandbox imitates it: the three OAuth endpoints
/// under `/services/oauth/`, and the check of every signed REST call.
///
/// The authorize page approves at once for the catalog's well-known owner
/// and shows the verifier (`NNN-NNN-NNN`) in an element tests can read.
/// Signatures are checked here, apart from the app's signer: HMAC-SHA1
/// over the base string, a nonce used once, a timestamp within five minutes.
///
/// Tokens carry their own proof: a token's secret and a request token's
/// verifier are derived from the token under a key made of the consumer
/// secret and the seed. So a sandbox started again with the same settings
/// (the app's embedded one is started by each command) accepts the tokens
/// an earlier one issued, and a made-up token is still refused. The
/// permission granted (`perms`) is part of what the verifier and the access
/// token's tag are derived from, so it needs no memory either.
public final class FlickrOAuthServer: Sendable {
    /// The pair accepted when `flickr sandbox` is given none (any key, in fact, with this secret).
    public static let defaultConsumerKey = "sandbox"
    public static let defaultConsumerSecret = "sandbox-secret"
    /// How far a request's timestamp may be from the sandbox's clock.
    static let timestampWindow: TimeInterval = 300
    /// Tokens and nonces kept at most; the oldest go first.
    private static let capacity = 10_000

    private struct State {
        /// Request tokens already exchanged: each is good for one access token.
        var exchanged: Set<String> = []
        var nonces: [String: TimeInterval] = [:]
    }

    private let consumerKey: String?
    private let consumerSecret: String
    private let user: CatalogPerson
    private let tokenKey: [UInt8]
    private let state = NIOLockedValueBox(State())

    /// - Parameter consumerKey: nil accepts any non-empty key, as the REST API does without `--api-key`.
    init(consumerKey: String?, consumerSecret: String?, user: CatalogPerson, seed: UInt64) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret ?? Self.defaultConsumerSecret
        self.user = user
        tokenKey = Array("flickr-sandbox-tokens:\(seed):\(self.consumerSecret)".utf8)
    }

    // MARK: - Tokens

    private enum TokenKind: String { case request, access }

    /// `PREFIX{random}-{tag}`: the tag proves the sandbox issued it (with
    /// this permission, for an access token).
    private func issue(_ kind: TokenKind, permission: OAuthPermission = .read) -> String {
        let body = (kind == .access ? "72157" : "8") + Self.randomHex(12)
        return body + "-" + tag(kind, body: Substring(body), permission: permission)
    }

    private func tag(_ kind: TokenKind, body: Substring, permission: OAuthPermission) -> String {
        kind == .request ? derived("request:\(body)", digits: 16) : derived("access:\(permission.name):\(body)", digits: 16)
    }

    /// The permission an access token carries; nil for a token the sandbox never issued.
    private func permission(ofAccess token: String) -> OAuthPermission? {
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasPrefix("72157") else { return nil }
        return OAuthPermission.allCases.first { parts[1] == tag(.access, body: parts[0], permission: $0) }
    }

    private func isIssued(_ token: String, as kind: TokenKind) -> Bool {
        if kind == .access { return permission(ofAccess: token) != nil }
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasPrefix("8") else { return false }
        return parts[1] == tag(.request, body: parts[0], permission: .read)
    }

    private func secret(of token: String) -> String { derived("secret:\(token)", digits: 16) }

    /// `NNN-NNN-NNN`, fixed for a request token and the permission approved.
    private func verifier(of token: String, permission: OAuthPermission) -> String {
        let bytes = SandboxHMAC.mac(key: tokenKey, Array("verifier:\(permission.name):\(token)".utf8))
        let groups: [String] = (0..<3).map { (group: Int) -> String in
            let high = Int(bytes[group * 2]) << 8
            let number: Int = (high | Int(bytes[group * 2 + 1])) % 1000
            return String(format: "%03d", number)
        }
        return groups.joined(separator: "-")
    }

    private func derived(_ label: String, digits: Int) -> String {
        String(SandboxHMAC.mac(key: tokenKey, Array(label.utf8)).map { String(format: "%02x", $0) }.joined().prefix(digits))
    }

    // MARK: - /services/oauth/…

    /// The answer of an OAuth endpoint, or nil for a path that is none.
    func respond(endpoint: String, request: SignedRequest) -> Content? {
        switch endpoint {
        case "request_token": return requestToken(request)
        case "authorize": return authorize(request)
        case "access_token": return accessToken(request)
        default: return nil
        }
    }

    private func requestToken(_ request: SignedRequest) -> Content {
        if let problem = verify(request, tokenSecret: { _ in "" }, tokenRequired: false) { return problem.oauthAnswer }
        guard request.value("oauth_callback")?.isEmpty == false else {
            return OAuthRefusal.absent("oauth_callback").oauthAnswer
        }
        let token = issue(.request)
        return Self.form([("oauth_callback_confirmed", "true"), ("oauth_token", token), ("oauth_token_secret", secret(of: token))])
    }

    /// Approves at once for the test user and shows the verifier.
    private func authorize(_ request: SignedRequest) -> Content {
        let token = request.value("oauth_token") ?? ""
        let used = state.withLockedValue { $0.exchanged.contains(token) }
        guard isIssued(token, as: .request), !used else {
            return Self.page(status: 400, title: "Sign-in link not valid",
                             body: "<p>This sign-in link has expired or was never issued. Ask the app for a new one.</p>")
        }
        let name = HTMLEscaping.escape(user.realName.isEmpty ? user.username : user.realName)
        // Flickr asks for read, write or delete; anything else is read here.
        let permission = OAuthPermission(name: request.value("perms")) ?? .read
        return Self.page(status: 200, title: "You have authorized the app", body: """
            <p>Signed in as <span id="username">\(HTMLEscaping.escape(user.username))</span> (\(name)), \
            permissions: <span id="perms">\(permission.name)</span>.</p>
            <p>Type this code into the app: <span id="verifier">\(verifier(of: token, permission: permission))</span></p>
            """)
    }

    private func accessToken(_ request: SignedRequest) -> Content {
        let token = request.value("oauth_token") ?? ""
        let tokenSecret = { (token: String) in self.isIssued(token, as: .request) ? self.secret(of: token) : nil }
        if let problem = verify(request, tokenSecret: tokenSecret, tokenRequired: true) { return problem.oauthAnswer }
        let sent = request.value("oauth_verifier")
        guard let permission = OAuthPermission.allCases.first(where: { sent == verifier(of: token, permission: $0) }) else {
            return OAuthRefusal(status: 401, problem: "verifier_invalid", code: 98, message: "Invalid verifier").oauthAnswer
        }
        // A request token is exchanged once.
        let first = state.withLockedValue { state -> Bool in
            if state.exchanged.count >= Self.capacity { state.exchanged.removeAll() }
            return state.exchanged.insert(token).inserted
        }
        guard first else { return OAuthRefusal.invalidToken.oauthAnswer }
        let access = issue(.access, permission: permission)
        return Self.form([
            ("fullname", user.realName.isEmpty ? user.username : user.realName), ("oauth_token", access),
            ("oauth_token_secret", secret(of: access)), ("user_nsid", user.nsid), ("username", user.username),
        ])
    }

    // MARK: - Signed REST calls

    /// What a REST call's (or an upload's) signature says: nil for an
    /// unsigned call (or one signed by the app alone, without a token, as
    /// flickrapi signs every call), the signed-in person and what their token
    /// allows, or Flickr's error for a bad signature or token.
    func checkREST(_ request: SignedRequest) -> Result<SignedCaller, OAuthRefusal>? {
        guard request.isSigned else { return nil }
        if request.value("oauth_token") == nil {
            return verify(request, tokenSecret: { _ in "" }, tokenRequired: false).map { .failure($0) }
        }
        let tokenSecret = { (token: String) in self.isIssued(token, as: .access) ? self.secret(of: token) : nil }
        if let problem = verify(request, tokenSecret: tokenSecret, tokenRequired: true) { return .failure(problem) }
        let permission = request.value("oauth_token").flatMap(permission(ofAccess:)) ?? .read
        return .success(SignedCaller(person: user, permission: permission))
    }

    /// nil when the request is signed well; the refusal otherwise.
    private func verify(
        _ request: SignedRequest, tokenSecret: (String) -> String?, tokenRequired: Bool
    ) -> OAuthRefusal? {
        guard request.value("oauth_signature") != nil else { return .absent("oauth_signature") }
        for name in ["oauth_consumer_key", "oauth_nonce", "oauth_timestamp", "oauth_signature_method"]
        where request.value(name)?.isEmpty ?? true {
            return .absent(name)
        }
        let key = request.value("oauth_consumer_key") ?? ""
        if let consumerKey, key != consumerKey {
            return OAuthRefusal(status: 401, problem: "consumer_key_unknown", code: 100, message: "Invalid API Key (Key not found)")
        }
        guard request.value("oauth_signature_method") == "HMAC-SHA1" else {
            return OAuthRefusal(status: 400, problem: "signature_method_rejected", code: 96, message: "Invalid signature")
        }
        let now = Date().timeIntervalSince1970
        guard let stamp = request.value("oauth_timestamp").flatMap(Double.init), abs(stamp - now) <= Self.timestampWindow else {
            return OAuthRefusal(status: 401, problem: "timestamp_refused", code: 96, message: "Invalid signature (timestamp refused)")
        }
        var secret = ""
        if tokenRequired {
            guard let token = request.value("oauth_token"), let known = tokenSecret(token) else { return .invalidToken }
            secret = known
        }
        guard request.hasValidSignature(consumerSecret: consumerSecret, tokenSecret: secret) else { return .invalidSignature }
        // Remembered once the signature holds, so a forger cannot use up nonces.
        let nonce = "\(key)&\(request.value("oauth_nonce") ?? "")&\(request.value("oauth_timestamp") ?? "")"
        let fresh = state.withLockedValue { state -> Bool in
            guard state.nonces[nonce] == nil else { return false }
            if state.nonces.count >= Self.capacity {
                state.nonces = state.nonces.filter { now - $0.value <= Self.timestampWindow }
            }
            state.nonces[nonce] = now
            return true
        }
        guard fresh else {
            return OAuthRefusal(status: 401, problem: "nonce_used", code: 96, message: "Invalid signature (nonce already used)")
        }
        return nil
    }

    // MARK: - Answers

    private static func randomHex(_ digits: Int) -> String {
        String((0..<digits).map { _ in "0123456789abcdef".randomElement() ?? "0" })
    }

    static func form(_ fields: [(String, String)], status: Int = 200) -> Content {
        let body = fields.map { "\(SignedRequest.encode($0.0))=\(SignedRequest.encode($0.1))" }.joined(separator: "&")
        return Content(status: status, contentType: "application/x-www-form-urlencoded; charset=utf-8",
                       body: ByteBuffer(string: body))
    }

    private static func page(status: Int, title: String, body: String) -> Content {
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Flickr sandbox: \(title)</title></head>
            <body><h1>\(title)</h1>
            \(body)
            </body></html>

            """
        return Content(status: status, contentType: "text/html; charset=utf-8", body: ByteBuffer(string: html))
    }
}

/// Why a signed request was refused, as the OAuth endpoints say it
/// (`oauth_problem`) and as the REST API does (Flickr's code and message).
struct OAuthRefusal: Error, Equatable {
    var status: Int
    var problem: String
    var code: Int
    var message: String
    /// The parameter whose absence this is, for `oauth_parameters_absent`.
    var absentParameter: String? = nil

    static let invalidSignature = OAuthRefusal(status: 401, problem: "signature_invalid", code: 96, message: "Invalid signature")
    static let invalidToken = OAuthRefusal(status: 401, problem: "token_rejected", code: 98, message: "Invalid auth token")

    static func absent(_ name: String) -> OAuthRefusal {
        OAuthRefusal(status: 400, problem: "parameter_absent", code: name == "oauth_signature" ? 97 : 96,
                     message: name == "oauth_signature" ? "Missing signature" : "Invalid signature (\(name) missing)",
                     absentParameter: name)
    }

    var oauthAnswer: Content {
        var fields = [("oauth_problem", problem)]
        if let absentParameter { fields.append(("oauth_parameters_absent", absentParameter)) }
        return FlickrOAuthServer.form(fields, status: status)
    }
}

/// Text placed in the authorize page.
enum HTMLEscaping {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
