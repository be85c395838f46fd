import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// Openverse has no recent photos: a fresh launch on it, and `/recent`,
    /// say what to do instead of showing an error.
    @Suite("Openverse launch")
    struct OpenverseLaunch {
        static let sentence = "Openverse has no recent photos; type words to search."

        @Test func aFreshOpenverseLaunchSaysToSearchAndASearchThenWorks() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                // Not `app.launch`: it passes Flickr's --api-key, which
                // Openverse refuses at start-up.
                let process = try PTYProcess(
                    executable: try Binaries.flickr,
                    arguments: ["--provider", "openverse", "--api-url", sandbox.baseURL.absoluteString, "--live-delay", "0"],
                    environment: app.environment, columns: 120, rows: 40)
                try await process.waitFor("the calm sentence and the prompt") { _, screen in
                    screen.text.contains(Self.sentence) && screen.lines[screen.cursor.row].hasPrefix("flickr>")
                }
                #expect(!process.outputText.contains("error:"), "\(process.transcript())")
                #expect(!process.outputText.contains("/retry"), "\(process.transcript())")

                var mark = process.mark()
                try await process.enter("/recent")
                try await process.waitFor(text: Self.sentence, after: mark)
                #expect(!process.text(since: mark).contains("error:"), "\(process.transcript())")

                mark = process.mark()
                try await process.enter("kittens")
                _ = try await process.waitForHeader(page: 1, after: mark)
                #expect(process.text(since: mark).contains("Openverse at 127.0.0.1 · “kittens”"), "\(process.text(since: mark))")
                #expect(try await process.quit() == .exited(0))
            }
        }
    }
}
