import Foundation
import NIOConcurrencyHelpers
@testable import PhotoCore
@testable import Networking
@testable import OpenverseService

/// A loopback Openverse for the provider's tests: a token endpoint that
/// hands out `tok-1`, `tok-2`, … and a search endpoint whose answer the test
/// chooses per request, over `LoopbackHTTPServer` (real sockets, real HTTP).
final class OpenverseTestServer: Sendable {
    static let clientID = "loopback-client-id"
    static let clientSecret = "loopback-secret+/=value"

    /// How the token endpoint answers.
    let tokenReply: NIOLockedValueBox<@Sendable (Int) -> ScriptedReply>
    /// How the search and detail endpoints answer.
    let apiReply: NIOLockedValueBox<@Sendable (ReceivedRequest) -> ScriptedReply>
    private let issued = NIOLockedValueBox(0)

    init(expiresIn: Int = 36_000) {
        tokenReply = NIOLockedValueBox({ number in
            .text(#"{"access_token":"tok-\#(number)","expires_in":\#(expiresIn),"token_type":"Bearer","scope":"read write"}"#)
        })
        apiReply = NIOLockedValueBox({ _ in .text(OpenverseTestServer.onePage) })
    }

    static let onePage = #"{"result_count":1,"page_count":1,"page_size":20,"page":1,"results":[{"id":"4bc43a04-ef46-4544-a0c1-63c63f56e276","title":"Pier","creator":"Ann","thumbnail":"http://127.0.0.1/t.jpg","url":"http://127.0.0.1/i.jpg","width":1024,"height":768,"license":"by","license_version":"2.0","foreign_landing_url":"https://www.flickr.com/photos/1/2","tags":[{"name":"sea"}]}]}"#

    func reply(_ request: ReceivedRequest) -> ScriptedReply {
        if request.uri.hasPrefix("/v1/auth_tokens/token/") {
            guard request.method == "POST" else { return .text(#"{"detail":"Method not allowed."}"#, status: 405) }
            let number = issued.withLockedValue { count in
                count += 1
                return count
            }
            return tokenReply.withLockedValue { $0 }(number)
        }
        return apiReply.withLockedValue { $0 }(request)
    }

    /// Runs `body` with a server, a manager and a provider (with credentials
    /// unless `anonymous`); all are shut down however `body` ends.
    static func with(
        _ server: OpenverseTestServer = OpenverseTestServer(), anonymous: Bool = false,
        policy: RetryPolicy = RetryPolicy.never, tokens: OpenverseTokenStore = OpenverseTokenStore(),
        _ body: (OpenverseProvider, LoopbackHTTPServer, OpenverseTokenStore) async throws -> Void
    ) async throws {
        try await LoopbackHTTPServer.with({ server.reply($0) }) { loopback in
            let network = NetworkManager()
            let credentials = anonymous ? nil : try OpenverseCredentials(clientID: clientID, clientSecret: clientSecret)
            let provider = OpenverseProvider(
                credentials: credentials, baseURL: loopback.baseURL, network: network, displayName: nil,
                retryPolicy: policy, tokens: tokens)
            do {
                try await body(provider, loopback, tokens)
                await network.shutdown()
            } catch {
                await network.shutdown()
                throw error
            }
        }
    }
}

extension ReceivedRequest {
    var path: String { String(uri.prefix { $0 != "?" }) }
    var isTokenRequest: Bool { path == "/v1/auth_tokens/token/" }
    var authorization: String? { headers["authorization"] }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let instant = NIOLockedValueBox(ContinuousClock.now)
    var now: @Sendable () -> ContinuousClock.Instant { { [instant] in instant.withLockedValue { $0 } } }
    func advance(by duration: Duration) { instant.withLockedValue { $0 += duration } }
}
