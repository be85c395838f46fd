import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// The second provider and the Flickr-only commands, through the real
    /// binary against one sandbox.
    @Suite("Providers")
    struct Providers {
        /// `--provider shutterstock` against the harness sandbox, with a token
        /// it accepts (any non-empty Bearer token).
        private func shutterstockRun(
            _ app: FlickrApp, sandbox: SandboxHarness, _ arguments: [String]
        ) async throws -> ProcessRunner.Result {
            var environment = app.environment
            environment["SHUTTERSTOCK_API_TOKEN"] = "e2e-token"
            return try await ProcessRunner.run(
                try Binaries.flickr,
                arguments: arguments + ["--provider", "shutterstock", "--api-url", sandbox.baseURL.absoluteString],
                environment: environment)
        }

        private func jsonLines(_ result: ProcessRunner.Result) -> [[String: Any]] {
            result.outputText.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        @Test func shutterstockJSONMatchesTheCatalogAndNamesTheProvider() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await shutterstockRun(app, sandbox: sandbox, ["search", "kittens", "--json", "--page", "2"])
                #expect(result.status == .exited(0), "\(result.transcript)")
                let lines = jsonLines(result)
                // Shutterstock's default page size is 20.
                let expected = sandbox.catalog.search(text: "kittens")[20..<40].map(sandbox.catalog.photo(at:))
                #expect(lines.compactMap { $0["id"] as? String } == expected.map(\.id))
                #expect(lines.allSatisfy { $0["provider"] as? String == "shutterstock" })
                #expect(lines.compactMap { $0["owner"] as? String }.count == 20, "contributor ids")
                #expect(lines.allSatisfy { ($0["image_url"] as? String)?.contains("1000w") == true }, "preview_1000")
                #expect(!result.errorText.contains("e2e-token"), "the token never shows")
            }
        }

        /// The official command-line tool and the app see the same page.
        @Test(.enabled(if: Self.cli != nil, "shutterstock-cli is not installed (Scripts/lib/peers.sh installs it)"))
        func theOfficialCLIAndTheAppAgreeOnIdsAndOrder() async throws {
            let cli = try #require(Self.cli)
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let ours = try await shutterstockRun(
                    app, sandbox: sandbox, ["search", "forest", "lake", "--json", "--page", "3", "--per-page", "9"])
                var environment = app.environment
                environment["SHUTTERSTOCK_CUSTOM_URL"] = sandbox.baseURL.absoluteString
                environment["SHUTTERSTOCK_API_TOKEN"] = "e2e-token"
                let theirs = try await ProcessRunner.run(
                    cli, arguments: ["images", "search-images", "--query", "forest lake", "--per-page", "9", "--page", "3"],
                    environment: environment)
                #expect(theirs.status == .exited(0), "\(theirs.transcript)")
                let body = try JSONSerialization.jsonObject(with: Data(theirs.standardOutput)) as? [String: Any]
                let cliIDs = (body?["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                let appIDs = jsonLines(ours).compactMap { $0["id"] as? String }
                #expect(!appIDs.isEmpty)
                #expect(appIDs == cliIDs, "app \(appIDs) vs CLI \(cliIDs)")
            }
        }

        @Test func providerCommandSwitchesAndRepeatsTheQuery() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(extraEnvironment: [
                    "SHUTTERSTOCK_API_TOKEN": "e2e-token", "SHUTTERSTOCK_API_URL": sandbox.baseURL.absoluteString,
                ])
                try await process.waitForFirstListing()
                var mark = process.mark()
                try await process.enter("kittens")
                _ = try await process.waitForHeader(page: 1, after: mark)
                #expect(process.text(since: mark).contains("Flickr at 127.0.0.1 · “kittens”"), "\(process.text(since: mark))")

                mark = process.mark()
                try await process.enter("/provider shutterstock")
                try await process.waitFor(text: "Now searching Shutterstock at 127.0.0.1", after: mark)
                let header = try await process.waitForHeader(page: 1, after: mark)
                #expect(header.total == sandbox.catalog.search(text: "kittens").count)
                #expect(process.text(since: mark).contains("Shutterstock at 127.0.0.1 · “kittens”"))
                let first = sandbox.catalog.photo(at: sandbox.catalog.search(text: "kittens")[0])
                try await process.waitFor("result 1 from Shutterstock") { _, screen in
                    screenShowsLabel(screen, number: 1, title: first.title, below: header)
                }

                mark = process.mark()
                try await process.enter("/provider nikon")
                try await process.waitFor(text: "Unknown provider", after: mark)
                #expect(try await process.quit() == .exited(0))
            }
        }

        /// Without Shutterstock credentials, `/provider shutterstock` gets the
        /// embedded sandbox, started only then.
        @Test func switchingToAServiceWithoutCredentialsUsesTheSandbox() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch()
                try await process.waitForFirstListing()
                #expect(!process.outputText.contains("embedded sandbox"), "Flickr has a key: no sandbox yet")
                let mark = process.mark()
                try await process.enter("/provider shutterstock")
                try await process.waitFor(text: "Now searching Shutterstock (sandbox)", after: mark)
                try await process.enter("kittens")
                _ = try await process.waitForHeader(page: 1, after: mark)
                #expect(process.text(since: mark).contains("Shutterstock (sandbox) · “kittens”"), "\(process.text(since: mark))")
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func infoPrintsTheDetailsAsTextAndJSON() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let photo = sandbox.catalog.photo(at: 3)
                let text = try await app.run(["info", photo.id])
                #expect(text.status == .exited(0), "\(text.transcript)")
                #expect(text.outputText.hasPrefix(photo.title + "\n"), "\(text.outputText)")
                #expect(text.outputText.contains("taken: \(photo.dateTaken)"))
                #expect(text.outputText.contains("licence: "))

                let json = try await app.run(["info", photo.id, "--json"])
                let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [String: Any])
                #expect(object["id"] as? String == photo.id)
                #expect(object["owner"] as? String == photo.owner)
                #expect(object["tags"] is [String])

                let missing = try await app.run(["info", "1"])
                #expect(missing.status == .exited(1))
                #expect(missing.errorText.contains("not found") || missing.errorText.contains("Photo"), "\(missing.transcript)")
            }
        }

        @Test func withoutCredentialsEveryScriptingModeSaysItUsesTheSandbox() async throws {
            let app = try FlickrApp(apiURL: URL(string: "http://127.0.0.1:9/")!)
            let search = try await app.run(["search", "kittens", "--json", "--per-page", "2"], withProvider: false)
            #expect(search.status == .exited(0), "\(search.transcript)")
            #expect(search.errorText.contains("embedded sandbox"), "stderr says so: \(search.transcript)")
            #expect(jsonLines(search).count == 2, "stdout stays JSON Lines")

            let empty = try await ProcessRunner.run(
                try Binaries.flickr, arguments: ["search", "kittens"],
                environment: app.environment.merging(["FLICKR_API_KEY": ""]) { $1 })
            #expect(empty.status != .exited(0))
            #expect(empty.errorText.contains("FLICKR_API_KEY is empty"), "\(empty.transcript)")
        }

        /// `flickr sandbox --api-key K` accepts K and refuses any other key
        /// (the interactive app's own --api-key must not take it).
        @Test func sandboxSubcommandKeepsItsOwnAPIKey() async throws {
            let server = try PTYProcess(
                executable: try Binaries.flickr, arguments: ["sandbox", "--port", "0", "--api-key", "only-this"],
                environment: PTYProcess.baseEnvironment())
            try await server.waitFor(text: "one API key accepted")
            let listening = server.outputText.split(whereSeparator: \.isNewline).first { $0.hasPrefix("listening on ") }
            let base = try #require(listening.map { String($0.dropFirst("listening on ".count)) })
            let rest = base + "/services/rest/"
            let app = try FlickrApp(apiURL: try #require(URL(string: rest)), apiKey: "only-this")
            let accepted = try await app.run(["search", "kittens", "--per-page", "1"])
            #expect(accepted.status == .exited(0), "\(accepted.transcript)")
            let other = try FlickrApp(apiURL: try #require(URL(string: rest)), apiKey: "another")
            let refused = try await other.run(["search", "kittens", "--per-page", "1"])
            #expect(refused.status == .exited(1), "\(refused.transcript)")
            #expect(refused.errorText.contains("key"), "\(refused.transcript)")
            server.send(signal: SIGINT)
            #expect(try await server.waitForExit() == .exited(0))
        }

        static var cli: String? {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            return path.split(separator: ":").map { "\($0)/shutterstock" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
    }
}
