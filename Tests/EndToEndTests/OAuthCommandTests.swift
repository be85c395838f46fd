import Foundation
import Sandbox
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// `flickr login`, `whoami` and `logout`: the real binary against a sandbox over loopback.
    @Suite("Signing in", .timeLimit(.minutes(3)))
    struct SigningIn {
        static let key = "0123456789abcdef0123456789abcdef"
        static let secret = "e2e-secret/with+odd&chars"

        private func withSignedInApp(_ body: (FlickrApp, SandboxHarness, [String: String], [String]) async throws -> Void) async throws {
            try await withSignInSandbox(key: Self.key, secret: Self.secret) { app, sandbox, signIn in
                try await body(app, sandbox, app.environment.merging(signIn) { $1 }, app.providerArguments)
            }
        }

        private func run(_ arguments: [String], _ environment: [String: String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(try Binaries.flickr, arguments: arguments, environment: environment)
        }

        private func accountFile(_ environment: [String: String]) -> String {
            (environment["XDG_CONFIG_HOME"] ?? "") + "/flickr/flickr-account.json"
        }

        @Test func twoStepLoginWhoamiAndLogout() async throws {
            try await withSignedInApp { _, sandbox, environment, provider in
                var transcripts: [String] = []
                let started = try await run(["login", "--no-wait"] + provider, environment)
                transcripts.append(started.transcript)
                #expect(started.status == .exited(0), "\(started.transcript)")
                let address = started.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(address.hasPrefix("http://127.0.0.1:\(sandbox.port)/services/oauth/authorize?oauth_token="))
                #expect(address.hasSuffix("&perms=write"))
                var status = stat()
                let pendingFile = (environment["XDG_CONFIG_HOME"] ?? "") + "/flickr/flickr-pending-login.json"
                #expect(stat(pendingFile, &status) == 0 && status.st_mode & 0o777 == 0o600)

                let page = try await sandbox.text(of: try #require(URL(string: address)))
                let start = try #require(page.range(of: "<span id=\"verifier\">"))
                let code = String(page[start.upperBound...].prefix { $0 != "<" })

                let finished = try await run(["login", "--verifier", code] + provider, environment)
                transcripts.append(finished.transcript)
                let owner = sandbox.catalog.wellKnownOwner
                #expect(finished.status == .exited(0), "\(finished.transcript)")
                #expect(finished.outputText.contains("as \(owner.realName) (\(owner.username), \(owner.nsid))"), "\(finished.transcript)")
                #expect(stat(accountFile(environment), &status) == 0 && status.st_mode & 0o777 == 0o600)
                #expect(stat((environment["XDG_CONFIG_HOME"] ?? "") + "/flickr", &status) == 0 && status.st_mode & 0o777 == 0o700)
                #expect(stat(pendingFile, &status) != 0, "the pending token outlived the exchange")

                let whoami = try await run(["whoami"] + provider, environment)
                transcripts.append(whoami.transcript)
                #expect(whoami.status == .exited(0), "\(whoami.transcript)")
                #expect(whoami.outputText.contains(owner.nsid))

                // Neither the secret nor the tokens appear in any output, nor in the state or cache folders.
                let stored = try String(contentsOfFile: accountFile(environment), encoding: .utf8)
                let fields = try #require(try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: String])
                let secrets = [Self.secret, fields["oauth_token"] ?? "?", fields["oauth_token_secret"] ?? "?"]
                for transcript in transcripts {
                    #expect(!secrets.contains { transcript.contains($0) }, "\(transcript)")
                }
                #expect(!stored.contains(Self.secret))
                for folder in [environment["XDG_STATE_HOME"], environment["XDG_CACHE_HOME"]].compactMap({ $0 }) {
                    let files = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
                    for file in files {
                        let text = (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? ""
                        #expect(!secrets.contains { text.contains($0) }, "\(file)")
                    }
                }

                let logout = try await run(["logout"], environment)
                #expect(logout.status == .exited(0), "\(logout.transcript)")
                #expect(stat(accountFile(environment), &status) != 0)
                let nobody = try await run(["whoami"] + provider, environment)
                #expect(nobody.status != .exited(0))
                #expect(nobody.errorText.contains("Nobody is signed in"), "\(nobody.transcript)")
            }
        }

        @Test func refusedVerifierLeavesNobodySignedIn() async throws {
            try await withSignedInApp { _, _, environment, provider in
                let refused = try await run(["login", "--verifier", "000-000-000"] + provider, environment)
                #expect(refused.status != .exited(0))
                #expect(refused.errorText.contains("refused the verifier"), "\(refused.transcript)")
                #expect(refused.errorText.contains("nobody is signed in"))
                var status = stat()
                #expect(stat(accountFile(environment), &status) != 0)
            }
        }

        @Test func revokedTokenSaysHowToSignInAgain() async throws {
            try await withSignedInApp { _, sandbox, environment, provider in
                let started = try await run(["login", "--no-wait"] + provider, environment)
                let address = try #require(URL(string: started.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
                let page = try await sandbox.text(of: address)
                let start = try #require(page.range(of: "<span id=\"verifier\">"))
                let finished = try await run(["login", "--verifier", String(page[start.upperBound...].prefix { $0 != "<" })] + provider, environment)
                #expect(finished.status == .exited(0), "\(finished.transcript)")
                // A token the server no longer honours, as after a revocation.
                let stored = try String(contentsOfFile: accountFile(environment), encoding: .utf8)
                let fields = try #require(try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: String])
                let revoked = stored.replacingOccurrences(of: fields["oauth_token"] ?? "?", with: "72157000000000-0000000000000000")
                try revoked.write(toFile: accountFile(environment), atomically: true, encoding: .utf8)
                // Private as the app writes it: a file others may read is refused before any call.
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: accountFile(environment))
                let whoami = try await run(["whoami"] + provider, environment)
                #expect(whoami.status != .exited(0))
                #expect(whoami.errorText.contains("expired or was revoked"), "\(whoami.transcript)")
                #expect(whoami.errorText.contains("flickr login"))
            }
        }

        @Test func missingSecretIsNamed() async throws {
            try await withSignedInApp { _, _, environment, provider in
                var environment = environment
                environment["FLICKR_API_SECRET"] = nil
                let run = try await run(["login", "--no-wait"] + provider, environment)
                #expect(run.status != .exited(0))
                #expect(run.errorText.contains("FLICKR_API_SECRET"), "\(run.transcript)")
            }
        }

        @Test func sandboxHelpDocumentsTheConsumerPair() async throws {
            let help = try await ProcessRunner.run(try Binaries.flickr, arguments: ["sandbox", "--help"])
            let text = help.outputText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains("sandbox-secret") && text.contains("/services/oauth/"), "\(help.transcript)")
        }
    }
}
