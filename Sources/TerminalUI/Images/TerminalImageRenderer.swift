import CChafa
import Foundation
import ImageCodecs

/// Turns image bytes (JPEG, PNG, GIF or WebP) into terminal output with libchafa, for one resolved
/// `TerminalGraphics`, and keeps what it rendered in a bounded LRU cache.
///
/// Thread-safe: every render builds its own chafa symbol map, config and
/// canvas; the shared terminal description is only read. Call `render` from
/// background tasks, in parallel (a thumbnail costs a millisecond or two);
/// `cachedImage` is cheap enough for the main actor.
public final class TerminalImageRenderer: Sendable {
    public struct Configuration: Sendable {
        /// chafa's effort (0…1). Higher picks symbols more carefully; 0.2
        /// looks nearly as good as 1.0 at a fraction of the time.
        public var workFactor: Float = 0.2
        /// Render cache bounds: entries and bytes of output.
        public var cacheCountLimit = 400
        public var cacheCostLimit = 48 << 20
        /// Threads libchafa may use inside one render, applied process-wide
        /// when the renderer is created; nil keeps chafa's default (one per
        /// core). 1 by default: thumbnails are small and already rendered in
        /// parallel, one task each, so chafa's own hand-offs only add cost.
        public var libraryThreads: Int? = 1
        /// Where symbol and sixel renderings are kept between runs (nil:
        /// memory only), and how many bytes they may take there.
        public var diskCacheDirectory: URL?
        public var diskCacheSizeLimit = 64 << 20

        public init() {}
    }

    public let graphics: TerminalGraphics
    public let configuration: Configuration
    private let terminal: ChafaTerminal
    private let cache: RenderCache
    private let disk: RenderDiskCache?
    /// Kitty mode: which images the terminal holds (sent once, shown by id).
    let kittyImages: KittyImageRegistry

    public init(graphics: TerminalGraphics, configuration: Configuration = Configuration()) {
        self.graphics = graphics
        self.configuration = configuration
        self.terminal = ChafaTerminal(graphics: graphics)
        self.kittyImages = KittyImageRegistry(passthrough: graphics.usesKittyPlaceholders)
        self.cache = RenderCache(
            countLimit: configuration.cacheCountLimit, costLimit: configuration.cacheCostLimit)
        self.disk = configuration.diskCacheDirectory.flatMap { directory in
            RenderDiskCache.keeps(graphics.mode)
                ? RenderDiskCache(
                    directory: directory, sizeLimit: configuration.diskCacheSizeLimit,
                    graphics: graphics, workFactor: configuration.workFactor)
                : nil
        }
        if let threads = configuration.libraryThreads {
            Self.setLibraryThreadCount(threads)
        }
    }

    /// Decodes and renders `data` to fit within `columns × rows` cells,
    /// keeping the picture's aspect (the result may be narrower or shorter
    /// than asked). Results are cached under `cacheKey` and the geometry, so
    /// showing the same picture at the same size again costs nothing; with a
    /// disk cache, that holds in the next run too.
    ///
    /// In `.none` mode nothing is drawn: the result is an empty 0×0 image.
    public func render(
        _ data: Data, cacheKey: String, columns: Int, rows: Int
    ) throws(ImageDecodeError) -> RenderedImage {
        let key = RenderCache.Key(cacheKey: cacheKey, columns: columns, rows: rows, graphics: graphics)
        if let cached = cache.value(for: key) { return cached }
        guard graphics.showsImages else {
            return RenderedImage(columns: 0, rows: 0, mode: .none, content: .symbols([]))
        }
        let box = Self.clampedBox(columns: columns, rows: rows)
        if let stored = disk?.image(cacheKey: cacheKey, columns: columns, rows: rows),
           stored.columns <= box.columns, stored.rows <= box.rows {
            cache.insert(stored, for: key)
            return stored
        }
        let header = try ImageDecoder.dimensions(of: data)
        let geometry = fittedGeometry(width: header.width, height: header.height, columns: box.columns, rows: box.rows)
        let decoded = try ImageDecoder.decode(data, fitting: pixelSize(for: geometry))
        let image = draw(decoded, columns: geometry.columns, rows: geometry.rows)
        cache.insert(image, for: key)
        disk?.insert(image, cacheKey: cacheKey, columns: columns, rows: rows)
        return image
    }

    /// A previously rendered image, without decoding anything.
    public func cachedImage(cacheKey: String, columns: Int, rows: Int) -> RenderedImage? {
        cache.value(for: RenderCache.Key(cacheKey: cacheKey, columns: columns, rows: rows, graphics: graphics))
    }

    /// Renders already decoded pixels (not cached), fitted into the box like `render`.
    public func render(_ image: DecodedImage, columns: Int, rows: Int) -> RenderedImage {
        guard graphics.showsImages else {
            return RenderedImage(columns: 0, rows: 0, mode: .none, content: .symbols([]))
        }
        let box = Self.clampedBox(columns: columns, rows: rows)
        let geometry = fittedGeometry(
            width: image.sourceWidth, height: image.sourceHeight, columns: box.columns, rows: box.rows)
        return draw(image, columns: geometry.columns, rows: geometry.rows)
    }

    /// Drops every cached rendering (for example after the mode changed).
    public func removeAllCached() {
        cache.removeAll()
    }

    /// Number of cached renderings, and their bytes.
    public var cachedCount: Int { cache.count }
    public var cachedBytes: Int { cache.totalCost }

    /// Returns once every rendering kept so far is written to disk.
    public func flushDiskCache() async {
        await disk?.flush()
    }

    /// Sets the threads libchafa uses inside one render (process-wide).
    public static func setLibraryThreadCount(_ count: Int) {
        chafa_set_n_threads(Int32(max(1, count)))
    }

    /// The thread count libchafa currently uses.
    public static var libraryThreadCount: Int { Int(chafa_get_n_threads()) }

    // MARK: - Geometry

    /// Chafa's symbol matcher works on 8×8 pixels per cell, so more input
    /// than that is wasted decoding.
    private static let symbolCellPixels = 8

    /// Source pixels per terminal cell worth decoding (and downloading):
    /// the cell's real pixels in pixel modes; in symbol modes 8 across and
    /// 8 × the cell aspect down, a box with the cell's own shape, so a
    /// photo fitted into it keeps 8 pixels per column (the vertical 8 per
    /// row then come with room to spare).
    public static func sourcePixelsPerCell(for graphics: TerminalGraphics) -> TerminalGraphics.CellPixelSize {
        if graphics.mode.isPixelMode { return graphics.cellPixelSize }
        let aspect = graphics.cellAspectRatio > 0 ? graphics.cellAspectRatio : 2.0
        return TerminalGraphics.CellPixelSize(
            width: symbolCellPixels, height: Int((Double(symbolCellPixels) * aspect).rounded()))
    }

    /// Keeps absurd requests (a 100,000-column box) from allocating a huge canvas.
    private static let maxCells = 1_000

    private static func clampedBox(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        (min(max(1, columns), maxCells), min(max(1, rows), maxCells))
    }

    /// The largest `columns × rows` within the box that keeps a
    /// `width × height` picture undistorted, given that cells are
    /// `cellAspectRatio` times taller than wide.
    func fittedGeometry(width: Int, height: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        Self.fit(
            width: width, height: height, columns: columns, rows: rows,
            cellAspectRatio: graphics.cellAspectRatio)
    }

    static func fit(
        width: Int, height: Int, columns: Int, rows: Int, cellAspectRatio: Double
    ) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0, cellAspectRatio > 0 else {
            return (max(1, columns), max(1, rows))
        }
        // Work in units of cell widths: the box is `columns` wide and
        // `rows * aspect` tall.
        let scale = min(Double(columns) / Double(width), Double(rows) * cellAspectRatio / Double(height))
        let fittedColumns = Int((Double(width) * scale).rounded())
        let fittedRows = Int((Double(height) * scale / cellAspectRatio).rounded())
        return (min(columns, max(1, fittedColumns)), min(rows, max(1, fittedRows)))
    }

    /// Pixels worth decoding for a canvas of this geometry.
    private func pixelSize(for geometry: (columns: Int, rows: Int)) -> (width: Int, height: Int) {
        let cell = Self.sourcePixelsPerCell(for: graphics)
        return (geometry.columns * cell.width, geometry.rows * cell.height)
    }

    // MARK: - Chafa

    var canvasMode: ChafaCanvasMode {
        if graphics.mode.isPixelMode { return CHAFA_CANVAS_MODE_TRUECOLOR }
        switch graphics.colors {
        case .truecolor: return CHAFA_CANVAS_MODE_TRUECOLOR
        // 240 skips the 16 user-themable colours, which would make photos
        // come out in someone's palette.
        case .indexed256: return CHAFA_CANVAS_MODE_INDEXED_240
        case .indexed16: return CHAFA_CANVAS_MODE_INDEXED_16
        case .indexed8: return CHAFA_CANVAS_MODE_INDEXED_8
        case .monochrome: return CHAFA_CANVAS_MODE_FGBG
        }
    }

    private var pixelMode: ChafaPixelMode {
        switch graphics.mode {
        case .sixels: CHAFA_PIXEL_MODE_SIXELS
        case .kitty: CHAFA_PIXEL_MODE_KITTY
        case .iterm: CHAFA_PIXEL_MODE_ITERM2
        case .auto, .none, .symbols: CHAFA_PIXEL_MODE_SYMBOLS
        }
    }

    /// The pixel protocols get their own encoders (kitty) or a byte budget
    /// (sixels); symbols and iTerm2 go straight to chafa.
    private func draw(_ image: DecodedImage, columns: Int, rows: Int) -> RenderedImage {
        switch graphics.mode {
        case .kitty: drawKitty(image, columns: columns, rows: rows)
        case .sixels: drawSixels(image, columns: columns, rows: rows)
        case .auto, .none, .symbols, .iterm:
            drawWithChafa(image, columns: columns, rows: rows, canvasMode: canvasMode, cellPixelSize: graphics.cellPixelSize)
        }
    }

    /// One chafa canvas: configure, draw the pixels, print with the terminal
    /// description, release everything. `cellPixelSize` sets the pixels of
    /// a pixel-mode image (fewer pixels, fewer bytes).
    func drawWithChafa(
        _ image: DecodedImage, columns: Int, rows: Int,
        canvasMode: ChafaCanvasMode, cellPixelSize: TerminalGraphics.CellPixelSize
    ) -> RenderedImage {
        guard let config = chafa_canvas_config_new() else { return blank(columns: columns, rows: rows) }
        defer { chafa_canvas_config_unref(config) }
        guard let symbolMap = chafa_symbol_map_new() else { return blank(columns: columns, rows: rows) }
        // Block elements (full, halves, quadrants, eighths) and space: they
        // are single-width in every font, which the layout relies on, and a
        // small set keeps matching fast.
        chafa_symbol_map_add_by_tags(symbolMap, ChafaSymbolTags(
            rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue))
        chafa_symbol_map_remove_by_tags(symbolMap, CHAFA_SYMBOL_TAG_WIDE)
        // The config keeps its own copy.
        chafa_canvas_config_set_symbol_map(config, symbolMap)
        chafa_symbol_map_unref(symbolMap)
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_canvas_mode(config, canvasMode)
        chafa_canvas_config_set_pixel_mode(config, pixelMode)
        chafa_canvas_config_set_work_factor(config, configuration.workFactor)
        // chafa's preprocessing adjusts the picture so small palettes cope;
        // with 24-bit colour the photo's own colours are kept, and its cost
        // (up to a third of the render time on busy pictures) saved.
        chafa_canvas_config_set_preprocessing_enabled(config, canvasMode == CHAFA_CANVAS_MODE_TRUECOLOR ? 0 : 1)
        // Attribute reuse only: repeat/skip optimisations would emit cursor
        // and REP sequences that break placing rows side by side.
        chafa_canvas_config_set_optimizations(config, CHAFA_OPTIMIZATION_REUSE_ATTRIBUTES)
        if graphics.mode.isPixelMode {
            chafa_canvas_config_set_cell_geometry(
                config, Int32(cellPixelSize.width), Int32(cellPixelSize.height))
        }
        guard let canvas = chafa_canvas_new(config) else {
            return blank(columns: columns, rows: rows)
        }
        defer { chafa_canvas_unref(canvas) }
        image.rgba.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress,
                Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
        guard let printed = chafa_canvas_print(canvas, terminal.info) else {
            return blank(columns: columns, rows: rows)
        }
        defer { g_string_free(printed, 1) }
        let bytes = UnsafeRawBufferPointer(start: printed.pointee.str, count: Int(printed.pointee.len))

        if graphics.mode.isPixelMode {
            let sequence = String(decoding: bytes, as: UTF8.self)
            return RenderedImage(columns: columns, rows: rows, mode: graphics.mode, content: .pixels(sequence))
        }
        return RenderedImage(
            columns: columns, rows: rows, mode: graphics.mode,
            content: .symbols(Self.symbolRows(
                bytes, rows: rows, columns: columns, repeats: graphics.repeatsCharacters)))
    }

    /// Splits chafa's symbol output into exactly `rows` rows, runs written
    /// with REP when the terminal repeats characters. Works on the UTF-8
    /// bytes: splitting a String by Character would cost more than chafa's
    /// own work on these escape-dense rows.
    static func symbolRows(_ bytes: UnsafeRawBufferPointer, rows: Int, columns: Int, repeats: Bool) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(rows)
        var compressed: [UInt8] = []
        func append(_ line: UnsafeRawBufferPointer) {
            guard repeats else {
                lines.append(String(decoding: line, as: UTF8.self))
                return
            }
            compressed.removeAll(keepingCapacity: true)
            CharacterRepeat.compress(Array(line)[...], into: &compressed)
            lines.append(String(decoding: compressed, as: UTF8.self))
        }
        var start = 0
        for index in 0..<bytes.count where bytes[index] == 0x0A {
            append(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            start = index + 1
        }
        if start < bytes.count {
            append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        }
        if lines.count > rows { lines.removeLast(lines.count - rows) }
        while lines.count < rows { lines.append(String(repeating: " ", count: columns)) }
        return lines
    }

    /// What is shown if chafa cannot allocate a canvas: the right size, empty.
    func blank(columns: Int, rows: Int) -> RenderedImage {
        RenderedImage(
            columns: columns, rows: rows, mode: .symbols,
            content: .symbols(Array(repeating: String(repeating: " ", count: columns), count: rows)))
    }
}
