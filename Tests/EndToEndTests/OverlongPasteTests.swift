import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// A 100 KB paste at the prompt is refused as too long on Enter; live
    /// search must not have sent any of it meanwhile.
    @Suite("Overlong paste")
    struct OverlongPaste {
        @Test func aLineOverTheLimitIsNeverSearchedLiveOrOnEnter() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list", "--live-delay", "150"], live: true)
                try await process.waitForFirstListing()
                let searchesBefore = try await sandbox.requestLog().filter(isTextSearch).count

                let paste = String(repeating: "owls ", count: 20_000)  // 100,000 bytes
                let mark = process.mark()
                try process.write(paste + "\r")
                try await process.waitFor(text: "That line is too long (100000 bytes", after: mark)
                let searches = try await sandbox.requestLog().filter(isTextSearch)
                #expect(searches.count == searchesBefore,
                        "searches sent for the paste: \(searches.suffix(3).map { String($0.path.prefix(120)) })")
                #expect(try await process.quit() == .exited(0))
            }
        }
    }
}

private func isTextSearch(_ record: SandboxRequestRecord) -> Bool {
    record.kind == "rest" && record.path.contains("flickr.photos.search")
}
