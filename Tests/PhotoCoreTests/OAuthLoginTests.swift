import Foundation
import Testing
@testable import FlickrService
@testable import Networking
import Sandbox
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Signing in against the sandbox over loopback HTTP: the app's signer on
/// one side, the sandbox's own signature check on the other.
@Suite(.timeLimit(.minutes(2))) struct OAuthLoginTests {
    static let key = "0123456789abcdef0123456789abcdef"
    static let secret = "s3cr+t/with&odd=chars"

    @discardableResult
    private func withOAuth<T>(
        secret: String = OAuthLoginTests.secret, _ body: (FlickrOAuth, SandboxServer, NetworkManager) async throws -> T
    ) async throws -> T {
        try await withSandbox(configure: { configuration in
            configuration.requiredAPIKey = Self.key
            configuration.flickrAPISecret = Self.secret
        }) { server, _, network in
            let oauth = FlickrOAuth(consumerKey: Self.key, consumerSecret: secret, restEndpoint: server.restURL,
                                    network: network, retryPolicy: .quick)
            return try await body(oauth, server, network)
        }
    }

    /// The code the sandbox's authorize page shows for this token, read as a person would.
    private func verifier(for pending: FlickrPendingLogin, oauth: FlickrOAuth, network: NetworkManager) async throws -> String {
        let page = String(decoding: try await network.get(oauth.authorizeURL(for: pending)).body, as: UTF8.self)
        let start = try #require(page.range(of: "<span id=\"verifier\">"))
        let code = String(page[start.upperBound...].prefix { $0 != "<" })
        #expect(code.wholeMatch(of: /\d{3}-\d{3}-\d{3}/) != nil)
        return code
    }

    private func signIn(_ oauth: FlickrOAuth, network: NetworkManager) async throws -> FlickrAccount {
        let pending = try await oauth.requestToken()
        return try await oauth.exchange(pending, verifier: verifier(for: pending, oauth: oauth, network: network))
    }

    @Test func signsInInTwoStepsAndTestLoginNamesTheOwner() async throws {
        try await withOAuth { oauth, server, network in
            let pending = try await oauth.requestToken()
            #expect(oauth.authorizeURL(for: pending).absoluteString.hasSuffix("&perms=write"))
            #expect(oauth.authorizeURL(for: pending).path == "/services/oauth/authorize")
            let code = try await verifier(for: pending, oauth: oauth, network: network)
            let account = try await oauth.exchange(pending, verifier: code)
            let owner = server.catalog.wellKnownOwner
            #expect(account.userNSID == owner.nsid && account.username == owner.username)
            #expect(account.fullname == owner.realName)
            let user = try await oauth.testLogin(account)
            #expect(user.nsid == owner.nsid && user.username == owner.username)
        }
    }

    @Test func refusedVerifierSaysNobodyIsSignedIn() async throws {
        try await withOAuth { oauth, _, network in
            let pending = try await oauth.requestToken()
            let right = try await verifier(for: pending, oauth: oauth, network: network)
            let wrong = right == "000-000-000" ? "000-000-001" : "000-000-000"
            await #expect(throws: FlickrAccountError.verifierRefused("oauth_problem=verifier_invalid")) {
                try await oauth.exchange(pending, verifier: wrong)
            }
            #expect(FlickrAccountError.verifierRefused("x").description.contains("nobody is signed in"))
        }
    }

    @Test func aRequestTokenIsExchangedOnce() async throws {
        try await withOAuth { oauth, _, network in
            let pending = try await oauth.requestToken()
            let code = try await verifier(for: pending, oauth: oauth, network: network)
            _ = try await oauth.exchange(pending, verifier: code)
            await #expect(throws: FlickrAccountError.self) { try await oauth.exchange(pending, verifier: code) }
        }
    }

    @Test func wrongConsumerSecretIsRefusedAtTheFirstStep() async throws {
        try await withOAuth(secret: "not-the-secret") { oauth, _, _ in
            await #expect(throws: FlickrAccountError.refused(step: "request for a sign-in token", problem: "oauth_problem=signature_invalid")) {
                try await oauth.requestToken()
            }
        }
    }

    @Test func unknownTokenIsError98AndSaysHowToSignInAgain() async throws {
        try await withOAuth { oauth, _, network in
            var account = try await signIn(oauth, network: network)
            account.token = "72157000000000000-0000000000000000"
            do {
                _ = try await oauth.testLogin(account)
                Issue.record("a made-up token was accepted")
            } catch let error as FlickrAccountError {
                guard case .tokenRejected(let detail) = error else { Issue.record("\(error)"); return }
                #expect(detail.contains("98"))
                #expect(error.description.contains("flickr login"))
            }
        }
    }

    // MARK: - The sandbox's check, request by request

    /// A signed `flickr.test.login` sent as given, its JSON answer.
    private func call(
        _ server: SandboxServer, network: NetworkManager, url: URL, header: (String, String)?
    ) async throws -> [String: Any] {
        let body = try await network.get(url, headers: header.map { [$0] } ?? []).body
        return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    private func testLoginURL(_ server: SandboxServer, extra: String = "") throws -> URL {
        try #require(URL(string: server.restURL.absoluteString
            + "?method=flickr.test.login&api_key=\(Self.key)&format=json&nojsoncallback=1" + extra))
    }

    @Test func tamperedSignatureIsError96() async throws {
        try await withOAuth { oauth, server, network in
            let account = try await signIn(oauth, network: network)
            let signer = OAuthSigner(consumerKey: Self.key, consumerSecret: Self.secret, token: account.token, tokenSecret: account.tokenSecret)
            let url = try testLoginURL(server)
            let signed = signer.authorizationHeader(method: "GET", url: url)
            let good = try await call(server, network: network, url: url, header: signed)
            #expect(good["stat"] as? String == "ok")
            // A parameter added after signing.
            let changed = try testLoginURL(server, extra: "&extras=tags")
            let tampered = try await call(server, network: network, url: changed, header: signer.authorizationHeader(method: "GET", url: url))
            #expect(tampered["code"] as? Int == 96, "\(tampered)")
            // The signature of another secret.
            let forged = OAuthSigner(consumerKey: Self.key, consumerSecret: Self.secret, token: account.token, tokenSecret: "guess")
            let forgedAnswer = try await call(server, network: network, url: url, header: forged.authorizationHeader(method: "GET", url: url))
            #expect(forgedAnswer["code"] as? Int == 96)
        }
    }

    @Test func reusedNonceIsRefused() async throws {
        try await withOAuth { oauth, server, network in
            let account = try await signIn(oauth, network: network)
            let fixedNonce = OAuthSigner(consumerKey: Self.key, consumerSecret: Self.secret, token: account.token,
                                         tokenSecret: account.tokenSecret, clock: { Date() }, nonce: { "same-nonce-twice" })
            let url = try testLoginURL(server)
            // One header sent twice: the second is a replay.
            let header = fixedNonce.authorizationHeader(method: "GET", url: url)
            let first = try await call(server, network: network, url: url, header: header)
            #expect(first["stat"] as? String == "ok")
            let replay = try await call(server, network: network, url: url, header: header)
            #expect(replay["code"] as? Int == 96, "\(replay)")
        }
    }

    @Test func staleTimestampIsRefused() async throws {
        try await withOAuth { oauth, server, network in
            let account = try await signIn(oauth, network: network)
            let late = OAuthSigner(consumerKey: Self.key, consumerSecret: Self.secret, token: account.token,
                                   tokenSecret: account.tokenSecret, clock: { Date().addingTimeInterval(-3_600) })
            let url = try testLoginURL(server)
            let answer = try await call(server, network: network, url: url, header: late.authorizationHeader(method: "GET", url: url))
            #expect(answer["code"] as? Int == 96)
        }
    }

    @Test func missingSignatureIsError97() async throws {
        try await withOAuth { oauth, server, network in
            let account = try await signIn(oauth, network: network)
            let url = try testLoginURL(server)
            let header = ("Authorization", "OAuth oauth_consumer_key=\"\(Self.key)\", oauth_token=\"\(account.token)\", oauth_nonce=\"n1\", oauth_timestamp=\"\(Int(Date().timeIntervalSince1970))\", oauth_signature_method=\"HMAC-SHA1\"")
            let answer = try await call(server, network: network, url: url, header: header)
            #expect(answer["code"] as? Int == 97)
        }
    }

    @Test func unsignedTestLoginIsRefusedAndSignedPOSTFormIsChecked() async throws {
        try await withOAuth { oauth, server, network in
            let unsigned = try await call(server, network: network, url: testLoginURL(server), header: nil)
            #expect(unsigned["code"] as? Int == 99)
            let account = try await signIn(oauth, network: network)
            let signer = OAuthSigner(consumerKey: Self.key, consumerSecret: Self.secret, token: account.token, tokenSecret: account.tokenSecret)
            let form = [("method", "flickr.test.login"), ("api_key", Self.key), ("format", "json"), ("nojsoncallback", "1"), ("note", "a+b c&d")]
            let posted = try await network.post(server.restURL, form: form, headers: [signer.authorizationHeader(method: "POST", url: server.restURL, form: form)])
            let answer = try #require(try JSONSerialization.jsonObject(with: posted.body) as? [String: Any])
            #expect(answer["stat"] as? String == "ok", "\(answer)")
            // The form signed, then changed: refused.
            let header = signer.authorizationHeader(method: "POST", url: server.restURL, form: form)
            let changed = try await network.post(server.restURL, form: form.dropLast() + [("note", "other")], headers: [header])
            let refused = try #require(try JSONSerialization.jsonObject(with: changed.body) as? [String: Any])
            #expect(refused["code"] as? Int == 96)
        }
    }

    @Test func testLoginAnswersInXMLAndJSONP() async throws {
        try await withOAuth { oauth, server, network in
            let account = try await signIn(oauth, network: network)
            let signer = OAuthSigner(consumerKey: Self.key, consumerSecret: Self.secret, token: account.token, tokenSecret: account.tokenSecret)
            let base = server.restURL.absoluteString + "?method=flickr.test.login&api_key=\(Self.key)"
            let xmlURL = try #require(URL(string: base))
            let xml = String(decoding: try await network.get(xmlURL, headers: [signer.authorizationHeader(method: "GET", url: xmlURL)]).body, as: UTF8.self)
            #expect(xml.contains("<user id=\"\(account.userNSID)\">"), "\(xml)")
            let jsonpURL = try #require(URL(string: base + "&format=json&jsoncallback=cb"))
            let jsonp = String(decoding: try await network.get(jsonpURL, headers: [signer.authorizationHeader(method: "GET", url: jsonpURL)]).body, as: UTF8.self)
            #expect(jsonp.hasPrefix("cb({\"user\":{\"id\":\"\(account.userNSID)\""), "\(jsonp)")
        }
    }

    // MARK: - The token file

    @Test func tokenFileIsPrivateAndHoldsNoConsumerSecret() async throws {
        let home = try TemporaryDirectory(prefix: "oauth-store")
        let store = FlickrAccountStore(environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config"])
        #expect(store.directory.path == home.path + "/config/flickr")
        try await withOAuth { oauth, _, network in
            let account = try await signIn(oauth, network: network)
            try store.save(account)
            var status = stat()
            #expect(stat(store.accountFile.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
            #expect(stat(store.directory.path, &status) == 0 && status.st_mode & 0o777 == 0o700)
            #expect(try store.account() == account)
            let text = String(decoding: try Data(contentsOf: store.accountFile), as: UTF8.self)
            #expect(!text.contains(Self.secret) && !text.contains(OAuthSigner.percentEncode(Self.secret)))
            #expect(!"\(account)".contains(account.token) && !"\(account)".contains(account.tokenSecret))
            #expect(try store.removeAccount())
            #expect(try store.account() == nil)
            #expect(try !store.removeAccount())
        }
    }

    /// The prompt keeps out of its history any line holding a value of these variables.
    @Test func apiSecretIsACredentialVariable() {
        #expect(FlickrProvider.descriptor.credentialVariables.contains("FLICKR_API_SECRET"))
    }

    @Test func defaultConfigFolderIsUnderHome() {
        let store = FlickrAccountStore(environment: ["HOME": "/home/ana", "XDG_CONFIG_HOME": "relative/ignored"])
        #expect(store.directory.path == "/home/ana/.config/flickr")
    }

    @Test func oauthEndpointsFollowTheRESTAddress() throws {
        #expect(FlickrOAuth.oauthBase(forREST: FlickrProvider.defaultEndpoint).absoluteString == "https://www.flickr.com/services/oauth/")
        let local = try #require(URL(string: "http://127.0.0.1:8080/mirror/services/rest/?x=1"))
        #expect(FlickrOAuth.oauthBase(forREST: local).absoluteString == "http://127.0.0.1:8080/mirror/services/oauth/")
    }
}
