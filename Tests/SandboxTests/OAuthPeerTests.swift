import FlickrService
import Foundation
import Networking
import Sandbox
import TestSupport
import Testing

/// OAuth checked by implementations that are not ours: PyPI `oauthlib`
/// verifies every signature the app sends, and Python `flickrapi` signs in
/// to the sandbox. Either missing is a visible skip (Scripts/lib/peers.sh
/// installs flickrapi, which brings oauthlib).
@Suite(.timeLimit(.minutes(3))) struct OAuthPeerTests {
    @Test(.enabled(if: Peers.python(importing: "oauthlib.oauth1") != nil, "Python oauthlib is not installed (pip install oauthlib)"))
    func oauthlibVerifiesEverySignatureTheAppSends() async throws {
        let python = try #require(Peers.python(importing: "oauthlib.oauth1"))
        let (key, secret) = ("peer-key", "peer secret/+&=")
        let verifier = try ProcessRunner.start(python, arguments: [Peers.script("oauthlib_verifier.py"), key, secret],
                                               environment: Peers.environment)
        defer { verifier.send(signal: SIGTERM) }
        var base = ""
        try await eventually("the oauthlib server is listening") {
            let output = String(decoding: verifier.outputSoFar, as: UTF8.self)
            guard let line = output.split(separator: "\n").first, line.hasPrefix("listening on ") else { return false }
            base = String(line.dropFirst("listening on ".count))
            return true
        }
        let rest = try #require(URL(string: base + "/services/rest/"))
        let network = NetworkManager()
        let oauth = FlickrOAuth(consumerKey: key, consumerSecret: secret, restEndpoint: rest, network: network, retryPolicy: .never)
        // GET without a token, GET with token and verifier, GET with query and token.
        let pending = try await oauth.requestToken()
        let account = try await oauth.exchange(pending, verifier: "123-456-789")
        #expect(try await oauth.testLogin(account).nsid == "1234@N01")
        // POST with a form, with and without a token.
        let form = [("method", "flickr.test.login"), ("format", "json"), ("nojsoncallback", "1"), ("text", "a+b c&d=é~")]
        for signer in [OAuthSigner(consumerKey: key, consumerSecret: secret, token: account.token, tokenSecret: account.tokenSecret),
                       OAuthSigner(consumerKey: key, consumerSecret: secret)] {
            let posted = try await network.post(rest, form: form, headers: [signer.authorizationHeader(method: "POST", url: rest, form: form)])
            #expect(String(decoding: posted.body, as: UTF8.self).contains("\"stat\":\"ok\""))
        }
        // The checker can say no: a signature with another secret.
        let wrong = OAuthSigner(consumerKey: key, consumerSecret: "other", token: account.token, tokenSecret: account.tokenSecret)
        _ = try await network.get(rest, headers: [wrong.authorizationHeader(method: "GET", url: rest)])

        let results = try await network.get(try #require(URL(string: base + "/results"))).body
        await network.shutdown()
        let checks = try #require(try JSONSerialization.jsonObject(with: results) as? [[String: Any]])
        #expect(checks.count == 6)
        #expect(checks.prefix(5).allSatisfy { $0["ok"] as? Bool == true }, "\(checks)")
        #expect(checks.last?["ok"] as? Bool == false)
        #expect(checks.map { $0["path"] as? String ?? "" } == [
            "/services/oauth/request_token", "/services/oauth/access_token", "/services/rest/", "/services/rest/",
            "/services/rest/", "/services/rest/",
        ])
        #expect(checks[2]["query"] as? Bool == true && checks[3]["form"] as? Bool == true)
        #expect(checks[3]["token"] as? String == "acc-token" && checks[4]["token"] is NSNull)
    }

    @Test(.enabled(if: Peers.python(importing: "flickrapi") != nil, "Python flickrapi is not installed (Scripts/lib/peers.sh installs it)"))
    func flickrapiSignsInToTheSandboxAndCallsTestLogin() async throws {
        let python = try #require(Peers.python(importing: "flickrapi"))
        try await withSandbox({ configuration in
            configuration.requiredAPIKey = "flickrapi-key"
            configuration.flickrAPISecret = "flickrapi secret"
        }) { server, _ in
            let run = try await ProcessRunner.run(
                python, arguments: [Peers.script("flickrapi_oauth_peer.py"), server.baseURL.absoluteString, "flickrapi-key", "flickrapi secret"],
                environment: Peers.environment)
            #expect(run.status == .exited(0), "\(run.transcript)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any])
            let owner = server.catalog.wellKnownOwner
            #expect(result["user_nsid"] as? String == owner.nsid)
            #expect(result["username"] as? String == owner.username)
            let login = result["login"] as? [String: Any] ?? [:]
            #expect(login["id"] as? String == owner.nsid && login["username"] as? String == owner.username)
            #expect(result["wrong_secret"] as? Int == 96)
        }
    }
}
