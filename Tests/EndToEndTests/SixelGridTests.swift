import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// The real binary drawing sixels into a screen that places them as
    /// xterm does: page after page, every row's pictures start on the same
    /// line, and the titles sit on the line right under the tallest.
    @Suite("Sixel grid on an xterm-like screen")
    struct SixelGrid {
        @Test func rowsStayLevelWithTitlesRightUnderThePicturesPageAfterPage() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                var answers = TerminalResponder.Answers()
                answers.deviceAttributes = [62, 4, 22]
                answers.cellPixelSize = (10, 20)
                let process = try app.launch(
                    ["--per-page", "9"], columns: 120, rows: 50, responder: TerminalResponder(answers),
                    extraEnvironment: ["FLICKR_PROBE_TIMEOUT_MS": "5000"])
                try await process.waitForFirstListing()
                try await process.waitFor("the nine recent photos as sixel pictures") { _, screen in
                    screen.images.count >= 9
                }
                let mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor("nine more sixel pictures") { _, screen in screen.images.count >= 18 }
                try await process.waitFor("the last row's titles") { _, screen in
                    screen.lines.contains { $0.hasPrefix("7 ") }
                }
                let screen = process.screen
                #expect(screen.images.count == 18, "two pages of nine pictures")
                let rows = Dictionary(grouping: screen.images, by: \.line).sorted { $0.key < $1.key }
                #expect(rows.count == 6, "six rows of three, each level: \(screen.images)")
                for (line, pictures) in rows {
                    #expect(pictures.count == 3)
                    let tallest = pictures.map(\.rows).max() ?? 0
                    let labels = screen.text(ofLine: line + tallest) ?? ""
                    #expect(labels.range(of: #"^\d+ "#, options: .regularExpression) != nil,
                            "titles right under the pictures at line \(line), got \(labels.debugDescription)")
                }
                #expect(try await process.quit() == .exited(0))
            }
        }
    }
}
