import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// What an outside attack found in signing in at the prompt and in the
    /// signed session: the real app in a pty against a sandbox.
    @Suite("Signing in, hardened", .timeLimit(.minutes(3)))
    struct SignInHardening {
        static let key = "fedcba9876543210fedcba9876543210"
        static let secret = "hardening-secret/with+odd&chars"

        private func withApp(_ body: (FlickrApp, SandboxHarness, [String: String]) async throws -> Void) async throws {
            try await withSignInSandbox(key: Self.key, secret: Self.secret, body)
        }

        /// `/login` at the prompt up to the address; the code its page shows.
        private func startLogin(_ process: PTYProcess, _ sandbox: SandboxHarness) async throws -> String {
            let mark = process.mark()
            try await process.enter("/login")
            try await process.waitFor(text: "&perms=write", after: mark)
            let shown = process.text(since: mark)
            let start = try #require(shown.range(of: "http://127.0.0.1:\(sandbox.port)/services/oauth/authorize?oauth_token="))
            let address = try #require(URL(string: String(shown[start.lowerBound...].prefix { !$0.isWhitespace })))
            try await process.waitFor(screenContains: "signing in: type the code")
            let page = try await sandbox.text(of: address)
            let codeStart = try #require(page.range(of: "<span id=\"verifier\">"))
            return String(page[codeStart.upperBound...].prefix { $0 != "<" })
        }

        @Test func whileLoginWaitsCommandsStayCommandsTextIsRefusedAndTheCodeIsNeverInHistory() async throws {
            try await withApp { app, sandbox, extra in
                let process = try app.launch(extraEnvironment: extra)
                try await process.waitForFirstListing()
                let code = try await startLogin(process, sandbox)

                // Text that is not a code is refused here, not sent to Flickr.
                var mark = process.mark()
                try await process.enter("cats")
                try await process.waitFor(text: "not a sign-in code", after: mark)
                // A command is a command: /me answers as it would (nobody is signed in yet).
                mark = process.mark()
                try await process.enter("/me")
                try await process.waitFor(text: "Nobody is signed in", after: mark)
                // The sign-in still waits: the code completes it.
                mark = process.mark()
                try await process.enter(code)
                try await process.waitFor(text: "Signed in to", after: mark)

                // Ctrl-C abandons a sign-in under way.
                _ = try await startLogin(process, sandbox)
                mark = process.mark()
                try process.sendControlC()
                try await process.waitFor(text: "Sign-in abandoned", after: mark)
                #expect(try await process.quit() == .exited(0))

                let history = try String(
                    contentsOf: app.stateDirectory.appendingPathComponent("flickr/history"), encoding: .utf8)
                #expect(history.contains("/login"), "\(history)")
                #expect(!history.contains(code), "the sign-in code is in the history: \(history)")
                #expect(!history.contains("cats"), "a line typed while signing in is in the history: \(history)")
            }
        }

        @Test func afterLogoutTheNextLaunchDoesNotShowTheSignedListing() async throws {
            try await withApp { app, sandbox, extra in
                let session = app.stateDirectory.appendingPathComponent("flickr/session.json")
                var process = try app.launch(extraEnvironment: extra)
                try await process.waitForFirstListing()
                let code = try await startLogin(process, sandbox)
                var mark = process.mark()
                try await process.enter(code)
                try await process.waitFor(text: "Signed in to", after: mark)
                mark = process.mark()
                try await process.enter("/me")
                try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor(text: "🔒 ", after: mark)
                #expect(try await process.quit() == .exited(0))
                #expect(FileManager.default.fileExists(atPath: session.path))

                let logout = try await ProcessRunner.run(
                    try Binaries.flickr, arguments: ["logout"] + app.providerArguments,
                    environment: app.environment.merging(extra) { $1 })
                #expect(logout.status == .exited(0), "\(logout.transcript)")
                #expect(!FileManager.default.fileExists(atPath: session.path), "the signed listing outlived logout")

                process = try app.launch(extraEnvironment: extra)
                try await process.waitForFirstListing()
                #expect(!process.outputText.contains("from last time"), "\(process.transcript())")
                #expect(!process.outputText.contains("🔒"), "\(process.transcript())")
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func favesRefusesAPagePastTheLast() async throws {
            try await withApp { app, sandbox, extra in
                let result = try await ProcessRunner.run(
                    try Binaries.flickr, arguments: ["faves", sandbox.catalog.wellKnownOwner.username, "--page", "99999999999"] + app.providerArguments,
                    environment: app.environment.merging(extra) { $1 })
                #expect(result.status == .exited(1), "\(result.transcript)")
                #expect(result.errorText.contains("past the last page"), "\(result.transcript)")
                #expect(!result.outputText.contains("page 1000000"), "\(result.transcript)")
            }
        }
    }
}
