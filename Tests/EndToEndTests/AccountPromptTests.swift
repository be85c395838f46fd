import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// `/login`, `/me`, `/faves`, `/fave N` and `/unfave N` in the real app
    /// in a pty, against a sandbox over loopback; and nothing secret left in
    /// the history, session, caches or state folder afterwards.
    @Suite("Your account at the prompt", .timeLimit(.minutes(3)))
    struct YourAccountAtThePrompt {
        static let key = "fedcba9876543210fedcba9876543210"
        static let secret = "prompt-secret/with+odd&chars"

        /// The photo ids `flickr faves --json` lists now.
        private func faveIDs(_ app: FlickrApp, _ environment: [String: String]) async throws -> Set<String> {
            let result = try await ProcessRunner.run(
                try Binaries.flickr, arguments: ["faves", "--json", "--per-page", "500"] + app.providerArguments,
                environment: environment)
            #expect(result.status == .exited(0), "\(result.transcript)")
            return Set(result.outputText.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
            })
        }

        /// Every file under `folder` (recursively), with its text.
        private func files(under folder: String) -> [(path: String, text: String)] {
            let names = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
            return names.compactMap { name in
                let path = folder + "/" + name
                guard let data = FileManager.default.contents(atPath: path) else { return nil }
                return (path, String(decoding: data, as: UTF8.self))
            }
        }

        @Test func loginMeFavesAndFaveAtThePromptThenNothingSecretOnDisk() async throws {
            var configuration = sandboxConfiguration(latency: .zero, requiredAPIKey: Self.key)
            configuration.flickrAPISecret = Self.secret
            try await SandboxHarness.with(configuration) { sandbox in
                let app = try FlickrApp(sandbox: sandbox, apiKey: Self.key)
                let config = app.home.url.appendingPathComponent("config").path
                let environment = app.environment.merging(["XDG_CONFIG_HOME": config, "FLICKR_API_SECRET": Self.secret]) { $1 }
                let owner = sandbox.catalog.wellKnownOwner
                let process = try app.launch(extraEnvironment: ["XDG_CONFIG_HOME": config, "FLICKR_API_SECRET": Self.secret])
                try await process.waitForFirstListing()

                // Nobody signed in: a sentence, not a search for "me".
                var mark = process.mark()
                try await process.enter("/me")
                try await process.waitFor(text: "Nobody is signed in", after: mark)

                // /login: the address, then the next line is the code.
                mark = process.mark()
                try await process.enter("/login")
                try await process.waitFor(text: "&perms=write", after: mark)
                let shown = process.text(since: mark)
                let start = try #require(shown.range(of: "http://127.0.0.1:\(sandbox.port)/services/oauth/authorize?oauth_token="))
                let address = try #require(URL(string: String(shown[start.lowerBound...].prefix { !$0.isWhitespace })))
                try await process.waitFor(screenContains: "signing in: type the code")
                let page = try await sandbox.text(of: address)
                let codeStart = try #require(page.range(of: "<span id=\"verifier\">"))
                let code = String(page[codeStart.upperBound...].prefix { $0 != "<" })
                mark = process.mark()
                try await process.enter(code)
                try await process.waitFor(text: "Signed in to", after: mark)
                #expect(process.text(since: mark).contains("\(owner.username), \(owner.nsid))"), "\(process.transcript())")
                #expect(FileManager.default.fileExists(atPath: config + "/flickr/flickr-account.json"))

                // /me: your photos, signed; the non-public ones carry a lock.
                mark = process.mark()
                try await process.enter("/me")
                try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor(text: "🔒 ", after: mark)
                try await sandbox.waitForLog("a signed people.getPhotos") { log in
                    log.contains { $0.path.contains("flickr.people.getPhotos") }
                }

                // /faves: yours, signed.
                mark = process.mark()
                try await process.enter("/faves")
                try await process.waitFor(text: "your favourites · page 1 of", after: mark)

                // /fave N on a search result, seen by `flickr faves --json`; /unfave N takes it out.
                mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)
                let before = try await faveIDs(app, environment)
                mark = process.mark()
                try await process.enter("/fave 1")
                try await process.waitFor(text: "is one of your favourites now", after: mark)
                let added = try await faveIDs(app, environment).subtracting(before)
                #expect(added.count == 1, "\(added)")
                mark = process.mark()
                try await process.enter("/unfave 1")
                try await process.waitFor(text: "is no longer one of your favourites", after: mark)
                #expect(try await faveIDs(app, environment) == before)
                #expect(try await process.quit() == .exited(0))

                // The consumer secret and the tokens: in the account file only.
                let stored = try String(contentsOfFile: config + "/flickr/flickr-account.json", encoding: .utf8)
                let fields = try #require(try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: String])
                let secrets = [Self.secret, try #require(fields["oauth_token"]), try #require(fields["oauth_token_secret"])]
                #expect(!secrets.contains { process.outputText.contains($0) }, "the screen showed a secret")
                let written = files(under: app.stateDirectory.path) + files(under: app.cacheDirectory.path)
                #expect(written.contains { $0.path.contains("history") }, "the history was written: \(written.map(\.path))")
                #expect(written.contains { $0.path.contains("session") }, "the session was written: \(written.map(\.path))")
                for file in written {
                    #expect(!secrets.contains { file.text.contains($0) }, "\(file.path) holds a secret")
                    #expect(!file.text.contains("oauth_"), "\(file.path) holds a signed URL's oauth_ field")
                }
                let configFiles = files(under: config).map { URL(fileURLWithPath: $0.path).lastPathComponent }
                #expect(configFiles == ["flickr-account.json"], "\(configFiles)")
            }
        }
    }
}
