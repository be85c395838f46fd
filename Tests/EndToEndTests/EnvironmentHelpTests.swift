import Foundation
import PhotoCore
import Services
import Testing
import TestSupport

extension EndToEnd {
    /// The environment's sentences come from where the variables are read:
    /// each provider's descriptor. `--help` (and so the dump-help JSON the
    /// man page is written from) carries every one, and Scripts/lib/manpage.py
    /// writes them, refusing a variable `--help` names without a sentence.
    @Suite("Environment help")
    struct EnvironmentHelp {
        static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()

        static func dumpHelp() async throws -> [String: Any] {
            let result = try await ProcessRunner.run(try Binaries.flickr, arguments: ["--experimental-dump-help"])
            #expect(result.status == .exited(0), "\(result.transcript)")
            let json = try JSONSerialization.jsonObject(with: Data(result.outputText.utf8)) as? [String: Any]
            return try #require(json)
        }

        @Test func helpCarriesEveryDescriptorsVariablesWithTheirSentences() async throws {
            let json = try await Self.dumpHelp()
            let discussion = try #require((json["command"] as? [String: Any])?["discussion"] as? String)
            for variable in ProviderModule.standard.flatMap(\.descriptor.variables) {
                #expect(discussion.contains("\n  \(variable.name)  \(variable.sentence)"),
                        "--help has no sentence for \(variable.name): \(discussion.suffix(400))")
            }
        }

        /// The man page's ENVIRONMENT has the descriptors' sentences, and a
        /// variable named in `--help` with no sentence stops manpage.py.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed"))
        func manPageTakesTheSentencesAndRefusesAnUndocumentedVariable() async throws {
            var json = try await Self.dumpHelp()
            let folder = try TemporaryDirectory(prefix: "flickr-manpage")
            let prompt = folder.url.appendingPathComponent("prompt.txt")
            try Data("  /help              this list\n".utf8).write(to: prompt)
            let script = Self.packageRoot.appendingPathComponent("Scripts/lib/manpage.py").path

            func manPage(_ json: [String: Any]) async throws -> ProcessRunner.Result {
                let dump = folder.url.appendingPathComponent("dump.json")
                try JSONSerialization.data(withJSONObject: json).write(to: dump)
                return try await ProcessRunner.run(
                    "/usr/bin/python3", arguments: [script, dump.path, prompt.path, "0.1.0", "2026-01-01"])
            }

            let page = try await manPage(json)
            #expect(page.status == .exited(0), "\(page.transcript)")
            let commons = try #require(ProviderModule.standard.first { $0.descriptor.service.id == "commons" })
            let sentence = commons.descriptor.endpoint.sentence
            #expect(page.outputText.contains(String(sentence.prefix(30))), "the man page lacks the descriptor's sentence: \(sentence)")

            var command = try #require(json["command"] as? [String: Any])
            command["abstract"] = "Search photos; NOBODYS_UNDOCUMENTED_SETTING changes nothing."
            json["command"] = command
            let refused = try await manPage(json)
            #expect(refused.status != .exited(0), "manpage.py wrote a page naming an undocumented variable")
            #expect(refused.errorText.contains("NOBODYS_UNDOCUMENTED_SETTING"), "\(refused.transcript)")
        }
    }
}
