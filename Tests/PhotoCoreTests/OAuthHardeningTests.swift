import Foundation
import Testing
@testable import FlickrService
@testable import Networking
import PhotoCore
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What an outside attack found in signing in: the token file's
/// mode and kind, a token file that is a link, busy sign-in endpoints, and
/// an exchange that does not say who signed in.
@Suite(.timeLimit(.minutes(2))) struct OAuthHardeningTests {
    private func store(_ home: TemporaryDirectory) -> FlickrAccountStore {
        FlickrAccountStore(environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config"])
    }

    private let account = FlickrAccount(
        issuer: "http://127.0.0.1:1/services/oauth/", token: "72157-token", tokenSecret: "token-secret",
        userNSID: "12345678@N01", username: "ana", fullname: "Ana Paula Souza", consumerKey: "k")

    @Test func aTokenFileOthersMayReadIsRefusedAndSaysHowToMendIt() throws {
        let home = try TemporaryDirectory(prefix: "oauth-mode")
        let store = store(home)
        try store.save(account)
        #expect(chmod(store.accountFile.path, 0o644) == 0)
        #expect {
            _ = try store.account()
        } throws: { error in
            let text = "\(error)"
            return text.contains(store.accountFile.path) && text.contains("0644") && text.contains("chmod 600")
        }
        #expect(chmod(store.accountFile.path, 0o600) == 0)
        #expect(try store.account() == account)
    }

    @Test func aTokenFileThatIsAFolderIsNamedNotTakenForNobody() throws {
        let home = try TemporaryDirectory(prefix: "oauth-folder")
        let store = store(home)
        try FileManager.default.createDirectory(at: store.accountFile, withIntermediateDirectories: true)
        #expect {
            _ = try store.account()
        } throws: { error in
            "\(error)".contains(store.accountFile.path) && "\(error)".contains("folder")
        }
    }

    @Test func loggingOutThroughALinkDeletesNothingAndNamesTheFileHoldingTheToken() throws {
        let home = try TemporaryDirectory(prefix: "oauth-link")
        let store = store(home)
        let elsewhere = home.url.appendingPathComponent("elsewhere.json")
        try store.save(account)
        try FileManager.default.moveItem(at: store.accountFile, to: elsewhere)
        try FileManager.default.createSymbolicLink(at: store.accountFile, withDestinationURL: elsewhere)
        #expect {
            try store.removeAccount()
        } throws: { error in
            "\(error)".contains(elsewhere.path) && "\(error)".contains("nothing was deleted")
        }
        #expect(FileManager.default.fileExists(atPath: elsewhere.path), "the token's file went")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: store.accountFile.path)) != nil, "the link went")
        // Once the file it points at is gone, the dangling link goes quietly.
        try FileManager.default.removeItem(at: elsewhere)
        #expect(try store.removeAccount())
    }

    private func oauth(_ server: LoopbackHTTPServer, _ network: NetworkManager, _ waits: RetryPolicyTests.Waits) -> FlickrOAuth {
        FlickrOAuth(consumerKey: "k", consumerSecret: "s", restEndpoint: server.restURL, network: network,
                    retryPolicy: waits.policy())
    }

    @Test func aBusySignInEndpointIsAskedAgainAfterItsRetryAfter() async throws {
        let busy = ScriptedReply.text("slow down", status: 429, headers: [("Retry-After", "3")])
        let answer = ScriptedReply.text("oauth_callback_confirmed=true&oauth_token=rt&oauth_token_secret=rs")
        try await LoopbackHTTPServer.failing([busy], then: answer) { server, network in
            let waits = RetryPolicyTests.Waits()
            let pending = try await oauth(server, network, waits).requestToken()
            #expect(pending.token == "rt")
            #expect(server.requests.count == 2)
            #expect(waits.all == [.seconds(3)])
        }
    }

    @Test func aSignInEndpointThatStaysBusySaysSoAndDoesNotBlameTheKey() async throws {
        let busy = ScriptedReply.text("busy", status: 503, headers: [("Retry-After", "1")])
        try await LoopbackHTTPServer.failing(Array(repeating: busy, count: 10), then: busy) { server, network in
            let waits = RetryPolicyTests.Waits()
            await #expect {
                _ = try await oauth(server, network, waits).requestToken()
            } throws: { error in
                let text = userMessage(for: error)
                return text.contains("busy") && !text.contains("FLICKR_API_KEY")
            }
            #expect(server.requests.count == 4)
        }
    }

    @Test func anExchangeWithoutUserNSIDNamesWhatIsMissing() async throws {
        let answer = ScriptedReply.text("oauth_token=at&oauth_token_secret=as&username=ana")
        try await LoopbackHTTPServer.failing([], then: answer) { server, network in
            let waits = RetryPolicyTests.Waits()
            let pending = FlickrPendingLogin(issuer: "x", token: "rt", tokenSecret: "rs")
            await #expect {
                _ = try await oauth(server, network, waits).exchange(pending, verifier: "123-456-789")
            } throws: { error in
                let text = userMessage(for: error)
                return text.contains("user_nsid") && !text.contains("no access token")
            }
        }
    }
}
