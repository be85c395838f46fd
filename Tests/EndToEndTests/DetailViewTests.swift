import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// `/open` in a real window: the picture is sized for the lines really
    /// printed under it, so picture and details share one screen.
    @Suite("Detail view on one screen")
    struct DetailView {
        @Test func openShowsTheWholePictureAndEachFieldOnceAt120By50() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--per-page", "6", "--images", "symbols"], columns: 120, rows: 50)
                try await process.waitForFirstListing()
                let mark = process.mark()
                try await process.enter("/open 1")
                try await process.waitFor("the detail view and the prompt under it") { bytes, screen in
                    let text = String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self)
                    return text.contains("page: ") && screen.lastNonEmptyLine?.hasPrefix("page: ") == false
                        && screen.lines.contains { $0.hasPrefix("page: ") }
                }
                let screen = process.screen
                let shown = screen.lines
                // The line printed just above the picture is still on screen:
                // nothing of the picture scrolled away.
                #expect(shown.contains { $0.hasPrefix("opening #1") }, "top of the picture scrolled away:\n\(shown.joined(separator: "\n"))")
                #expect(shown.filter { $0.hasPrefix("owner: ") }.count == 1, "the owner printed once")
                #expect(shown.filter { $0.hasPrefix("#1 ") }.count == 1, "the title printed once")
                #expect(try await process.quit() == .exited(0))
            }
        }
    }
}
