import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// The fourth provider through the real binary, against the sandbox's
    /// `/w/api.php` (`--api-url` or `COMMONS_API_URL`).
    @Suite("Wikimedia Commons")
    struct Commons {
        static func endpoint(_ sandbox: SandboxHarness) -> String {
            sandbox.baseURL.appendingPathComponent("w/api.php").absoluteString
        }

        private func commonsRun(_ app: FlickrApp, sandbox: SandboxHarness, _ arguments: [String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(
                try Binaries.flickr,
                arguments: arguments + ["--provider", "commons", "--api-url", Self.endpoint(sandbox)],
                environment: app.environment)
        }

        private func jsonLines(_ result: ProcessRunner.Result) -> [[String: Any]] {
            result.outputText.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        @Test func jsonLinesCarryTheLicenceTheArtistAndTheFilePage() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await commonsRun(app, sandbox: sandbox, ["search", "kittens", "--json", "--pages", "2", "--per-page", "30"])
                #expect(result.status == .exited(0), "\(result.transcript)")
                let lines = jsonLines(result)
                #expect(lines.count == 60)
                #expect(Set(lines.compactMap { $0["id"] as? String }).count == 60)
                #expect(lines.map { $0["index"] as? Int ?? 0 } == Array(1...60))
                for line in lines {
                    #expect(line["provider"] as? String == "commons")
                    #expect(line["license"] is String && line["creator"] is String && line["attribution"] is String, "\(line)")
                    #expect(line["license_id"] == nil, "Commons has no Flickr licence id")
                    #expect((line["thumbnail_url"] as? String)?.contains("/wikipedia/commons/thumb/") == true)
                }
                #expect(!result.errorText.contains("sandbox"), "Commons is never silently the sandbox: \(result.errorText)")
            }
        }

        /// mwclient (unmodified) and the app see the same files in the same order.
        @Test(.enabled(if: Self.python != nil, "Python mwclient is not installed (Scripts/lib/peers.sh installs it)"))
        func mwclientAndTheAppAgreeOnIdsAndOrder() async throws {
            let python = try #require(Self.python)
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let ours = try await commonsRun(app, sandbox: sandbox, ["search", "kittens", "--json", "--pages", "2", "--per-page", "30"])
                #expect(ours.status == .exited(0), "\(ours.transcript)")
                let host = "\(sandbox.baseURL.host ?? "127.0.0.1"):\(sandbox.port)"
                let theirs = try await ProcessRunner.run(
                    python, arguments: [Self.peerScript, host, "kittens", "30", "2"], environment: app.environment)
                #expect(theirs.status == .exited(0), "\(theirs.transcript)")
                let report = try #require(try JSONSerialization.jsonObject(with: Data(theirs.standardOutput)) as? [String: Any])
                #expect(report["problems"] as? [String] == [], "\(report["problems"] ?? "")")
                #expect((report["generator"] as? String)?.hasPrefix("MediaWiki") == true)
                #expect(report["file_namespace"] as? String == "File")
                let appIDs = jsonLines(ours).compactMap { $0["id"] as? String }
                #expect(appIDs.count == 60)
                #expect(report["generator_ids"] as? [String] == appIDs)
                #expect(report["search_ids"] as? [String] == appIDs, "list=search ranks them the same")
                print("mwclient ids, gsrsearch=kittens, 2 pages of 30: \((report["generator_ids"] as? [String] ?? []).prefix(10).joined(separator: " ")) …")
            }
        }

        @Test func providerCommonsSwitchesSearchesOpensAndReadsFileLinks() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(
                    ["--layout", "list", "--images", "none"], extraEnvironment: ["COMMONS_API_URL": Self.endpoint(sandbox)])
                try await process.waitForFirstListing()
                var mark = process.mark()
                try await process.enter("kittens")
                _ = try await process.waitForHeader(page: 1, after: mark)

                mark = process.mark()
                try await process.enter("/provider commons")
                try await process.waitFor(text: "Now searching Wikimedia Commons at 127.0.0.1", after: mark)
                _ = try await process.waitForHeader(page: 1, after: mark)
                #expect(process.text(since: mark).contains("Wikimedia Commons at 127.0.0.1 · “kittens”"), "\(process.text(since: mark))")

                mark = process.mark()
                try await process.enter("/open 1")
                try await process.waitFor(text: "#1 ", after: mark)
                try await process.waitFor(text: "/wiki/File:", after: mark)
                // A file's page, pasted as Commons' own link, opens that file: its
                // title (with spaces, unlike the echoed link's underscores) follows.
                let first = try await commonsRun(app, sandbox: sandbox, ["search", "kittens", "--json", "--per-page", "1"])
                let line = try #require(jsonLines(first).first, "\(first.transcript)")
                let title = try #require(line["title"] as? String)
                let credit = try #require(line["attribution"] as? String)
                let page = try #require(credit.range(of: "/wiki/File:"))
                // The credit line links the page in parentheses: "(…/wiki/File:NAME) is licensed …".
                let rest = credit[page.upperBound...]
                let end = try #require(rest.range(of: ") is "), "\(credit)")
                let file = String(rest[..<end.lowerBound])
                #expect(file.hasSuffix(".jpg") || file.hasSuffix(".webm"), "the whole file name: \(file)")
                #expect(title.contains(" "), "a title whose link form differs: \(title)")
                mark = process.mark()
                try await process.enter("https://commons.wikimedia.org/wiki/File:" + file)
                try await process.waitFor(text: title, after: mark)
                #expect(!process.text(since: mark).contains("has no file"), "\(process.text(since: mark))")

                mark = process.mark()
                try await process.enter("/recent")
                try await process.waitFor(text: "Wikimedia Commons has no recent photos here", after: mark)

                mark = process.mark()
                try await process.enter("cat type:illustration")
                try await process.waitFor(text: "cannot tell illustrations from photos", after: mark)
                #expect(try await process.quit() == .exited(0))
            }
        }

        /// One file's details by its page id, and a download whose credits
        /// name each file's licence and artist.
        @Test func infoByPageIdAndADownloadWithItsCredits() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let search = try await commonsRun(app, sandbox: sandbox, ["search", "lighthouse", "--json", "--per-page", "3"])
                let ids = jsonLines(search).compactMap { $0["id"] as? String }
                let id = try #require(ids.first, "\(search.transcript)")

                let info = try await commonsRun(app, sandbox: sandbox, ["info", id, "--json"])
                #expect(info.status == .exited(0), "\(info.transcript)")
                let facts = try #require(try JSONSerialization.jsonObject(with: Data(info.standardOutput)) as? [String: Any])
                #expect(facts["id"] as? String == id)

                let out = app.home.url.appendingPathComponent("commons-out")
                let download = try await commonsRun(
                    app, sandbox: sandbox, ["download", "lighthouse", "--per-page", "3", "--pages", "1", "--size", "q", "--out", out.path])
                #expect(download.status == .exited(0), "\(download.transcript)")
                let credits = try String(contentsOf: out.appendingPathComponent("CREDITS.md"), encoding: .utf8)
                for line in jsonLines(search) {
                    #expect(credits.contains(line["license"] as? String ?? "?"), "\(credits)")
                }
            }
        }

        @Test func offlineItSaysHowToUseTheSandbox() async throws {
            let app = try FlickrApp(apiURL: try #require(URL(string: "http://127.0.0.1:9/")))
            let result = try await ProcessRunner.run(
                try Binaries.flickr, arguments: ["search", "kittens", "--provider", "commons", "--api-url", "http://127.0.0.1:9/w/api.php"],
                environment: app.environment)
            #expect(result.status == .exited(1), "\(result.transcript)")
            #expect(result.errorText.contains("--api-url http://127.0.0.1:8080/w/api.php"), "\(result.errorText)")
        }

        static let peerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SandboxTests/Peers/mwclient_peer.py").path

        /// A Python 3 that can import mwclient.
        static let python: String? = {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            guard let python = path.split(separator: ":").map({ "\($0)/python3" })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            else { return nil }
            let probe = try? ProcessRunner.runBlocking(
                python, arguments: ["-c", "import mwclient"], environment: ProcessInfo.processInfo.environment)
            return probe?.status == .exited(0) ? python : nil
        }()
    }
}
