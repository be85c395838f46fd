import Testing
@testable import TerminalUI

@Suite("GridLayout")
struct GridLayoutTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var width: Int
        var columns: Int
        var cellWidth: Int
        var imageColumns: Int
        var imageRows: Int
        var testDescription: String { "\(width) columns" }
    }

    @Test(arguments: [
        // 40: three 12-column cells are too narrow, so two cells of 19.
        Expected(width: 40, columns: 2, cellWidth: 19, imageColumns: 19, imageRows: 10),
        // 80: cells of 25; the image stops at the 22-column cap.
        Expected(width: 80, columns: 3, cellWidth: 25, imageColumns: 22, imageRows: 11),
        // 120: cells of 38; the image stops at the 22-column cap.
        Expected(width: 120, columns: 3, cellWidth: 38, imageColumns: 22, imageRows: 11),
        Expected(width: 200, columns: 3, cellWidth: 65, imageColumns: 22, imageRows: 11),
    ])
    func defaultGridAtCommonWidths(expected: Expected) {
        let layout = GridLayout(terminalColumns: expected.width)
        #expect(layout.columns == expected.columns)
        #expect(layout.cellWidth == expected.cellWidth)
        #expect(layout.imageColumns == expected.imageColumns)
        #expect(layout.imageRows == expected.imageRows)
        #expect(layout.gap == 2)
        #expect(layout.rowWidth <= expected.width)
        #expect(layout.cellOffset(1) == expected.cellWidth + 2)
    }

    @Test func requestedColumnsAreHonouredWhenTheyFit() {
        let layout = GridLayout(terminalColumns: 80, columns: 5)
        #expect(layout.columns == 5)
        #expect(layout.cellWidth == 14)
        #expect(layout.rowWidth <= 80)
    }

    @Test func tooManyRequestedColumnsAreReducedToReadableCells() {
        let layout = GridLayout(terminalColumns: 80, columns: 9)
        #expect(layout.columns == 5)
        #expect(layout.cellWidth >= GridLayout.minimumCellWidth)
    }

    @Test func tinyTerminalsGetOneColumnNeverNegative() {
        for width in [-5, 0, 1, 2, 5, 10, 13] {
            let layout = GridLayout(terminalColumns: width, columns: 3)
            #expect(layout.columns == 1)
            #expect(layout.cellWidth >= 1)
            #expect(layout.cellWidth <= max(1, width))
            #expect(layout.imageColumns >= 1)
            #expect(layout.imageRows >= 1)
            #expect(layout.rowWidth <= max(1, width))
        }
    }

    @Test func everyWidthAndColumnCountFitsTheTerminal() {
        for width in 1...260 {
            for requested in 0...10 {
                let layout = GridLayout(terminalColumns: width, columns: requested)
                #expect(layout.columns >= 1)
                #expect(layout.cellWidth >= 1)
                #expect(layout.imageColumns <= layout.cellWidth)
                #expect(layout.rowWidth <= width)
                #expect(layout.cellOffset(layout.columns - 1) + layout.cellWidth <= width)
            }
        }
    }

    @Test func pixelCellAspectChangesTheImageHeight() {
        let squareCells = GridLayout(terminalColumns: 120, cellAspectRatio: 1.0)
        #expect(squareCells.imageRows == squareCells.imageColumns)
        let graphics = TerminalGraphics(mode: .kitty, colors: .truecolor, cellPixelSize: .init(width: 8, height: 16))
        let fromGraphics = GridLayout(terminalColumns: 120, graphics: graphics)
        // 8×16-pixel cells are twice as tall as wide: 22 columns need 11 rows.
        #expect(fromGraphics.imageRows == 11)
    }

    @Test func rowCountRoundsUp() {
        let layout = GridLayout(terminalColumns: 120)
        #expect(layout.rowCount(for: 0) == 0)
        #expect(layout.rowCount(for: 30) == 10)
        #expect(layout.rowCount(for: 31) == 11)
    }
}

@Suite("ListLayout and DetailLayout")
struct ListAndDetailLayoutTests {
    @Test(arguments: [40, 80, 120, 200])
    func listLinesFitTheTerminal(width: Int) {
        for thumbnails in [true, false] {
            let layout = ListLayout(terminalColumns: width, showsThumbnails: thumbnails, numberWidth: 3)
            #expect(layout.textOffset + layout.textColumns <= width)
            if layout.ownerColumns > 0 {
                #expect(layout.textOffset + layout.titleColumns + layout.gap + layout.ownerColumns <= width)
            }
        }
    }

    @Test func narrowListDropsTheThumbnail() {
        let layout = ListLayout(terminalColumns: 20, showsThumbnails: true)
        #expect(!layout.showsThumbnails)
        #expect(layout.entryHeight == 1)
    }

    @Test func detailImageFitsTheWindowAndKeepsAspect() {
        let layout = DetailLayout(terminalColumns: 120, terminalRows: 40, imageWidth: 1024, imageHeight: 683)
        #expect(layout.imageRows <= 40 - DetailLayout.defaultMetadataRows - DetailLayout.reservedRows)
        #expect(layout.imageColumns <= 120)
        // 1024:683 ≈ 1.5; in 1:2 cells that is 3 columns per row.
        let ratio = Double(layout.imageColumns) / Double(layout.imageRows)
        #expect(abs(ratio - 3.0) < 0.15)
    }

    @Test func detailOfAPortraitPhotoIsLimitedByHeight() {
        let layout = DetailLayout(terminalColumns: 200, terminalRows: 30, imageWidth: 683, imageHeight: 1024)
        #expect(layout.imageRows == 30 - 5 - 2)
        #expect(layout.imageColumns < 200)
    }

    @Test func detailWithUnknownSizeOrTinyWindowStaysPositive() {
        let unknown = DetailLayout(terminalColumns: 80, terminalRows: 24, imageWidth: nil, imageHeight: 0)
        #expect(unknown.imageColumns >= 1 && unknown.imageColumns <= 80)
        let tiny = DetailLayout(terminalColumns: 3, terminalRows: 2, imageWidth: 640, imageHeight: 480)
        #expect(tiny.imageColumns >= 1 && tiny.imageRows >= 1)
    }
}
