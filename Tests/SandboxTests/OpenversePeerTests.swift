import Foundation
@testable import Sandbox
import TestSupport
import Testing

/// Openverse's official Python client (`openverse-api-client`, unmodified)
/// against the sandbox: its typed models must accept every answer, which
/// checks the wire format against Openverse's own schema. A missing client is
/// a visible skip (`Scripts/lib/peers.sh` installs it).
@Suite(.timeLimit(.minutes(3))) struct OpenversePeerTests {
    @Test(.enabled(if: Peers.python(importing: "openverse_api_client") != nil,
                   "Python openverse-api-client is not installed (Scripts/lib/peers.sh installs it)"))
    func openversesClientSearchesAnonymouslyAndWithATokenAndAcceptsEveryAnswer() async throws {
        let python = try #require(Peers.python(importing: "openverse_api_client"))
        try await withSandbox { server, _ in
            let run = try await ProcessRunner.run(
                python, arguments: [Peers.script("openverse_peer.py"), server.baseURL.absoluteString, "kittens", "peer-id", "peer-secret"],
                environment: Peers.environment)
            #expect(run.status == .exited(0), "\(run.transcript)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any])
            #expect(report["problems"] as? [String] == [], "the client's models reject: \(report["problems"] ?? "")")

            let expected = openverseExpected(server.catalog, text: "kittens").map(OpenverseCatalog.identifier(of:))
            let first = report["anonymous_page_1"] as? [String] ?? []
            let second = report["anonymous_page_2"] as? [String] ?? []
            #expect(first == Array(expected.prefix(20)))
            #expect(second == Array(expected[20..<40]))
            #expect(report["anonymous_result_count"] as? Int == 240)
            #expect(report["anonymous_page_count"] as? Int == 12)
            #expect(report["anonymous_page_size_50_status"] as? Int == 401)

            let openlyReusable = openverseExpected(server.catalog, text: "kittens").filter { [4, 5, 9, 11, 12].contains($0.license) }
            let authenticated = report["authenticated"] as? [String] ?? []
            #expect(authenticated == openlyReusable.prefix(50).map(OpenverseCatalog.identifier(of:)))
            #expect(report["authenticated_licenses"] as? [String] == ["by", "by-sa", "cc0"])
            #expect(report["authenticated_result_count"] as? Int == openlyReusable.count)
            #expect(report["single"] as? String == authenticated.first)

            // For comparing with the app's Openverse client later.
            print("openverse-api-client ids, q=kittens page 1: \(first.joined(separator: " "))")
            print("openverse-api-client ids, q=kittens license=by,by-sa,cc0 page_size=50: \(authenticated.joined(separator: " "))")

            // The client fetched a token with the credentials in the query; the secret is in no log line.
            try await settled(server)
            let log = server.requestLog()
            #expect(log.contains { $0.path.hasPrefix("/v1/auth_tokens/token/") && $0.status == 200 })
            #expect(!log.contains { $0.path.contains("peer-secret") })
        }
    }
}
