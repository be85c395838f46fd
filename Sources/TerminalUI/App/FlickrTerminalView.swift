import Binding
import FlickrKit
import FlickrViewModels
import Foundation
import ImagePipeline

/// The interactive screen: binds a `FlickrViewModel` to a line-oriented
/// `Terminal`.
///
/// Everything is printed into the scrollback, above the prompt: a header per
/// page, then the page's rows in order as their cells settle, notices, and
/// `/open` details. A status line just above the prompt shows progress. The
/// view reads view-model state only; it never fetches or decodes responses.
@MainActor
public final class FlickrTerminalView {
    public enum Layout: String, Sendable, CaseIterable {
        case grid, list
    }

    public struct Options: Sendable {
        public var layout: Layout
        public var columns: Int
        public var graphics: TerminalGraphics

        public init(layout: Layout = .grid, columns: Int = 3, graphics: TerminalGraphics = .none) {
            self.layout = layout
            self.columns = columns
            self.graphics = graphics
        }
    }

    private let viewModel: FlickrViewModel
    private let terminal: any Terminal
    private let renderer: TerminalImageRenderer
    private var options: Options
    private var tokens: [ObservationToken] = []
    /// Pages already handed to the printer for the current query.
    private var printedPages = 0
    /// Bumped when the results are replaced; print jobs of an older query stop.
    private var printGeneration = 0
    /// Print jobs run one after another so pages and details never interleave.
    private var lastPrintJob: Task<Void, Never>?
    private var onQuit: (@MainActor () -> Void)?
    private var isStopped = false

    public init(viewModel: FlickrViewModel, terminal: any Terminal, options: Options) {
        self.viewModel = viewModel
        self.terminal = terminal
        self.options = options
        self.renderer = TerminalImageRenderer(graphics: options.graphics)
    }

    /// Shows the banner, binds to the view model, starts reading input, and
    /// shows the saved session (or recent photos on a first launch).
    public func start(banner: String, onQuit: @escaping @MainActor () -> Void) {
        self.onQuit = onQuit
        terminal.print(banner.split(separator: "\n").map { TextSanitizer.sanitize(String($0)) }.joined(separator: "\n"))
        if terminal.isInteractive {
            terminal.print("Type words to search, Enter for the next page, /help for commands.")
        }
        bind()
        terminal.run(prompt: "flickr> ", handlers: TerminalHandlers(
            onLine: { [weak self] line in self?.handle(line) },
            onEOF: { [weak self] in self?.quit() },
            onInterrupt: { [weak self] in self?.interrupt() },
            onResize: { [weak self] size in self?.resized(size) }))
        if !viewModel.restoreSession() {
            viewModel.showRecent()
        }
    }

    // MARK: - Bindings

    private func bind() {
        viewModel.pages.observe { [weak self] pages in self?.pagesChanged(pages) }.store(in: &tokens)
        viewModel.notice.observeChanges { [weak self] notice in
            if let notice { self?.show(notice) }
        }.store(in: &tokens)
        viewModel.activity.observe { [weak self] _ in self?.updateStatus() }.store(in: &tokens)
        viewModel.progress.observe { [weak self] _ in self?.updateStatus() }.store(in: &tokens)
    }

    private func pagesChanged(_ pages: [ResultPage]) {
        if pages.count < printedPages || pages.isEmpty {
            // A new query replaced the results.
            printedPages = 0
            printGeneration += 1
        }
        while printedPages < pages.count {
            let page = pages[printedPages]
            printedPages += 1
            enqueuePrint { [weak self] generation in
                await self?.printPage(page, generation: generation)
            }
        }
    }

    private func updateStatus() {
        if case .loading(let query, let page) = viewModel.activity.value {
            // Worded unlike a page header ("page 1 of N"), which scripts look for.
            terminal.setStatus("loading \(query), page \(page)…")
            return
        }
        let progress = viewModel.progress.value
        guard progress.total > 0, !progress.isComplete else {
            terminal.setStatus(nil)
            return
        }
        terminal.setStatus(Self.statusText(progress))
    }

    /// `24/30 thumbnails · 380 KB · 1 failed`
    public static func statusText(_ progress: DownloadProgress) -> String {
        var parts = ["\(progress.loaded)/\(progress.total) thumbnails", formatBytes(progress.bytes)]
        if progress.failed > 0 { parts.append("\(progress.failed) failed") }
        if progress.cancelled > 0 { parts.append("\(progress.cancelled) cancelled") }
        return parts.joined(separator: " · ")
    }

    static func formatBytes(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return "\(bytes / 1024) KB" }
        return String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }

    private func show(_ notice: Notice) {
        switch notice {
        case .info(let text): terminal.print(TextSanitizer.sanitize(text))
        case .warning(let text): terminal.print("warning: " + TextSanitizer.sanitize(text))
        case .error(let text): terminal.print("error: " + TextSanitizer.sanitize(text))
        }
        resumeInputIfIdle()
    }

    // MARK: - Input

    private func handle(_ line: String) {
        switch UserCommand.parse(line) {
        case .search(let text):
            pauseInputUntilIdle()
            viewModel.search(text)
        case .nextPage:
            pauseInputUntilIdle()
            viewModel.nextPage()
        case .recent:
            pauseInputUntilIdle()
            viewModel.showRecent()
        case .open(let number):
            open(number)
        case .cancel:
            viewModel.cancel()
        case .retry:
            viewModel.retry()
        case .layout(let layout):
            options.layout = layout == .grid ? .grid : .list
            terminal.print("Layout: \(options.layout.rawValue) (from the next page on).")
        case .stats:
            terminal.print(statsText())
        case .help:
            terminal.print(helpText())
        case .quit:
            quit()
        case .unknown(let name, let suggestion):
            let shown = TextSanitizer.fit(TextSanitizer.sanitize(name), columns: 30)
            terminal.print("Unknown command \(shown)." + (suggestion.map { " Did you mean \($0)?" } ?? "") + " /help lists commands.")
        case .invalid(let message):
            terminal.print(message)
        }
    }

    private func interrupt() {
        if viewModel.hasPendingWork {
            viewModel.cancel()
        } else {
            terminal.print("Nothing to cancel. /quit or Ctrl-D leaves.")
        }
    }

    private func resized(_ size: TerminalSize) {
        updateStatus()
    }

    private func quit() {
        guard !isStopped else { return }
        isStopped = true
        printGeneration += 1
        viewModel.shutdown()
        terminal.setStatus(nil)
        terminal.stop()
        onQuit?()
    }

    /// In plain (scripted) mode each command waits for the previous one's
    /// page, so `kittens` then an empty line reads page 1, then page 2.
    private func pauseInputUntilIdle() {
        guard !terminal.isInteractive else { return }
        terminal.pauseInput()
    }

    private func resumeInputIfIdle() {
        guard !terminal.isInteractive, viewModel.activity.value == .idle else { return }
        if lastPrintJob == nil { terminal.resumeInput() }
    }

    // MARK: - Printing

    private func enqueuePrint(_ job: @escaping @MainActor (_ generation: Int) async -> Void) {
        let previous = lastPrintJob
        let generation = printGeneration
        let task = Task { @MainActor [weak self] in
            await previous?.value
            guard let self, self.printGeneration == generation else { return }
            await job(generation)
        }
        lastPrintJob = task
        Task { @MainActor [weak self] in
            await task.value
            guard let self, self.lastPrintJob == task else { return }
            self.lastPrintJob = nil
            self.resumeInputIfIdle()
        }
    }

    private func printPage(_ page: ResultPage, generation: Int) async {
        terminal.print(header(for: page))
        guard !page.cells.isEmpty else { return }
        // Geometry is read per page, so a resize applies from the next page on.
        let width = terminal.size.columns
        let graphics = options.graphics
        let layout = options.layout
        let grid = GridLayout(terminalColumns: width, columns: options.columns, graphics: graphics)
        let list = ListLayout(
            terminalColumns: width, showsThumbnails: graphics.showsImages,
            numberWidth: String(page.cells.last?.number ?? 1).count, cellAspectRatio: graphics.cellAspectRatio)
        let perRow = layout == .grid ? grid.columns : 1
        var start = 0
        while start < page.cells.count {
            let row = Array(page.cells[start..<min(start + perRow, page.cells.count)])
            start += perRow
            if graphics.showsImages {
                await waitUntilSettled(row)
            }
            guard printGeneration == generation else { return }
            let text: String
            switch layout {
            case .grid:
                let contents = await render(row, columns: grid.imageColumns, rows: grid.imageRows)
                text = GridComposer.compose(
                    row: zip(row, contents).map { GridCell(number: $0.number, title: Self.title(of: $0), content: $1) },
                    layout: grid, graphics: graphics)
            case .list:
                let contents = await render(row, columns: list.thumbnailColumns, rows: list.thumbnailRows)
                text = GridComposer.compose(
                    list: zip(row, contents).map {
                        ListEntry(number: $0.number, title: Self.title(of: $0),
                                  owner: $0.photo.ownerName ?? $0.photo.owner, content: $1)
                    },
                    layout: list, graphics: graphics)
            }
            guard printGeneration == generation else { return }
            terminal.print(text)
        }
        if !terminal.isInteractive || !graphics.showsImages {
            await waitUntilSettled(page.cells)
            guard printGeneration == generation else { return }
            terminal.print(Self.statusText(DownloadProgress(cells: page.cells)))
        }
    }

    private func header(for page: ResultPage) -> String {
        let query = viewModel.query.value.map { TextSanitizer.sanitize($0.description) } ?? ""
        var line = "\(query) · page \(page.number) of \(page.pages) (\(page.total) photos)"
        if page.restored { line += " · from last time" }
        if page.cells.isEmpty { line += " · nothing here" }
        return line
    }

    /// The title shown in a label; the composer sanitises and cuts it.
    static func title(of cell: ImageModel) -> String {
        cell.photo.title.isEmpty ? "(untitled)" : cell.photo.title
    }

    /// Suspends until every cell has loaded, failed or been cancelled.
    private func waitUntilSettled(_ cells: [ImageModel]) async {
        for cell in cells where !cell.state.value.isSettled {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The observer closure holds the token (the observable holds
                // the closure), so the observation lives until it fires.
                var token: ObservationToken?
                token = cell.state.observeChanges { state in
                    guard state.isSettled, token != nil else { return }
                    token?.cancel()
                    token = nil
                    continuation.resume()
                }
            }
        }
    }

    /// What each cell's image area shows. Images are decoded and rendered
    /// off the main actor (the renderer caches them, so re-showing is free).
    private func render(_ cells: [ImageModel], columns: Int, rows: Int) async -> [CellContent] {
        var contents: [CellContent] = []
        for cell in cells {
            switch cell.state.value {
            case .loaded(let response):
                contents.append(await render(response, columns: columns, rows: rows))
            case .failed(let reason):
                contents.append(.placeholder("failed: \(reason)"))
            case .cancelled:
                contents.append(.placeholder("cancelled"))
            case .loading(let received, let expected?) where expected > 0:
                contents.append(.placeholder("loading \(received * 100 / expected)%"))
            case .idle, .queued, .loading:
                contents.append(.placeholder("loading"))
            }
        }
        return contents
    }

    private func render(_ response: ImageResponse, columns: Int, rows: Int) async -> CellContent {
        guard options.graphics.showsImages, columns > 0, rows > 0 else { return .placeholder("") }
        let renderer = self.renderer
        let key = response.url.absoluteString
        let data = response.data
        let result = await Task.detached(priority: .userInitiated) {
            Result { () throws(ImageDecodeError) -> RenderedImage in
                try renderer.render(data, cacheKey: key, columns: columns, rows: rows)
            }
        }.value
        switch result {
        case .success(let image): return .image(image)
        case .failure(let error): return .placeholder("failed: \(error.description)")
        }
    }

    // MARK: - Detail

    private func open(_ number: Int) {
        guard let detail = viewModel.open(number) else { return }
        enqueuePrint { [weak self] _ in
            await self?.printDetail(detail)
        }
    }

    private func printDetail(_ detail: PhotoDetail) async {
        let photo = detail.photo
        var metadata = ["#\(detail.model.number) \(Self.title(of: detail.model))"]
        metadata.append("owner: " + (photo.ownerName.map { "\($0) (\(photo.owner))" } ?? photo.owner))
        if let taken = photo.dateTaken, !taken.isEmpty { metadata.append("taken: \(taken)") }
        if let dimensions = detail.dimensions {
            metadata.append("size: \(dimensions.width)×\(dimensions.height)")
        }
        if let url = detail.pageURL { metadata.append("page: \(url.absoluteString)") }

        let graphics = options.graphics
        let size = terminal.size
        let layout = DetailLayout(
            terminalColumns: size.columns, terminalRows: size.rows,
            imageWidth: detail.dimensions?.width, imageHeight: detail.dimensions?.height,
            metadataRows: metadata.count, cellAspectRatio: graphics.cellAspectRatio)
        let content: CellContent
        if graphics.showsImages {
            terminal.print("opening #\(detail.model.number)…")
            await waitUntilSettled([detail.model])
            content = (await render([detail.model], columns: layout.imageColumns, rows: layout.imageRows)).first
                ?? .placeholder("")
        } else {
            content = .placeholder("")
        }
        terminal.print(GridComposer.composeDetail(content, metadata: metadata, layout: layout, graphics: graphics))
    }

    // MARK: - Text

    private func helpText() -> String {
        let width = UserCommand.summaries.map { DisplayWidth.of($0.usage) }.max() ?? 0
        return UserCommand.summaries.map { "  " + TextSanitizer.pad($0.usage, toColumns: width) + "  " + $0.meaning }
            .joined(separator: "\n")
    }

    private func statsText() -> String {
        let stats = viewModel.statistics()
        let loadedPages = viewModel.pages.value.count
        return """
            results: \(viewModel.cells.count) on \(loadedPages) page\(loadedPages == 1 ? "" : "s")\(viewModel.hasMore ? ", more available" : "")
            downloads: \(stats.queued) queued · \(stats.running) running · \(stats.done) done · \(stats.failed) failed · \(stats.cancelled) cancelled · \(stats.coalesced) coalesced · \(stats.retries) retries
            cache hits: \(stats.memoryHits) memory · \(stats.diskHits) disk · downloaded \(Self.formatBytes(stats.bytesDownloaded))
            """
    }
}
