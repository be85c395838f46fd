import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// The executable as flags and wiring: what an id looks like comes from
    /// the provider, flags that name values list them, help names what the
    /// registry holds.
    @Suite("Command line")
    struct CommandLine {
        private func openverseRun(_ app: FlickrApp, sandbox: SandboxHarness, _ arguments: [String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(
                try Binaries.flickr,
                arguments: arguments + ["--provider", "openverse", "--api-url", sandbox.baseURL.absoluteString],
                environment: app.environment)
        }

        @Test func infoTakesAnOpenverseUUIDAndSaysWhatAnIdLooksLike() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let search = try await openverseRun(app, sandbox: sandbox, ["search", "kittens", "--json"])
                let first = try #require(search.outputText.split(separator: "\n").first, "\(search.transcript)")
                let line = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
                let id = try #require(line["id"] as? String)

                let info = try await openverseRun(app, sandbox: sandbox, ["info", id, "--json"])
                #expect(info.status == .exited(0), "\(info.transcript)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(info.standardOutput)) as? [String: Any])
                #expect(object["id"] as? String == id)

                let mistyped = try await openverseRun(app, sandbox: sandbox, ["info", "12345"])
                #expect(mistyped.status != .exited(0))
                #expect(mistyped.errorText.contains("A photo id is a UUID"), "\(mistyped.transcript)")

                let onFlickr = try await app.run(["info", id])
                #expect(onFlickr.status != .exited(0))
                #expect(onFlickr.errorText.contains("A photo id is letters and digits"), "\(onFlickr.transcript)")
            }
        }

        @Test func sandboxFlagsTakeOnlyTheValuesTheyName() async throws {
            for (flag, known) in [("--fault", "api-error"), ("--fault-scope", "images"), ("--hostile-case", "duplicate-ids")] {
                let result = try await ProcessRunner.run(try Binaries.flickr, arguments: ["sandbox", flag, "nonsense"])
                #expect(result.status != .exited(0), "\(flag)")
                #expect(result.errorText.contains("nonsense") && result.errorText.contains(known), "\(result.transcript)")
            }
            let size = try await ProcessRunner.run(try Binaries.flickr, arguments: ["download", "kittens", "--out", "x", "--size", "huge"])
            #expect(size.status != .exited(0))
            #expect(size.errorText.contains("huge") && size.errorText.contains("- sq"), "\(size.transcript)")
        }

        @Test func versionAndHelpComeFromOnePlace() async throws {
            let version = try await ProcessRunner.run(try Binaries.flickr, arguments: ["--version"])
            #expect(version.status == .exited(0))
            #expect(version.outputText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3,
                    "\(version.transcript)")
            // The abstract names every provider the registry holds, as the list under it does.
            let help = try await ProcessRunner.run(try Binaries.flickr, arguments: ["--help"])
            let abstract = try #require(help.outputText.split(separator: "\n").first, "\(help.transcript)")
            for name in ["Flickr", "Shutterstock", "Openverse"] {
                #expect(abstract.contains(name), "\(name): \(abstract)")
            }
        }
    }
}
