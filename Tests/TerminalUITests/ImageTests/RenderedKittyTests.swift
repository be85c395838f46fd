import Foundation
import ImageCodecs
@testable import TerminalUI
import Testing

/// Fewer bytes for kitty images, the same screen: inside tmux, a page of
/// placeholder text resolves cell by cell to the same image parts it
/// named when every cell carried its marks; images travel at the pixels
/// their cells show.
@Suite("Rendered kitty bytes")
struct RenderedKittyTests {
    static let tmuxKitty = TerminalGraphics(mode: .kitty, colors: .truecolor, insideTmux: true)

    static func page(_ pictures: [GridPageRenderer.Picture]) async -> (text: String, renderer: TerminalImageRenderer) {
        let layout = GridLayout(terminalColumns: 120, terminalRows: 50, graphics: tmuxKitty)
        let renderer = TerminalImageRenderer(graphics: tmuxKitty)
        return (await GridPageRenderer.render(pictures, layout: layout, renderer: renderer, width: 1), renderer)
    }

    @Test func everyPlaceholderCellResolvesToItsPartOfItsImage() async throws {
        let pictures = try RenderedBytesTests.pictures()
        let (text, _) = await Self.page(pictures)
        let screen = RenderedBytesTests.screen(text)
        #expect(screen.notUnderstood.isEmpty)
        #expect(screen.overflows == 0)
        let (parts, unresolved) = screen.placeholderParts()
        #expect(unresolved.isEmpty)
        // Each image covers a rectangle whose cell (r, c) from its top-left
        // corner is the image's row r, column c: what the explicit marks of
        // every cell said before.
        var corners: [UInt32: (row: Int, column: Int, cells: Int)] = [:]
        for (screenRow, cells) in parts.enumerated() {
            for (screenColumn, part) in cells.enumerated() {
                guard let part else { continue }
                let corner = corners[part.image] ?? (screenRow - part.row, screenColumn - part.column, 0)
                #expect(screenRow - part.row == corner.row && screenColumn - part.column == corner.column,
                         "\(part) at \(screenRow),\(screenColumn)")
                corners[part.image] = (corner.row, corner.column, corner.cells + 1)
            }
        }
        #expect(corners.count == pictures.count)
        #expect(corners.values.allSatisfy { $0.cells > 20 * 8 })
    }

    @Test func anImageRowCarriesItsMarksOnlyInItsFirstCell() {
        let rows = KittyPlaceholder.rows(id: 0x12_3456, columns: 38, rows: 19)
        let colour = "\u{1B}[38;2;18;52;86m"
        for (row, line) in rows.enumerated() {
            // The colour, one placeholder with its row and column 0, 37 bare
            // placeholders, the reset: 4 + 2 + 2 + 37 × 4 bytes of cells.
            #expect(line.utf8.count == colour.utf8.count + 8 + 37 * 4 + "\u{1B}[39m".utf8.count)
            let first = String(String.UnicodeScalarView([
                KittyPlaceholder.character, KittyPlaceholder.diacritics[row], KittyPlaceholder.diacritics[0]]))
            #expect(line.hasPrefix(colour + first))
        }
    }

    @Test func aThumbnailTravelsAtThePixelsItsCellsShow() throws {
        let graphics = TerminalGraphics(mode: .kitty, colors: .truecolor)
        let renderer = TerminalImageRenderer(graphics: graphics)
        // A 420 x 560 decode (a 640 px JPEG at 7/8) placed on 38 x 25 cells of 10 x 20 px.
        let image = renderer.render(PixelFixtures.gradient(width: 420, height: 560), columns: 38, rows: 25)
        let png = try Self.png(of: image)
        #expect(image.columns == 38 && image.rows == 25)
        #expect(png.width == 380 && png.height == 500)
    }

    @Test func aPictureSmallerThanItsCellsIsNotEnlarged() throws {
        let renderer = TerminalImageRenderer(graphics: TerminalGraphics(mode: .kitty, colors: .truecolor))
        let image = renderer.render(PixelFixtures.gradient(width: 120, height: 90), columns: 38, rows: 14)
        let png = try Self.png(of: image)
        #expect(png.width == 120 && png.height == 90)
    }

    @Test func aShrinkByAFewPerCentKeepsARampEven() {
        // Five pixels of a ramp into four: each target pixel is the mean of
        // the 1.25 source pixels it covers, so the steps stay equal.
        let ramp: [UInt8] = [0, 40, 80, 120, 160].flatMap { [$0, $0, $0] }
        let shrunk = KittyEncoder.downscale(ramp, from: (5, 1), to: (4, 1))
        let reds = stride(from: 0, to: shrunk.count, by: 3).map { Int(shrunk[$0]) }
        let expected = [8, 56, 104, 152]
        #expect(zip(reds, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(reds)")
    }

    static func png(of image: RenderedImage) throws -> PNGReader.Image {
        let upload = try #require(image.kittyUpload)
        let payload = ParsedKittyCommand.all(in: upload.commands).map(\.payload).joined()
        let bytes = try #require(Data(base64Encoded: payload))
        return try #require(PNGReader.read([UInt8](bytes)))
    }
}
