import Binding
import FlickrViewModels
import Foundation
import Platform

/// Prints pages, redraws and details into the scrollback, one job after
/// another so they never interleave: a row is printed once its cells have
/// settled, in result order. Pictures are decoded and rendered on every
/// core (`OrderedParallel`); the prefetched next page is rendered ahead
/// (`RenderPreheater`). The printer also tells the view model how many
/// pixels a thumbnail needs in the current layout.
@MainActor
final class PagePrinter {
    /// Layout choices the person can change while the app runs.
    struct Options {
        var layout: FlickrTerminalView.Layout
        var columns: Int
        let graphics: TerminalGraphics
    }

    var options: Options {
        didSet { tellThumbnailNeed(geometry(numberWidth: 3)) }
    }
    let terminal: any Terminal
    let renderer: TerminalImageRenderer
    private weak var viewModel: FlickrViewModel?
    private let preheater = RenderPreheater()
    /// The next page's cells, held back while a page prints: rendering them
    /// at the same time would take cores from the page the person waits for.
    private var heldPreheat: [ImageModel] = []
    private var tokens: [ObservationToken] = []
    /// Bumped when the results are replaced or the app stops: jobs of an
    /// older generation end at their next step.
    private var generation = 0
    private var lastJob: Task<Void, Never>?
    /// Jobs the person asked for (a page, a photo opened) queued behind the
    /// one printing: while any waits, the page printing stops waiting for
    /// thumbnails and prints its rows with what they have.
    private var hurryingJobs = 0
    /// Counts the jobs the person has asked for: a late cell is redrawn
    /// only while nothing was asked for since its row printed.
    private var askedFor = 0
    /// The generation of results replaced while their page was printing:
    /// that page's job prints its remaining rows at once, then ends.
    private var flushingGeneration: Int?
    /// The page job printing now and its generation, spared when the
    /// results are replaced.
    private var printingPage: (task: Task<Void, Never>, generation: Int)?
    /// The wait for the row printing now; ended early to hurry.
    private var rowWait: Task<[ImageModel], Never>?
    /// The wait for an opened photo's picture; ended early to hurry too.
    var pictureWait: Task<Void, Never>?
    /// Jobs not finished yet, and redraws of cells still waiting to settle:
    /// stopped when the results are replaced or the app stops, so none
    /// waits on (and keeps alive) a page nobody will see.
    private let tasks = RunningTasks()
    /// Called on the main actor whenever the queue of print jobs runs empty.
    var onIdle: () -> Void = {}
    private var lastHeapRelease: ContinuousClock.Instant?

    init(terminal: any Terminal, options: Options, renderCacheDirectory: URL? = nil, viewModel: FlickrViewModel? = nil) {
        self.terminal = terminal
        self.options = options
        var configuration = TerminalImageRenderer.Configuration()
        configuration.diskCacheDirectory = renderCacheDirectory
        self.renderer = TerminalImageRenderer(graphics: options.graphics, configuration: configuration)
        self.viewModel = viewModel
        RenderPreheater.warmUp(renderer)
        tellThumbnailNeed(geometry(numberWidth: 3))
        viewModel?.prefetchedCells.observeChanges { [weak self] cells in
            self?.preheat(cells)
        }.store(in: &tokens)
        // The first row a live search found: Enter on the same text prints it at once.
        viewModel?.liveFirstRow.observeChanges { [weak self] cells in
            if !cells.isEmpty { self?.preheat(cells) }
        }.store(in: &tokens)
    }

    /// Renderings held in memory: how many, and their bytes.
    var renderCacheUsage: (count: Int, bytes: Int) { (renderer.cachedCount, renderer.cachedBytes) }

    /// No job is queued or printing.
    var isIdle: Bool { lastJob == nil }

    /// Drops every queued job (a new query replaced the results). When
    /// `flushing`, the page printing now prints its rows still waiting at
    /// once, with what they have, so no result it announced goes unshown;
    /// otherwise (the app stops) it ends too.
    func discardPending(flushing: Bool = true) {
        let printing = printingPage.flatMap { flushing && $0.generation == generation ? $0 : nil }
        flushingGeneration = printing?.generation
        generation += 1
        heldPreheat = []
        preheater.cancel()
        tasks.cancelAll(sparing: printing?.task)
        rowWait?.cancel()
    }

    /// Drops every job, then returns once the renders already running have
    /// ended: a picture being decoded cannot be interrupted, and until it
    /// ends its job holds the page (and through it the image pipeline).
    func stop() async {
        discardPending(flushing: false)
        await preheater.stop()
        await tasks.waitForAll()
        // What was drawn this run draws at once in the next.
        await renderer.flushDiskCache()
    }

    /// Deletes the images sent to the terminal (kitty), before the app ends.
    func releaseImages() {
        let commands = renderer.releaseImages()
        if !commands.isEmpty { terminal.print(commands) }
    }

    // MARK: - Jobs

    func printPage(_ page: ResultPage, header: String) {
        enqueue(hurrying: true, isPage: true) { printer, generation in
            printer.terminal.print(header)
            guard !page.cells.isEmpty else { return }
            await printer.printCells(page.cells, generation: generation)
            // Thumbnails not drawn are not fetched: nothing to wait for.
            let fetching = page.cells.filter(\.fetchesImage)
            if !printer.terminal.isInteractive || !printer.options.graphics.showsImages, !fetching.isEmpty {
                for cell in fetching { await cell.settled() }
                guard printer.generation == generation else { return }
                printer.terminal.print(StatusText.progress(DownloadProgress(cells: fetching)))
            }
        }
    }

    /// A job's own task, known to the job once it runs.
    private final class JobTask {
        var task: Task<Void, Never>?
    }

    /// Prints a person's albums as a list, whatever the layout: one row per
    /// album with its cover, title and counts.
    func printAlbums(_ listing: AlbumListing, header: String) {
        enqueue(hurrying: true) { printer, generation in
            printer.terminal.print(header)
            guard !listing.cells.isEmpty else { return }
            await printer.printCells(listing.cells, generation: generation, layout: .list)
            printer.terminal.print("/album N opens one.")
        }
    }

    /// Prints `cells` again once they settle (after `/retry`), numbered as
    /// on a page whose numbers are `numberWidth` digits wide (by default
    /// as wide as the last of them).
    func reprint(_ cells: [ImageModel], numberWidth: Int? = nil) {
        enqueue { printer, generation in
            await printer.printCells(cells, generation: generation, numberWidth: numberWidth)
        }
    }

    func printDetail(_ detail: PhotoDetail) {
        enqueue(hurrying: true) { printer, generation in
            await printer.showDetail(detail, generation: generation)
        }
    }

    /// Queues `job` behind the others; a `hurrying` job (what the person
    /// asked for next) makes the page printing now stop waiting for its
    /// thumbnails.
    /// `isPage`: a page's rows, printed in full (what they have) even when
    /// the results are replaced meanwhile.
    private func enqueue(
        hurrying: Bool = false, isPage: Bool = false,
        _ job: @escaping @MainActor (PagePrinter, _ generation: Int) async -> Void
    ) {
        let previous = lastJob
        let generation = self.generation
        if hurrying {
            hurryingJobs += 1
            askedFor += 1
            rowWait?.cancel()
            pictureWait?.cancel()
        }
        let own = JobTask()
        let task = track { printer in
            await previous?.value
            if hurrying { printer.hurryingJobs -= 1 }
            guard printer.generation == generation else { return }
            if isPage, let task = own.task { printer.printingPage = (task, generation) }
            await job(printer, generation)
            if isPage {
                printer.printingPage = nil
                if printer.flushingGeneration == generation { printer.flushingGeneration = nil }
            }
        }
        // Set before the task runs: both are on the main actor.
        own.task = task
        lastJob = task
        Task { @MainActor [weak self] in
            await task.value
            guard let self, self.lastJob == task else { return }
            self.lastJob = nil
            if !self.heldPreheat.isEmpty { self.preheat(self.heldPreheat) }
            self.onIdle()
            self.releaseFreeHeap()
        }
    }

    /// A page's decodes and renders free megabytes at once; the allocator
    /// keeps them resident unless told. Once the queue runs empty (at most
    /// every 2 s), they go back to the system, off the main thread.
    private func releaseFreeHeap() {
        let now = ContinuousClock.now
        if let last = lastHeapRelease, now - last < .seconds(2) { return }
        lastHeapRelease = now
        DispatchQueue.global(qos: .utility).async { Platform.releaseFreeHeap() }
    }

    /// Runs `body` in a task that `discardPending` can stop, and forgets it
    /// once it ends.
    @discardableResult
    private func track(_ body: @escaping @MainActor (PagePrinter) async -> Void) -> Task<Void, Never> {
        tasks.run { [weak self] in
            guard let self else { return }
            await body(self)
        }
    }

    // MARK: - Rows

    /// The layout for a page printed now, at the window's current size.
    private func geometry(numberWidth: Int, layout: FlickrTerminalView.Layout? = nil) -> PageGeometry {
        PageGeometry(
            layout: layout ?? options.layout, columns: options.columns, graphics: options.graphics,
            size: terminal.size, numberWidth: numberWidth)
    }

    private func geometry(for cells: [ImageModel], layout: FlickrTerminalView.Layout? = nil, numberWidth: Int? = nil) -> PageGeometry {
        geometry(numberWidth: numberWidth ?? String(cells.last?.number ?? 1).count, layout: layout)
    }

    /// Pages made from now on get images sized for this layout.
    private func tellThumbnailNeed(_ geometry: PageGeometry) {
        let need = geometry.thumbnailPixelNeed
        if let viewModel, viewModel.thumbnailPixelNeed != need { viewModel.thumbnailPixelNeed = need }
    }

    /// Renders the prefetched next page ahead, with the layout it would be
    /// printed with now.
    private func preheat(_ cells: [ImageModel]) {
        heldPreheat = isIdle ? [] : cells
        guard !cells.isEmpty, isIdle else { return }
        preheater.start(cells, geometry: geometry(for: cells), renderer: renderer)
    }

    /// Whether a job of `generation` may still print: its results are the
    /// ones shown, or they were replaced while it printed and it prints
    /// what it has before ending.
    private func isLive(_ generation: Int) -> Bool {
        self.generation == generation || flushingGeneration == generation
    }

    /// The person asked for something else: the page of `generation`
    /// prints its rows with what they have, without waiting.
    func isHurried(_ generation: Int) -> Bool {
        hurryingJobs > 0 || flushingGeneration == generation
    }

    /// Waits for `row` to settle (see `ImageModel.settle`), or until the
    /// page is hurried. Returns the cells still pending.
    private func waitForRow(_ row: [ImageModel], watching cells: [ImageModel]) async -> [ImageModel] {
        let wait = Task { await ImageModel.settle(row, watching: cells, orQuietFor: Self.patience) }
        rowWait = wait
        defer { rowWait = nil }
        return await withTaskCancellationHandler {
            await wait.value
        } onCancel: {
            wait.cancel()
        }
    }

    private func printCells(
        _ cells: [ImageModel], generation: Int, layout: FlickrTerminalView.Layout? = nil, numberWidth: Int? = nil
    ) async {
        // A page's rows can take seconds on a slow line: a resize meanwhile
        // applies to the rows printed after it (those printed stay as they are).
        var size = terminal.size
        var geometry = geometry(for: cells, layout: layout, numberWidth: numberWidth)
        if layout == nil { tellThumbnailNeed(geometry) }
        preheater.cancel(ifPreheating: cells[...])
        let showsImages = geometry.graphics.showsImages
        var start = 0
        // Cells before this were waited for (and the late ones will be redrawn).
        var waitedThrough = 0
        while start < cells.count {
            let perRow = geometry.cellsPerRow
            let rowEnd = min(start + perRow, cells.count)
            if showsImages, !isHurried(generation), rowEnd > waitedThrough {
                // A stalled image does not hold the page: its row is drawn
                // with the cell's placeholder, and the cell again once it settles.
                let late = await waitForRow(Array(cells[max(start, waitedThrough)..<rowEnd]), watching: cells)
                waitedThrough = rowEnd
                // Hurried: the person moved on, and a redraw would land among
                // what they asked for next. The thumbnail still reaches the cache.
                if !isHurried(generation) {
                    let width = numberWidth ?? String(cells.last?.number ?? 1).count
                    for cell in late { redrawWhenSettled(cell, generation: generation, numberWidth: width) }
                }
            }
            guard isLive(generation) else { return }
            if terminal.size != size {
                // Resized while the row waited: lay it out again at the new
                // size (its cells, settled or late, are known by now).
                size = terminal.size
                geometry = self.geometry(for: cells, layout: layout, numberWidth: numberWidth)
                if layout == nil { tellThumbnailNeed(geometry) }
                continue
            }
            // The next row and every whole row already settled after it
            // render as one batch across the cores; hurried, every row left.
            var end = showsImages && !isHurried(generation) ? rowEnd : cells.count
            while end < cells.count, cells[end].state.value.isSettled { end += 1 }
            if end < cells.count { end = start + (end - start) / perRow * perRow }
            await printRows(Array(cells[start..<end]), geometry: geometry, generation: generation)
            start = end
        }
    }

    /// How long a row waits for a cell once nothing on the page changes.
    static let patience: Duration = .seconds(2)

    private func redrawWhenSettled(_ cell: ImageModel, generation: Int, numberWidth: Int) {
        let askedFor = self.askedFor
        track { printer in
            await cell.settled()
            // Cancelled on purpose (/cancel, Ctrl-C): nothing new to show.
            if case .cancelled = cell.state.value { return }
            // The person asked for something since (a photo, a page): a row
            // of the page before would land among it, out of order.
            guard printer.generation == generation, printer.askedFor == askedFor else { return }
            printer.reprint([cell], numberWidth: numberWidth)
        }
    }

    /// Renders `cells` in parallel and prints each row as soon as it and
    /// every row before it are ready.
    private func printRows(_ cells: [ImageModel], geometry: PageGeometry, generation: Int) async {
        let jobs = cells.map { geometry.job(for: $0) }
        let renderer = self.renderer
        let perRow = geometry.cellsPerRow
        var contents: [CellContent] = []
        contents.reserveCapacity(cells.count)
        await OrderedParallel.forEach(count: jobs.count, operation: { index in
            jobs[index].run(with: renderer)
        }, deliver: { index, content in
            contents.append(content)
            let rowStart = index / perRow * perRow
            guard index == min(rowStart + perRow, cells.count) - 1, self.isLive(generation) else { return }
            terminal.print(renderer.frame(
                geometry.compose(cells[rowStart...index], contents: contents[rowStart...index]),
                showing: Array(contents[rowStart...index])))
        })
    }
}
