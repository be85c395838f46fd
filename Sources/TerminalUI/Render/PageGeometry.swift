import FlickrViewModels

/// The layout a page's rows are printed with, read when its printing
/// starts and again after a resize. Printing and preheating share it, so a
/// picture rendered ahead is the one the page asks for.
struct PageGeometry {
    let layout: FlickrTerminalView.Layout
    let graphics: TerminalGraphics
    let grid: GridLayout
    let list: ListLayout

    /// - Parameter numberWidth: digits of the largest result number shown,
    ///   so list numbers align.
    init(
        layout: FlickrTerminalView.Layout, columns: Int, graphics: TerminalGraphics,
        size: TerminalSize, numberWidth: Int
    ) {
        self.layout = layout
        self.graphics = graphics
        self.grid = GridLayout(
            terminalColumns: size.columns, terminalRows: size.rows, columns: columns, graphics: graphics)
        self.list = ListLayout(
            terminalColumns: size.columns, showsThumbnails: graphics.showsImages,
            numberWidth: numberWidth, cellAspectRatio: graphics.cellAspectRatio)
    }

    /// Cells printed side by side.
    var cellsPerRow: Int { layout == .grid ? grid.columns : 1 }

    /// The picture area of a photo of `aspectRatio`: fitted to the grid
    /// cell, or the list's thumbnail box (the renderer fits it inside).
    func area(aspectRatio: Double?) -> (columns: Int, rows: Int) {
        switch layout {
        case .grid: grid.imageSize(aspectRatio: aspectRatio)
        case .list: (list.thumbnailColumns, list.thumbnailRows)
        }
    }

    /// The render job of `cell` in this layout.
    @MainActor
    func job(for cell: ImageModel) -> CellRenderJob {
        let area = area(aspectRatio: cell.aspectRatio)
        return CellRenderJob(cell: cell, columns: area.columns, rows: area.rows)
    }

    /// Whether this layout draws a picture for each cell.
    var drawsPictures: Bool {
        graphics.showsImages && (layout == .grid || list.showsThumbnails)
    }

    /// The image pixels a thumbnail needs in this layout to be sharp, or
    /// that none is drawn (then none is fetched).
    var thumbnailPixelNeed: ImagePixelNeed {
        guard drawsPictures else { return .notDrawn }
        let cell = TerminalImageRenderer.sourcePixelsPerCell(for: graphics)
        let need = layout == .grid || !list.showsThumbnails
            ? grid.pixelNeed(cellPixels: cell) : list.pixelNeed(cellPixels: cell)
        return ImagePixelNeed(width: need.width, height: need.height)
    }

    /// The text of one printed row of `cells` with their rendered `contents`.
    @MainActor
    func compose(_ cells: ArraySlice<ImageModel>, contents: ArraySlice<CellContent>) -> String {
        switch layout {
        case .grid:
            return GridComposer.compose(
                row: zip(cells, contents).map {
                    GridCell(number: $0.number, title: Self.title(of: $0, graphics: graphics), content: $1, aspectRatio: $0.aspectRatio,
                             link: $0.links.page)
                },
                layout: grid, graphics: graphics)
        case .list:
            return GridComposer.compose(
                list: zip(cells, contents).map {
                    ListEntry(number: $0.number, title: Self.title(of: $0, graphics: graphics), owner: $0.owner, content: $1,
                              titleLink: $0.links.page, ownerLink: $0.links.owner)
                },
                layout: list, graphics: graphics)
        }
    }

    /// The title shown in a label, a video's marked `▶`; with `graphics`,
    /// a photo not everyone may see is marked too (`restrictedMark`). The
    /// composer sanitises and cuts it.
    @MainActor
    static func title(of cell: ImageModel, graphics: TerminalGraphics? = nil) -> String {
        var title = cell.title.isEmpty ? "(untitled)" : cell.title
        if let graphics, cell.isRestricted { title = restrictedMark(cell, graphics: graphics) + title }
        return cell.isVideo ? "▶ " + title : title
    }

    /// A small lock where the terminal draws pictures (so it has a font
    /// with symbols and emoji); in plain output, where nothing says what
    /// the terminal can show, the visibility in words: `(private) `.
    @MainActor
    static func restrictedMark(_ cell: ImageModel, graphics: TerminalGraphics) -> String {
        graphics.showsImages ? "🔒 " : "(\(cell.visibilityName ?? "private")) "
    }
}
