import Binding
import FlickrViewModels
import Foundation

/// Prints pages, redraws and details into the scrollback, one job after
/// another so they never interleave: a row is printed once its cells have
/// settled, in result order.
@MainActor
final class PagePrinter {
    /// Layout choices the person can change while the app runs.
    struct Options {
        var layout: FlickrTerminalView.Layout
        var columns: Int
        let graphics: TerminalGraphics
    }

    var options: Options
    private let terminal: any Terminal
    private let renderer: TerminalImageRenderer
    /// Bumped when the results are replaced or the app stops: jobs of an
    /// older generation end at their next step.
    private var generation = 0
    private var lastJob: Task<Void, Never>?
    /// Called on the main actor whenever the queue of print jobs runs empty.
    var onIdle: () -> Void = {}

    init(terminal: any Terminal, options: Options) {
        self.terminal = terminal
        self.options = options
        self.renderer = TerminalImageRenderer(graphics: options.graphics)
    }

    /// No job is queued or printing.
    var isIdle: Bool { lastJob == nil }

    /// Drops every queued job (a new query replaced the results).
    func discardPending() {
        generation += 1
    }

    /// Deletes the images sent to the terminal (kitty), before the app ends.
    func releaseImages() {
        let commands = renderer.releaseImages()
        if !commands.isEmpty { terminal.print(commands) }
    }

    // MARK: - Jobs

    func printPage(_ page: ResultPage, header: String) {
        enqueue { printer, generation in
            printer.terminal.print(header)
            guard !page.cells.isEmpty else { return }
            await printer.printCells(page.cells, generation: generation)
            let graphics = printer.options.graphics
            if !printer.terminal.isInteractive || !graphics.showsImages {
                for cell in page.cells { await cell.settled() }
                guard printer.generation == generation else { return }
                printer.terminal.print(StatusText.progress(DownloadProgress(cells: page.cells)))
            }
        }
    }

    /// Prints `cells` again once they settle (after `/retry`).
    func reprint(_ cells: [ImageModel]) {
        enqueue { printer, generation in
            await printer.printCells(cells, generation: generation)
        }
    }

    func printDetail(_ detail: PhotoDetail) {
        enqueue { printer, _ in
            await printer.showDetail(detail)
        }
    }

    private func enqueue(_ job: @escaping @MainActor (PagePrinter, _ generation: Int) async -> Void) {
        let previous = lastJob
        let generation = self.generation
        let task = Task { @MainActor [weak self] in
            await previous?.value
            guard let self, self.generation == generation else { return }
            await job(self, generation)
        }
        lastJob = task
        Task { @MainActor [weak self] in
            await task.value
            guard let self, self.lastJob == task else { return }
            self.lastJob = nil
            self.onIdle()
        }
    }

    // MARK: - Rows

    private func printCells(_ cells: [ImageModel], generation: Int) async {
        // Geometry is read per job, so a resize applies from the next page on.
        let width = terminal.size.columns
        let graphics = options.graphics
        let layout = options.layout
        let grid = GridLayout(terminalColumns: width, columns: options.columns, graphics: graphics)
        let list = ListLayout(
            terminalColumns: width, showsThumbnails: graphics.showsImages,
            numberWidth: String(cells.last?.number ?? 1).count, cellAspectRatio: graphics.cellAspectRatio)
        let perRow = layout == .grid ? grid.columns : 1
        var start = 0
        while start < cells.count {
            let row = Array(cells[start..<min(start + perRow, cells.count)])
            start += perRow
            if graphics.showsImages {
                for cell in row { await cell.settled() }
            }
            guard self.generation == generation else { return }
            let text: String
            let contents: [CellContent]
            switch layout {
            case .grid:
                contents = await render(row, columns: grid.imageColumns, rows: grid.imageRows)
                text = GridComposer.compose(
                    row: zip(row, contents).map { GridCell(number: $0.number, title: Self.title(of: $0), content: $1) },
                    layout: grid, graphics: graphics)
            case .list:
                contents = await render(row, columns: list.thumbnailColumns, rows: list.thumbnailRows)
                text = GridComposer.compose(
                    list: zip(row, contents).map {
                        ListEntry(number: $0.number, title: Self.title(of: $0), owner: $0.owner, content: $1)
                    },
                    layout: list, graphics: graphics)
            }
            guard self.generation == generation else { return }
            terminal.print(renderer.frame(text, showing: contents))
        }
    }

    /// The title shown in a label; the composer sanitises and cuts it.
    static func title(of cell: ImageModel) -> String {
        cell.title.isEmpty ? "(untitled)" : cell.title
    }

    /// What each cell's image area shows. Images are decoded and rendered
    /// off the main actor (the renderer caches them, so re-showing is free).
    private func render(_ cells: [ImageModel], columns: Int, rows: Int) async -> [CellContent] {
        var contents: [CellContent] = []
        for cell in cells {
            switch cell.state.value {
            case .loaded(let image):
                contents.append(await render(image, columns: columns, rows: rows))
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

    private func render(_ image: LoadedImage, columns: Int, rows: Int) async -> CellContent {
        guard options.graphics.showsImages, columns > 0, rows > 0 else { return .placeholder("") }
        let renderer = self.renderer
        let result = await Task.detached(priority: .userInitiated) {
            Result { () throws(ImageDecodeError) -> RenderedImage in
                try renderer.render(image.data, cacheKey: image.cacheKey, columns: columns, rows: rows)
            }
        }.value
        switch result {
        case .success(let rendered): return .image(rendered)
        case .failure(let error): return .placeholder("failed: \(error.description)")
        }
    }

    // MARK: - Detail

    private func showDetail(_ detail: PhotoDetail) async {
        let cell = detail.model
        var metadata = ["#\(cell.number) \(Self.title(of: cell))"]
        metadata.append("owner: " + (cell.owner == cell.ownerID ? cell.ownerID : "\(cell.owner) (\(cell.ownerID))"))
        if let taken = cell.dateTaken, !taken.isEmpty { metadata.append("taken: \(taken)") }
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
            terminal.print("opening #\(cell.number)…")
            await cell.settled()
            content = (await render([cell], columns: layout.imageColumns, rows: layout.imageRows)).first
                ?? .placeholder("")
        } else {
            content = .placeholder("")
        }
        terminal.print(renderer.frame(
            GridComposer.composeDetail(content, metadata: metadata, layout: layout, graphics: graphics),
            showing: [content]))
        if let details = StatusText.details(await detail.facts(), shownLabels: ["taken", "page"], columns: size.columns) {
            terminal.print(details)
        }
    }
}
