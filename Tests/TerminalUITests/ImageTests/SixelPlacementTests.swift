import Testing
import TestSupport
@testable import TerminalUI

/// Sixel rows on a screen that models where xterm puts a sixel image and
/// its cursor: rows stay level and the titles sit right under the pictures,
/// also when a picture's bottom reaches the last screen line.
@Suite("Sixel placement on screen")
struct SixelPlacementTests {
    static let cellHeight = 20
    static let graphics = TerminalGraphics(
        mode: .sixels, colors: .truecolor,
        cellPixelSize: TerminalGraphics.CellPixelSize(width: 10, height: cellHeight))

    /// A one-colour sixel image `rows` cells tall, with raster attributes.
    static func sixel(columns: Int, rows: Int) -> String {
        let width = columns * 10
        let height = rows * cellHeight
        let bands = (height + 5) / 6
        let band = "!\(width)~"
        return "\u{1B}P0;1;0q\"1;1;\(width);\(height)#1;2;100;0;0#1"
            + Array(repeating: band, count: bands).joined(separator: "-") + "\u{1B}\\"
    }

    static func row(_ numbers: ClosedRange<Int>, layout: GridLayout) -> [GridCell] {
        numbers.map { number in
            let image = RenderedImage(
                columns: layout.imageColumns, rows: layout.imageRows, mode: .sixels,
                content: .pixels(sixel(columns: layout.imageColumns, rows: layout.imageRows)))
            return GridCell(number: number, title: "title \(number)", content: .image(image))
        }
    }

    /// Prints `text` as the terminal view does: "\n" as CR LF, a newline after.
    static func print(_ text: String, on screen: inout TerminalScreen) {
        screen.feed((text + "\n").replacingOccurrences(of: "\n", with: "\r\n"))
    }

    /// A screen whose cursor is where an image `rows` tall ends on the last line.
    static func screenFilledUntilTheLastImageRowIsTheBottom(rows imageRows: Int) -> TerminalScreen {
        var screen = TerminalScreen(columns: 120, rows: 30, cellPixelHeight: cellHeight)
        for line in 0..<(30 - imageRows) { print("before \(line)", on: &screen) }
        return screen
    }

    @Test func rowsReachingTheBottomStayLevelWithTheirTitlesRightUnderneath() {
        let layout = GridLayout(terminalColumns: 120, graphics: Self.graphics)
        var screen = Self.screenFilledUntilTheLastImageRowIsTheBottom(rows: layout.imageRows)
        for first in stride(from: 1, through: 10, by: layout.columns) {
            let cells = Self.row(first...(first + layout.columns - 1), layout: layout)
            Self.print(GridComposer.compose(row: cells, layout: layout, graphics: Self.graphics), on: &screen)
        }
        let rows = stride(from: 0, to: screen.images.count, by: layout.columns).map {
            Array(screen.images[$0..<min($0 + layout.columns, screen.images.count)])
        }
        #expect(rows.count >= 3)
        var previousLabelLine: Int?
        for (index, row) in rows.enumerated() {
            let top = row[0].line
            #expect(row.allSatisfy { $0.line == top }, "row \(index) is a staircase: \(row)")
            #expect(row.map(\.column) == (0..<row.count).map { layout.cellOffset($0) - layout.cellOffset(0) + row[0].column })
            let labelLine = top + layout.imageRows
            let first = index * layout.columns + 1
            #expect(screen.text(ofLine: labelLine)?.hasPrefix("\(first) title \(first)") == true,
                    "titles of row \(index) right under its pictures, got \(screen.text(ofLine: labelLine) ?? "nil")")
            if let previousLabelLine {
                #expect(top == previousLabelLine + 1, "no blank line between rows")
            }
            previousLabelLine = labelLine
        }
    }

    @Test func theDetailViewPrintsItsFirstLineRightUnderThePicture() throws {
        let layout = DetailLayout(
            terminalColumns: 120, terminalRows: 30, imageWidth: 800, imageHeight: 600,
            metadataRows: 3, cellAspectRatio: 2)
        var screen = Self.screenFilledUntilTheLastImageRowIsTheBottom(rows: layout.imageRows)
        let image = RenderedImage(
            columns: layout.imageColumns, rows: layout.imageRows, mode: .sixels,
            content: .pixels(Self.sixel(columns: layout.imageColumns, rows: layout.imageRows)))
        let text = GridComposer.composeDetail(
            .image(image), metadata: ["#7 a lake", "owner: someone", "taken: 2024"],
            layout: layout, graphics: Self.graphics)
        Self.print(text, on: &screen)
        let picture = try #require(screen.images.first)
        #expect(screen.images.count == 1)
        #expect(screen.text(ofLine: picture.lastLine + 1) == "#7 a lake")
        #expect(screen.lastNonEmptyLine == "taken: 2024")
    }
}
