import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// The third provider through the real binary, against the sandbox's
    /// Openverse API (`OPENVERSE_API_URL` or `--api-url`).
    @Suite("Openverse")
    struct Openverse {
        private func openverseRun(_ app: FlickrApp, sandbox: SandboxHarness, _ arguments: [String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(
                try Binaries.flickr,
                arguments: arguments + ["--provider", "openverse", "--api-url", sandbox.baseURL.absoluteString],
                environment: app.environment)
        }

        private func jsonLines(_ result: ProcessRunner.Result) -> [[String: Any]] {
            result.outputText.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        @Test func jsonLinesCarryTheLicenceTheCreatorAndTheCreditLine() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await openverseRun(app, sandbox: sandbox, ["search", "kittens", "--json", "--pages", "2"])
                #expect(result.status == .exited(0), "\(result.transcript)")
                let lines = jsonLines(result)
                #expect(lines.count == 40, "Openverse's anonymous page is 20")
                #expect(Set(lines.compactMap { $0["id"] as? String }).count == 40)
                #expect(lines.allSatisfy { $0["provider"] as? String == "openverse" })
                for line in lines {
                    let license = try #require(line["license"] as? String, "\(line)")
                    #expect(license.hasPrefix("CC") || license.hasPrefix("PDM"), "\(license)")
                    #expect((line["license_url"] as? String)?.hasPrefix("https://creativecommons.org/") == true)
                    #expect(line["creator"] is String && line["attribution"] is String)
                    #expect(line["license_id"] == nil, "Openverse has no Flickr licence id")
                    #expect((line["thumbnail_url"] as? String)?.hasSuffix("/thumb/") == true)
                }
                #expect(!result.errorText.contains("sandbox"), "Openverse is never silently the sandbox: \(result.errorText)")
            }
        }

        @Test func flickrLinesCarryTheLicenceIdAndItsName() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await app.run(["search", "kittens", "license:cc0,pdm", "--json"])
                #expect(result.status == .exited(0), "\(result.transcript)")
                let lines = jsonLines(result)
                #expect(!lines.isEmpty)
                for line in lines {
                    #expect([9, 10].contains(line["license_id"] as? Int ?? -1), "\(line)")
                    #expect(["CC0 1.0", "PDM 1.0"].contains(line["license"] as? String ?? ""))
                    #expect((line["attribution"] as? String)?.contains(" is marked with ") == true)
                }
            }
        }

        /// Openverse's own Python client and the app see the same page.
        @Test(.enabled(if: Self.python != nil, "Python openverse-api-client is not installed (Scripts/lib/peers.sh installs it)"))
        func theOfficialClientAndTheAppAgreeOnIdsAndOrder() async throws {
            let python = try #require(Self.python)
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let ours = try await openverseRun(app, sandbox: sandbox, ["search", "kittens", "--json", "--pages", "2"])
                let theirs = try await ProcessRunner.run(
                    python, arguments: [Self.peerScript, sandbox.baseURL.absoluteString, "kittens"], environment: app.environment)
                #expect(theirs.status == .exited(0), "\(theirs.transcript)")
                let report = try #require(try JSONSerialization.jsonObject(with: Data(theirs.standardOutput)) as? [String: Any])
                let clientIDs = (report["anonymous_page_1"] as? [String] ?? []) + (report["anonymous_page_2"] as? [String] ?? [])
                let appIDs = jsonLines(ours).compactMap { $0["id"] as? String }
                #expect(appIDs.count == 40)
                #expect(appIDs == clientIDs, "app \(appIDs.prefix(3)) vs client \(clientIDs.prefix(3))")
            }
        }

        @Test func providerOpenverseSwitchesAndDrawsItsPage() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(extraEnvironment: ["OPENVERSE_API_URL": sandbox.baseURL.absoluteString])
                try await process.waitForFirstListing()
                var mark = process.mark()
                try await process.enter("kittens")
                _ = try await process.waitForHeader(page: 1, after: mark)

                mark = process.mark()
                try await process.enter("/provider openverse")
                try await process.waitFor(text: "Now searching Openverse at 127.0.0.1", after: mark)
                let header = try await process.waitForHeader(page: 1, after: mark)
                #expect(process.text(since: mark).contains("Openverse at 127.0.0.1 · “kittens”"), "\(process.text(since: mark))")
                #expect(header.pages <= 20, "anonymous depth")

                mark = process.mark()
                try await process.enter("/recent")
                try await process.waitFor(text: "Openverse has no recent photos; type words to search.", after: mark)
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func offlineItSaysHowToUseTheSandbox() async throws {
            let app = try FlickrApp(apiURL: try #require(URL(string: "http://127.0.0.1:9/")))
            let result = try await ProcessRunner.run(
                try Binaries.flickr, arguments: ["search", "kittens", "--provider", "openverse", "--api-url", "http://127.0.0.1:9"],
                environment: app.environment)
            #expect(result.status == .exited(1), "\(result.transcript)")
            #expect(result.errorText.contains("flickr sandbox --port 8080"), "\(result.errorText)")
        }

        @Test func anonymousPagesOverTwentyAreRefusedBeforeAsking() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await openverseRun(app, sandbox: sandbox, ["search", "kittens", "--per-page", "50"])
                #expect(result.status != .exited(0))
                #expect(result.errorText.contains("1–20 results per page"), "\(result.errorText)")
            }
        }

        static let peerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SandboxTests/Peers/openverse_peer.py").path

        /// A Python 3 that can import Openverse's client.
        static let python: String? = {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            guard let python = path.split(separator: ":").map({ "\($0)/python3" })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            else { return nil }
            let probe = try? ProcessRunner.runBlocking(
                python, arguments: ["-c", "import openverse_api_client"], environment: ProcessInfo.processInfo.environment)
            return probe?.status == .exited(0) ? python : nil
        }()
    }
}
