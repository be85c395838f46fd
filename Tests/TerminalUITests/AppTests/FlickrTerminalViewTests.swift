import PhotoCore
import FlickrService
import FlickrViewModels
import Foundation
import ImagePipeline
import Networking
import Sandbox
@testable import TerminalUI
import TestSupport
import Testing

@MainActor
@Suite struct FlickrTerminalViewTests {
    /// A view on a real sandbox over loopback, with images off (labels only)
    /// unless `graphics` says otherwise.
    private func withView(
        _ configure: (inout SandboxConfiguration) -> Void = { _ in },
        interactive: Bool = true, graphics: TerminalGraphics = .none, imageIdleTimeout: Duration? = nil,
        _ body: @MainActor (FlickrTerminalView, RecordingTerminal, FlickrViewModel, SandboxServer) async throws -> Void
    ) async throws {
        // Thumbnails on a client of their own, as the app wires them: the
        // sandbox serves both from one host, and stalled thumbnails must not
        // hold the connections a page's REST call needs.
        var imageConfiguration = NetworkManager.Configuration.testing
        imageConfiguration.connectionsPerHost = 12
        if let imageIdleTimeout { imageConfiguration.idleTimeout = imageIdleTimeout }
        let images = NetworkManager(configuration: imageConfiguration)
        do {
            try await withView(configure, interactive: interactive, graphics: graphics, images: images, body)
        } catch {
            await images.shutdown()
            throw error
        }
        await images.shutdown()
    }

    private func withView(
        _ configure: (inout SandboxConfiguration) -> Void, interactive: Bool, graphics: TerminalGraphics, images: NetworkManager,
        _ body: @MainActor (FlickrTerminalView, RecordingTerminal, FlickrViewModel, SandboxServer) async throws -> Void
    ) async throws {
        try await withSandboxSession(configure: configure) { server, network in
            let provider = FlickrProvider(
                apiKey: "test", endpoint: server.restURL, imageHost: server.baseURL, network: network,
                displayName: "sandbox")
            let viewModel = FlickrViewModel(provider: provider, pipeline: ImageDownloadManager(fetcher: images), perPage: 9)
            let terminal = RecordingTerminal(size: TerminalSize(columns: 100, rows: 40), isInteractive: interactive)
            let view = FlickrTerminalView(
                viewModel: viewModel, terminal: terminal, options: .init(layout: .grid, columns: 3, graphics: graphics))
            var quit = false
            view.start(banner: "banner line") { quit = true }
            defer { viewModel.shutdown() }
            try await body(view, terminal, viewModel, server)
            terminal.sendEndOfInput()
            // The terminal is let go at once; the caller hears of the quit
            // once the renders still running have ended.
            #expect(terminal.stopCount == 1)
            try await eventually("the view reports the quit") { quit }
        }
    }

    /// Types `text` and waits until `marker` is on the screen.
    private func type(_ text: String, into terminal: RecordingTerminal, until marker: String) async throws {
        terminal.type(text)
        try await waitFor(terminal, marker)
    }

    private func waitFor(_ terminal: RecordingTerminal, _ text: String) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(90)
        while !terminal.output.contains(text) {
            guard clock.now < deadline else {
                Issue.record("no \"\(text)\" in output:\n\(terminal.output)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func firstLaunchShowsRecentPhotosThenASearchPage() async throws {
        try await withView { _, terminal, viewModel, server in
            try await waitFor(terminal, "recent photos · page 1 of")
            terminal.type("kittens")
            let matches = server.catalog.search(text: "kittens").count
            try await waitFor(terminal, "“kittens” · page 1 of \((matches + 8) / 9) (\(matches) photos)")
            try await waitFor(terminal, "\n7 ")
            #expect(terminal.printed.first == "banner line")
            #expect(viewModel.cells.count == 9)
        }
    }

    @Test func enterLoadsTheNextPageWithContinuingNumbers() async throws {
        try await withView { _, terminal, _, _ in
            try await type("sunset", into: terminal, until: "“sunset” · page 1 of")
            try await type("", into: terminal, until: "“sunset” · page 2 of")
            try await waitFor(terminal, "\n10 ")
        }
    }

    @Test func hostileTitlesReachTheTerminalSanitised() async throws {
        try await withView { _, terminal, viewModel, server in
            // The synthetic catalog holds titles with escape codes; search for one by its id's tags.
            let catalog = server.catalog
            let hostile = try #require((0..<catalog.count).lazy.map { catalog.photo(at: $0) }.first {
                $0.title.unicodeScalars.contains { $0.value == 0x1B } && !$0.tags.isEmpty
            })
            let query = hostile.tags.joined(separator: " ")
            terminal.type(query)
            try await waitFor(terminal, "· page 1 of")
            var pages = 1
            while !viewModel.cells.contains(where: { $0.photoID == hostile.id }) && viewModel.hasMore && pages < 60 {
                terminal.type("")
                pages += 1
                try await waitFor(terminal, "· page \(pages) of")
            }
            #expect(viewModel.cells.contains { $0.photoID == hostile.id }, "the hostile photo should be among the results")
            try await waitFor(terminal, "\n\(viewModel.cells.count) ")
            let bad = terminal.printed.filter { text in
                text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
            }
            #expect(bad.isEmpty, "raw control characters printed: \(bad.prefix(2))")
        }
    }

    @Test func controlCCancelsPendingDownloadsAndOtherwiseExplains() async throws {
        // Images send their head, then nothing until the client leaves: the
        // downloads stay pending until Ctrl-C, however slow the machine.
        let stalledImages: (inout SandboxConfiguration) -> Void = {
            $0.faults.rate = 1
            $0.faults.kind = .stall
            $0.faults.scope = .images
        }
        // Thumbnails are fetched only when drawn.
        let symbols = TerminalGraphics(mode: .symbols, colors: .truecolor)
        try await withView(stalledImages, graphics: symbols) { _, terminal, viewModel, _ in
            try await type("beach", into: terminal, until: "“beach” · page 1 of")
            #expect(viewModel.hasPendingWork)
            terminal.sendInterrupt()
            try await waitFor(terminal, "Cancelled")
            #expect(!viewModel.hasPendingWork)
            terminal.sendInterrupt()
            try await waitFor(terminal, "Nothing to cancel. /quit or Ctrl-D leaves.")
        }
    }

    @Test func unknownCommandsSuggestTheClosestOne() async throws {
        try await withView { _, terminal, _, _ in
            try await type("/cancle", into: terminal, until: "Unknown command /cancle. Did you mean /cancel?")
        }
    }

    @Test func openPrintsTheDetailsOfAResult() async throws {
        try await withView { _, terminal, viewModel, _ in
            try await type("red car", into: terminal, until: "“red car” · page 1 of")
            let cell = try #require(viewModel.cells.first)
            try await type("/open 1", into: terminal, until: "page: https://www.flickr.com/photos/\(cell.ownerID)/\(cell.photoID)/")
            try await waitFor(terminal, "owner: ")
        }
    }

    /// Whether `text` holds `cell`'s label ("N title", as the grid prints it).
    private static func labels(_ cell: ImageModel, in text: Substring) -> Bool {
        text.contains("\(cell.number) " + TextSanitizer.sanitize(PageGeometry.title(of: cell)).prefix(6))
    }

    /// Every one of `cells` was printed, with its label, before `marker`.
    @MainActor
    private static func expectLabelled(_ cells: [ImageModel], before marker: String, in terminal: RecordingTerminal) throws {
        let output = terminal.output
        let end = try #require(output.range(of: marker)).lowerBound
        for cell in cells {
            #expect(labels(cell, in: output[..<end]), "result \(cell.number) not printed before “\(marker)”")
        }
    }

    /// Thumbnails that send their head and then nothing until the client
    /// leaves, drawn with symbols: page 1 is still loading when the test asks
    /// for more, however slow the machine (a slow but moving line let a busy
    /// CI machine finish every thumbnail before Enter was typed).
    private static let stalledThumbnails: (inout SandboxConfiguration) -> Void = {
        $0.faults.rate = 1
        $0.faults.kind = .stall
        $0.faults.scope = .images
    }
    private static let symbols = TerminalGraphics(mode: .symbols, colors: .truecolor)

    @Test func enterPrintsTheWaitingRowsAndTheNextPageWithoutWaitingForThumbnails() async throws {
        try await withView(Self.stalledThumbnails, graphics: Self.symbols) { _, terminal, viewModel, _ in
            try await type("sunset", into: terminal, until: "“sunset” · page 1 of")
            try await type("", into: terminal, until: "“sunset” · page 2 of")
            let firstPage = try #require(viewModel.pages.value.first).cells
            #expect(firstPage.contains { $0.state.value.isPending }, "page 2 waited for every thumbnail of page 1")
            // Page 1's rows came first, each labelled, placeholders where the picture is still coming.
            try Self.expectLabelled(firstPage, before: "“sunset” · page 2 of", in: terminal)
            // They drop behind page 2's thumbnails but go on, for the cache.
            #expect(firstPage.filter { $0.state.value.isPending }.allSatisfy { $0.priority == .low })
        }
    }

    @Test func aNewSearchPrintsTheRowsStillWaitingWithWhatTheyHave() async throws {
        try await withView(Self.stalledThumbnails, graphics: Self.symbols) { _, terminal, viewModel, _ in
            try await type("kittens", into: terminal, until: "“kittens” · page 1 of")
            let cells = viewModel.cells
            #expect(cells.contains { $0.state.value.isPending }, "the page was not loading any more")
            try await type("beach", into: terminal, until: "“beach” · page 1 of")
            #expect(!cells.isEmpty)
            try Self.expectLabelled(cells, before: "“beach” · page 1 of", in: terminal)
        }
    }

    @Test func enterAfterOpenPrintsThePhotoWithWhatItHasAndTheNextPageWithoutWaitingForItsPicture() async throws {
        try await withView(Self.stalledThumbnails, graphics: Self.symbols) { _, terminal, viewModel, _ in
            try await type("sunset", into: terminal, until: "“sunset” · page 1 of")
            try await type("/open 3", into: terminal, until: "opening #3…")
            try await type("", into: terminal, until: "“sunset” · page 2 of")
            let output = terminal.output
            let opening = try #require(output.range(of: "opening #3…"))
            let header = try #require(output.range(of: "“sunset” · page 2 of"))
            // The photo's lines came first, its picture a placeholder that
            // says how far it got; the picture goes on for the cache.
            let detail = output[opening.upperBound..<header.lowerBound]
            #expect(detail.contains("owner: "), "the opened photo was not printed before page 2:\n\(detail)")
            #expect(detail.contains("loading"), "no placeholder for the picture still coming:\n\(detail)")
            #expect(viewModel.pages.value.count == 2)
        }
    }

    @Test func lateThumbnailsAreNotRedrawnAfterThePersonAskedForAPhoto() async throws {
        // Stalled thumbnails fail after the idle timeout (and its retries):
        // they settle late, after the person has opened a photo.
        try await withView(Self.stalledThumbnails, graphics: Self.symbols, imageIdleTimeout: .seconds(5)) { _, terminal, viewModel, _ in
            try await type("sunset", into: terminal, until: "“sunset” · page 1 of")
            let cells = try #require(viewModel.pages.value.first).cells
            let last = try #require(cells.last)
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(90)
            // Every row printed with its placeholders, the late cells waiting to be redrawn.
            while !Self.labels(last, in: terminal.output[...]) {
                guard clock.now < deadline else { throw CancellationError() }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(cells.contains { !$0.state.value.isSettled }, "the thumbnails settled before the photo was opened")
            try await type("/open 3", into: terminal, until: "opening #3…")
            while !cells.allSatisfy({ $0.state.value.isSettled }) || !terminal.output.contains("owner: ") {
                guard clock.now < deadline else { throw CancellationError() }
                try await Task.sleep(for: .milliseconds(10))
            }
            try await Task.sleep(for: .milliseconds(500))
            let output = terminal.output
            let opening = try #require(output.range(of: "opening #3…"))
            for cell in cells where cell.number != 3 {
                #expect(!Self.labels(cell, in: output[opening.upperBound...]), "result \(cell.number) was redrawn after the photo")
            }
        }
    }

    @Test func rowsPrintedAfterAResizeFitTheNewWidth() async throws {
        // Thumbnails that keep arriving for seconds: each row waits for its
        // own (a stalled one would let the rows print 0.6 s after the header,
        // a window a busy machine could miss), and none can be in before the
        // header, as they are asked for with it.
        try await withView({ $0.throttleKBps = 2 }, graphics: Self.symbols) { _, terminal, viewModel, _ in
            try await type("sunset", into: terminal, until: "“sunset” · page 1 of")
            // The window narrows while the rows wait.
            let mark = terminal.output.utf8.count
            let printedSince = { String(decoding: terminal.output.utf8.dropFirst(mark), as: UTF8.self) }
            terminal.resize(to: TerminalSize(columns: 50, rows: 40))
            let last = try #require(viewModel.pages.value.first?.cells.last)
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(90)
            while !Self.labels(last, in: printedSince()[...]) {
                guard clock.now < deadline else {
                    Issue.record("the page's last row never came:\n\(terminal.output)")
                    return
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            let printed = printedSince()
            let widest = Self.visibleLines(printed).map(\.count).max() ?? 0
            #expect(widest > 0)
            #expect(widest <= 50, "a row printed after the resize is \(widest) columns wide:\n\(Self.visibleLines(printed).joined(separator: "\n"))")
        }
    }

    /// The lines of `text` as they show, escape sequences (CSI, OSC) removed.
    private static func visibleLines(_ text: String) -> [String] {
        let stripped = text
            .replacingOccurrences(of: "\u{1B}\\][^\u{07}\u{1B}]*(\u{07}|\u{1B}\\\\)", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[ -/]*[@-~]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
        return stripped.components(separatedBy: "\n")
    }

    @Test func statusTextCountsThumbnailsBytesAndFailures() {
        let progress = DownloadProgress(total: 30, loaded: 24, failed: 1, cancelled: 0, bytes: 380 * 1024)
        #expect(StatusText.progress(progress) == "24/30 thumbnails · 380 KB · 1 failed")
    }
}

@Suite struct ListingPrinterTests {
    @Test func jsonEscapesControlAndBidiCharactersSoATitleCannotSpoofATerminal() {
        let title = "evil\u{202E}gpj.exe\u{1B}[2J\u{2066}x\u{7F}"
        let escaped = ListingPrinter.jsonString(title)
        #expect(escaped == "\"evil\\u202egpj.exe\\u001b[2J\\u2066x\\u007f\"")
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x202A...0x202E).contains($0.value) })
    }
}
