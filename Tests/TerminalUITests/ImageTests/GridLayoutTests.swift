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
        Expected(width: 40, columns: 2, cellWidth: 19, imageColumns: 19, imageRows: 7),
        // The picture fills the cell; a 4:3 photo in 1:2 cells is 3/8 as tall as wide.
        Expected(width: 80, columns: 3, cellWidth: 25, imageColumns: 25, imageRows: 9),
        Expected(width: 120, columns: 3, cellWidth: 38, imageColumns: 38, imageRows: 14),
        Expected(width: 200, columns: 3, cellWidth: 65, imageColumns: 65, imageRows: 24),
    ])
    func defaultGridAtCommonWidths(expected: Expected) {
        let layout = GridLayout(terminalColumns: expected.width, terminalRows: 60)
        #expect(layout.columns == expected.columns)
        #expect(layout.cellWidth == expected.cellWidth)
        #expect(layout.imageColumns == expected.imageColumns)
        #expect(layout.imageRows == expected.imageRows)
        #expect(layout.gap == 2)
        #expect(layout.rowWidth <= expected.width)
        #expect(layout.cellOffset(1) == expected.cellWidth + 2)
    }

    @Test func picturesFillTheCellWidthAtWideWindows() {
        // The median photo is landscape: it gets the whole cell.
        #expect(GridLayout(terminalColumns: 120, terminalRows: 50).imageSize(aspectRatio: 1.5).columns >= 30)
        #expect(GridLayout(terminalColumns: 200, terminalRows: 60).imageSize(aspectRatio: 1.5).columns >= 45)
    }

    @Test func eachPictureKeepsItsPhotosAspectRatio() {
        let layout = GridLayout(terminalColumns: 120, terminalRows: 50)
        for ratio in [0.5, 2.0 / 3.0, 0.75, 1.0, 4.0 / 3.0, 1.5, 16.0 / 9.0, 3.0] {
            let size = layout.imageSize(aspectRatio: ratio)
            // Columns over rows × 2 (the cell aspect) is the photo's shape, within a cell of rounding.
            let shown = Double(size.columns) / (Double(size.rows) * 2)
            #expect(abs(shown - ratio) / ratio < 0.1, "ratio \(ratio) shown as \(size)")
            #expect(size.columns <= layout.imageColumns && size.rows <= layout.maximumImageRows)
        }
    }

    @Test func aTallPictureStopsAtTheWindowHeightAndNarrows() {
        let layout = GridLayout(terminalColumns: 200, terminalRows: 30)
        // Full width (65 columns) would make a 1:2 portrait 65 rows tall.
        let size = layout.imageSize(aspectRatio: 0.5)
        #expect(layout.maximumImageRows == 30 - 1 - GridLayout.reservedRows)
        #expect(size.rows == layout.maximumImageRows)
        #expect(size.columns == 27)
        // A whole row, label included, fits on screen with the status line and prompt.
        #expect(layout.imageRows(for: [0.5, 1.5]) + layout.labelRows + GridLayout.reservedRows <= 30)
    }

    @Test func aRowIsAsTallAsItsTallestPicture() {
        let layout = GridLayout(terminalColumns: 120, terminalRows: 50)
        let landscape = layout.imageSize(aspectRatio: 1.5).rows
        let portrait = layout.imageSize(aspectRatio: 2.0 / 3.0).rows
        #expect(portrait > landscape)
        #expect(layout.imageRows(for: [1.5, 2.0 / 3.0, nil]) == portrait)
        #expect(layout.imageRows(for: [1.5, 1.5]) == landscape)
    }

    @Test func unknownOrNonsenseAspectRatiosGetTheAssumedShape() {
        let layout = GridLayout(terminalColumns: 120, terminalRows: 50)
        let assumed = layout.imageSize(aspectRatio: GridLayout.assumedAspectRatio)
        for ratio in [nil, 0, -1, .nan, .infinity] as [Double?] {
            #expect(layout.imageSize(aspectRatio: ratio) == assumed)
        }
        // Extreme but valid shapes stay inside the cell, at least one cell big.
        for ratio in [1e-9, 1e9] {
            let size = layout.imageSize(aspectRatio: ratio)
            #expect(size.columns >= 1 && size.columns <= layout.imageColumns)
            #expect(size.rows >= 1 && size.rows <= layout.maximumImageRows)
        }
    }

    @Test func pixelNeedCoversTheLargestPictureArea() {
        let layout = GridLayout(terminalColumns: 120, terminalRows: 50)
        let need = layout.pixelNeed(cellPixels: .init(width: 8, height: 16))
        #expect(need.width == 38 * 8)
        #expect(need.height == layout.maximumImageRows * 16)
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
        let squareCells = GridLayout(terminalColumns: 120, terminalRows: 60, cellAspectRatio: 1.0)
        #expect(squareCells.imageSize(aspectRatio: 1).rows == squareCells.imageColumns)
        let graphics = TerminalGraphics(mode: .kitty, colors: .truecolor, cellPixelSize: .init(width: 8, height: 16))
        let fromGraphics = GridLayout(terminalColumns: 120, terminalRows: 60, graphics: graphics)
        // 8×16-pixel cells are twice as tall as wide: a square photo 38 columns wide needs 19 rows.
        #expect(fromGraphics.imageSize(aspectRatio: 1).rows == 19)
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

    @Test func listThumbnailsGrowWithTheWindow() {
        let narrow = ListLayout(terminalColumns: 80, showsThumbnails: true)
        let wide = ListLayout(terminalColumns: 200, showsThumbnails: true)
        #expect(narrow.thumbnailColumns == ListLayout.minimumThumbnailColumns)
        #expect(wide.thumbnailColumns == 20)
        #expect(wide.thumbnailRows > narrow.thumbnailRows)
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
