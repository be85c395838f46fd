import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// On a slow link the terminal's answers to the start-up probe come late,
    /// and a person types before anything is drawn: what they asked for wins
    /// over the recent photos the launch meant to show.
    @Suite("Typing during start-up")
    struct StartupTyping {
        @Test func aQueryTypedBeforeTheFirstDrawIsNotReplacedByRecentPhotos() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .milliseconds(300))) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                // No terminal answers the probe: the app waits it out while
                // the query is already in its input.
                let process = try app.launch(["--layout", "list", "--images", "symbols"])
                try process.write("owls\r")
                let owls = sandbox.catalog.search(text: "owls", sort: .relevance)
                _ = try await process.waitForHeader(page: 1, total: owls.count, after: 0)
                // Everything the app asked has been answered: no other
                // listing is on its way.
                try await sandbox.waitForLog("every request answered") { log in
                    log.allSatisfy { $0.endedAt != nil }
                }
                let text = process.outputText
                let owlsHeader = try #require(text.range(of: "page 1 of", options: .backwards))
                #expect(!text[owlsHeader.lowerBound...].contains("recent photos"))
                #expect(!text.components(separatedBy: "\n").contains { $0.contains("recent photos · page 1 of") },
                        "recent photos listed: \(process.transcript())")
                #expect(try await process.quit() == .exited(0))
            }
        }
    }
}
