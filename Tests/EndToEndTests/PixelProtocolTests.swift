import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// Pixel protocols on the wire, through the real binary: the start-up
    /// probe answered (or not) by the test playing the terminal, kitty pages
    /// within their byte budget, redraws without retransmission, and
    /// synchronized output only where the terminal knows it.
    @Suite("Pixel protocols and the terminal probe")
    struct PixelProtocols {
        /// Room for a loaded CI machine; the app stops waiting at DA1 anyway.
        static let slowLink = ["FLICKR_PROBE_TIMEOUT_MS": "5000"]

        @Test func aKittyPageOf30ThumbnailsStaysUnder1MiBAndARedrawSendsOnlyPlacements() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let responder = TerminalResponder(.kitty)
                let process = try app.launch(
                    ["--per-page", "30"], columns: 120, rows: 50, responder: responder, extraEnvironment: Self.slowLink)
                try await process.waitForFirstListing()
                #expect(responder.hasAnswered)

                var mark = process.mark()
                try await process.enter("sunset")
                try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor("30 kitty placements of the sunset page") { bytes, _ in
                    TerminalOutputLog(Array(bytes[min(mark, bytes.count)...])).kittyCommands(action: "p").count >= 30
                }
                let page = process.output(since: mark)
                let firstDraw = TerminalOutputLog(page)
                #expect(page.count <= 1 << 20, "a page of 30 thumbnails wrote \(page.count) bytes")
                let sent = Set(firstDraw.kittyCommands(action: "t").compactMap { $0["i"] })
                let placed = firstDraw.kittyCommands(action: "p").compactMap { $0["i"] }
                #expect(sent.count == 30)
                #expect(Set(placed) == sent, "every placement shows an image sent on this page")
                #expect(firstDraw.kittyCommands(action: "t").allSatisfy { $0["f"] == "100" && $0["q"] == "2" })

                // The same results again: the terminal holds every image already.
                mark = process.mark()
                try await process.enter("sunset")
                try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor("30 kitty placements of the redraw") { bytes, _ in
                    TerminalOutputLog(Array(bytes[min(mark, bytes.count)...])).kittyCommands(action: "p").count >= 30
                }
                let redraw = TerminalOutputLog(process.output(since: mark))
                #expect(redraw.kittyCommands(action: "t").isEmpty, "no image is sent twice")
                #expect(Set(redraw.kittyCommands(action: "p").compactMap { $0["i"] }) == sent)

                // Leaving deletes what was sent.
                mark = process.mark()
                #expect(try await process.quit() == .exited(0))
                let deleted = Set(TerminalOutputLog(process.output(since: mark)).kittyCommands(action: "d").compactMap { $0["i"] })
                #expect(sent.isSubset(of: deleted))
            }
        }

        @Test func rowsAreWrappedInSynchronizedOutputWhenTheTerminalKnowsIt() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                var answers = TerminalResponder.Answers()
                answers.synchronizedOutput = true
                let process = try app.launch(
                    ["--per-page", "6", "--images", "symbols"], responder: TerminalResponder(answers),
                    extraEnvironment: Self.slowLink)
                try await Self.waitForSixRecentPhotos(process, sandbox: sandbox)
                let updates = TerminalOutputLog(process.outputBytes).synchronizedUpdates
                #expect(updates.count >= 4, "two grid rows, each one update")
                // Strictly begin, end, begin, end…: every row is bracketed whole.
                #expect(updates == (0..<updates.count).map { $0 % 2 == 0 })
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func noSynchronizedOutputWhenTheTerminalDoesNotKnowTheMode() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                var answers = TerminalResponder.Answers()
                answers.synchronizedOutput = false
                let responder = TerminalResponder(answers)
                let process = try app.launch(
                    ["--per-page", "6", "--images", "symbols"], responder: responder, extraEnvironment: Self.slowLink)
                try await Self.waitForSixRecentPhotos(process, sandbox: sandbox)
                #expect(responder.hasAnswered)
                #expect(TerminalOutputLog(process.outputBytes).synchronizedUpdates.isEmpty)
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func whenNothingAnswersTheProbeGivesUpAndTheAppStillWorks() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--per-page", "6"])
                try await Self.waitForSixRecentPhotos(process, sandbox: sandbox)
                let output = process.outputText
                #expect(output.contains("\u{1B}[?2026$p"), "the probe was sent")
                let log = TerminalOutputLog(process.outputBytes)
                #expect(log.synchronizedUpdates.isEmpty)
                #expect(log.kittyCommands(action: "t").isEmpty, "no kitty images without an answer saying so")
                // Input works: the terminal mode was handed back to readline.
                let mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)
                #expect(try await process.quit() == .exited(0))
            }
        }

        /// The first-launch listing (recent photos, 6 a page) is on screen whole.
        static func waitForSixRecentPhotos(_ process: PTYProcess, sandbox: SandboxHarness) async throws {
            try await process.waitForFirstListing()
            let sixth = sandbox.catalog.photo(at: 5)
            try await process.waitFor("recent result 6") { _, screen in
                screenShowsLabel(screen, number: 6, title: sixth.title)
            }
        }
    }
}
