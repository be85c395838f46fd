import Foundation
@testable import ImageCodecs
@testable import TerminalUI
import Testing

/// How big a thumbnail is drawn, how many source pixels it is decoded at,
/// and how a row of differently shaped photos is laid out.
@Suite("Thumbnail geometry")
struct ThumbnailGeometryTests {
    private static let symbols = TerminalGraphics(mode: .symbols, colors: .truecolor)

    @Test func symbolCellsWantEightPixelsAcrossInTheCellsShape() {
        #expect(TerminalImageRenderer.sourcePixelsPerCell(for: Self.symbols) == .init(width: 8, height: 16))
        let kitty = TerminalGraphics(mode: .kitty, colors: .truecolor, cellPixelSize: .init(width: 9, height: 21))
        #expect(TerminalImageRenderer.sourcePixelsPerCell(for: kitty) == .init(width: 9, height: 21))
    }

    @Test(arguments: [
        // A 38×14-cell symbol thumbnail needs 304×224 source pixels (a 4:3 photo fitted: 299×224).
        (640, 480, 304, 224, 1, 2),     // 320×240 covers; 3/8 (240×180) would not.
        (1024, 768, 304, 224, 3, 8),    // 384×288; 1/4 (256×192) is too small.
        (320, 240, 304, 224, 1, 1),     // Already about the size: decoded whole.
        (2048, 1365, 304, 224, 1, 4),   // 512×342 covers the 304×203 fitted; 1/8 (256) does not.
        (640, 480, 380, 280, 5, 8),     // Kitty, 10×20-pixel cells: 400×300.
    ])
    func decodeUsesTheSmallestDCTScaleThatCoversTheCell(
        width: Int, height: Int, boxWidth: Int, boxHeight: Int, num: Int, denom: Int
    ) {
        let factor = JPEGDecoder.scalingFactor(width: width, height: height, fitting: (boxWidth, boxHeight))
        #expect(factor.num * denom == num * factor.denom, "got \(factor.num)/\(factor.denom)")
        let fit = min(Double(boxWidth) / Double(width), Double(boxHeight) / Double(height))
        #expect(JPEGDecoder.scaled(width, factor) >= Int((Double(width) * min(1, fit)).rounded(.up)))
    }

    @Test func aRealDecodeForAGridCellIsScaledDown() throws {
        let data = try ImageFixtures.jpeg(width: 1024, height: 768)
        let cell = TerminalImageRenderer.sourcePixelsPerCell(for: Self.symbols)
        let decoded = try JPEGDecoder.decode(data, fitting: (38 * cell.width, 14 * cell.height))
        #expect(decoded.width == 384 && decoded.height == 288)
    }

    @Test func renderCacheKeysTellTerminalsApart() {
        let truecolor = RenderCache.Key(cacheKey: "a", columns: 38, rows: 14, graphics: Self.symbols)
        let indexed = RenderCache.Key(
            cacheKey: "a", columns: 38, rows: 14, graphics: TerminalGraphics(mode: .symbols, colors: .indexed256))
        let kitty = RenderCache.Key(
            cacheKey: "a", columns: 38, rows: 14, graphics: TerminalGraphics(mode: .kitty, colors: .truecolor))
        let otherCell = RenderCache.Key(
            cacheKey: "a", columns: 38, rows: 14,
            graphics: TerminalGraphics(mode: .kitty, colors: .truecolor, cellPixelSize: .init(width: 8, height: 16)))
        let otherSize = RenderCache.Key(cacheKey: "a", columns: 38, rows: 13, graphics: Self.symbols)
        #expect(Set([truecolor, indexed, kitty, otherCell, otherSize]).count == 5)
        #expect(truecolor == RenderCache.Key(cacheKey: "a", columns: 38, rows: 14, graphics: Self.symbols))
    }

    @Test func aRowOfMixedShapesReservesEachPhotosAreaBeforeItsBytesArrive() {
        let layout = GridLayout(terminalColumns: 120, terminalRows: 50)
        let ratios: [Double] = [1.5, 2.0 / 3.0, 1.0]
        let cells = ratios.enumerated().map { index, ratio in
            GridCell(number: index + 1, title: "photo", content: .placeholder("loading"), aspectRatio: ratio)
        }
        let text = GridComposer.compose(row: cells, layout: layout, graphics: Self.symbols)
        let lines = text.components(separatedBy: "\n")
        let rows = layout.imageRows(for: ratios)
        #expect(lines.count == rows + layout.labelRows)
        #expect(lines.allSatisfy { RenderedText.width($0) <= 120 })
        let screen = RenderedText.screen(text, columns: 120, rows: lines.count + 1)
        for (index, ratio) in ratios.enumerated() {
            let area = layout.imageSize(aspectRatio: ratio)
            let left = layout.cellOffset(index) + (layout.imageColumns - area.columns) / 2
            // The frame's corners sit exactly on the reserved area, centred in the cell.
            #expect(Self.column(of: "┌", in: screen.lines[0], from: left) == left, "cell \(index + 1)")
            #expect(Self.column(of: "┘", in: screen.lines[area.rows - 1], from: left) == left + area.columns - 1)
        }
    }

    @Test func loadedPicturesTakeTheSameRowsTheirPlaceholdersDid() throws {
        let layout = GridLayout(terminalColumns: 120, terminalRows: 50)
        let renderer = TerminalImageRenderer(graphics: Self.symbols)
        let shapes = [(600, 400), (400, 600), (500, 500)]
        var loaded: [GridCell] = []
        var waiting: [GridCell] = []
        for (index, shape) in shapes.enumerated() {
            let ratio = Double(shape.0) / Double(shape.1)
            let area = layout.imageSize(aspectRatio: ratio)
            let image = try renderer.render(
                try ImageFixtures.jpeg(width: shape.0, height: shape.1), cacheKey: "\(index)",
                columns: area.columns, rows: area.rows)
            #expect(image.columns >= area.columns - 1 && image.rows >= area.rows - 1)
            loaded.append(GridCell(number: index + 1, title: "t", content: .image(image), aspectRatio: ratio))
            waiting.append(GridCell(number: index + 1, title: "t", content: .placeholder("loading"), aspectRatio: ratio))
        }
        let before = GridComposer.compose(row: waiting, layout: layout, graphics: Self.symbols)
        let after = GridComposer.compose(row: loaded, layout: layout, graphics: Self.symbols)
        #expect(before.components(separatedBy: "\n").count == after.components(separatedBy: "\n").count)
        #expect(after.components(separatedBy: "\n").allSatisfy { RenderedText.width($0) <= 120 })
    }

    /// First column at or after `start` holding `character`, in a screen
    /// line of single-width characters.
    private static func column(of character: Character, in line: String, from start: Int) -> Int? {
        let characters = Array(line)
        guard start < characters.count else { return nil }
        return characters[start...].firstIndex(of: character)
    }
}
