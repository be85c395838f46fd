import Foundation
import Testing
import TestSupport
@testable import TerminalUI

@Suite("GridComposer")
struct GridComposerTests {
    /// Titles that are hard to align: wide CJK, combining marks, emoji
    /// sequences, and one trying to drive the terminal.
    static let titles = [
        "東京タワーの夜景と富士山、とても長いタイトル",
        "Cafe\u{301} cre\u{300}me bru\u{302}le\u{301}e in the morning sun",
        "🐈‍⬛ cat and 👨‍👩‍👧 family 🇳🇴 at the fjord",
    ]
    /// The same kinds of script, with emoji every terminal (and the screen
    /// model) agrees are two columns: ZWJ sequences and flags are drawn as one
    /// glyph by some terminals and several by others, so screen-level checks
    /// avoid them.
    static let screenTitles = [
        titles[0],
        titles[1],
        "🐱 cat at the 🌅 fjord with stacked marks a\u{301}\u{323}\u{308}",
    ]
    static let widths = [40, 80, 120, 200]

    private static let truecolor = TerminalGraphics(mode: .symbols, colors: .truecolor)
    private static let monochrome = TerminalGraphics(mode: .symbols, colors: .monochrome)

    /// Three cells: two rendered thumbnails and a placeholder.
    private static func cells(
        layout: GridLayout, graphics: TerminalGraphics, titles: [String] = titles
    ) throws -> [GridCell] {
        let renderer = TerminalImageRenderer(graphics: graphics)
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let image = try renderer.render(data, cacheKey: "q", columns: layout.imageColumns, rows: layout.imageRows)
        return [
            GridCell(number: 101, title: titles[0], content: .image(image)),
            GridCell(number: 102, title: titles[1], content: .placeholder("loading 40%")),
            GridCell(number: 103, title: titles[2], content: .image(image)),
        ]
    }

    @Test(arguments: widths)
    func symbolRowLinesNeverExceedTheTerminalWidth(width: Int) throws {
        let layout = GridLayout(terminalColumns: width)
        let cells = try Self.cells(layout: layout, graphics: Self.truecolor)
        let text = GridComposer.compose(row: cells, layout: layout, graphics: Self.truecolor)
        let lines = text.components(separatedBy: "\n")
        #expect(lines.count == layout.imageRows + layout.labelRows)
        for line in lines {
            #expect(RenderedText.width(line) <= width, "\(RenderedText.visible(line))")
        }
    }

    @Test(arguments: widths)
    func labelsStartAtTheirCellsWhateverTheScript(width: Int) throws {
        let layout = GridLayout(terminalColumns: width)
        let cells = try Self.cells(layout: layout, graphics: Self.truecolor)
        let text = GridComposer.compose(row: cells, layout: layout, graphics: Self.truecolor)
        let labelLine = try #require(text.components(separatedBy: "\n").last)
        for (index, cell) in cells.prefix(layout.columns).enumerated() {
            #expect(RenderedText.column(of: "\(cell.number) ", in: labelLine) == layout.cellOffset(index))
        }
        // Cells beyond the layout's columns are not drawn.
        if layout.columns < cells.count {
            #expect(RenderedText.column(of: "103 ", in: labelLine) == nil)
        }
    }

    /// Measured by the screen model (per scalar, as xterm draws them), not
    /// by `DisplayWidth`: long Devanagari, Tamil and Thai titles are cut so
    /// the row never wraps, and every label starts at its cell.
    @Test(arguments: [80, 120])
    func indicAndThaiTitlesKeepTheirCellsOnAnXtermLikeScreen(width: Int) throws {
        let titles = [
            "हिन्दी समाचार और क्षेत्रीय तस्वीरें हिन्दी समाचार",
            "தமிழ் கொண்டாட்டம் கோவில் திருவிழா தமிழ்",
            "น้ำตกภาษาไทยกำแพงน้ำตกภาษาไทยกำแพงน้ำตก",
        ]
        let layout = GridLayout(terminalColumns: width)
        let cells = titles.enumerated().map { GridCell(number: $0.offset + 1, title: $0.element, content: .placeholder("")) }
        var screen = TerminalScreen(columns: width, rows: 4)
        screen.feed(GridComposer.compose(row: cells, layout: layout, graphics: .none))
        #expect(screen.cursor.row == 0, "the label line wrapped: \(screen.lines)")
        let line = screen.lines[0]
        for index in 1..<min(cells.count, layout.columns) {
            let start = try #require(line.range(of: " \(index + 1) ")).lowerBound
            #expect(TerminalScreen.columns(printing: String(line[..<start])) + 1 == layout.cellOffset(index),
                    "label \(index + 1) in \(line)")
        }
    }

    @Test func labelsShowNumberThenTitleCutWithAnEllipsis() throws {
        let layout = GridLayout(terminalColumns: 80)
        let cells = [GridCell(number: 7, title: "A very long title that cannot fit in one cell", content: .placeholder(""))]
        let labelLine = try #require(
            GridComposer.compose(row: cells, layout: layout, graphics: .none).components(separatedBy: "\n").last)
        #expect(labelLine.hasPrefix("7 A very long"))
        #expect(labelLine.hasSuffix("…"))
        #expect(DisplayWidth.of(labelLine) == layout.cellWidth)
    }

    @Test func wideCharactersAreNotSplitWhenCut() {
        let label = GridComposer.label(number: 1, title: "東京タワー", columns: 8)
        // "1 東京" is 6 columns; a third wide character would reach 8, leaving no room for "…".
        #expect(label == "1 東京…")
        #expect(DisplayWidth.of(label) <= 8)
    }

    @Test func everyImageRowResetsAttributesAtEachCellEnd() throws {
        let layout = GridLayout(terminalColumns: 120)
        let cells = try Self.cells(layout: layout, graphics: Self.truecolor)
        let text = GridComposer.compose(row: cells, layout: layout, graphics: Self.truecolor)
        let imageLines = text.components(separatedBy: "\n").dropLast()
        for line in imageLines {
            // Two image cells end with a reset; the placeholder has no escapes at all.
            #expect(line.components(separatedBy: "\u{1B}[0m").count - 1 >= 2)
            #expect(RenderedText.visible(line).contains("│") || RenderedText.visible(line).contains("─"))
        }
    }

    @Test func placeholderShowsItsStateInsideAFrame() {
        let lines = GridComposer.placeholder("failed: HTTP 404", columns: 20, rows: 9)
        #expect(lines.count == 9)
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 20 })
        #expect(lines.first?.hasPrefix("┌") == true)
        #expect(lines.last?.hasPrefix("└") == true)
        #expect(lines.contains { $0.contains("failed: HTTP 404") })
    }

    @Test func placeholderInATinyAreaIsJustTheText() {
        let lines = GridComposer.placeholder("cancelled", columns: 6, rows: 2)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 6 })
        #expect(lines.contains { $0.hasPrefix("cance") })
    }

    @Test func noColorOutputHasNoEscapeSequencesAtAll() throws {
        let environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]
        let graphics = TerminalGraphics.detect(requested: .auto, environment: environment, isTTY: true)
        let layout = GridLayout(terminalColumns: 80, graphics: graphics)
        let cells = try Self.cells(layout: layout, graphics: graphics)
        let text = GridComposer.compose(row: cells, layout: layout, graphics: graphics)
        #expect(!text.contains("\u{1B}"))
        #expect(text.components(separatedBy: "\n").count == layout.imageRows + 1)
    }

    @Test func noneModePrintsLabelsOnly() throws {
        let layout = GridLayout(terminalColumns: 80)
        let cells = try Self.cells(layout: layout, graphics: Self.truecolor)
        let text = GridComposer.compose(row: cells, layout: layout, graphics: .none)
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix("101 東京"))
        #expect(RenderedText.column(of: "102 ", in: text) == layout.cellOffset(1))
    }

    @Test func titlesCannotDriveTheTerminal() {
        let layout = GridLayout(terminalColumns: 80)
        let hostile = "x\u{1B}[2J\u{1B}]52;c;aGk=\u{07}\nnext\u{202E}line"
        let text = GridComposer.compose(
            row: [GridCell(number: 1, title: hostile, content: .placeholder("cancelled"))],
            layout: layout, graphics: Self.monochrome)
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{202E}"))
        #expect(text.components(separatedBy: "\n").count == layout.imageRows + 1)
    }

    @Test(arguments: [ImageMode.kitty, .sixels, .iterm])
    func pixelImagesArePlacedSideBySideWithCursorMovement(mode: ImageMode) throws {
        let graphics = TerminalGraphics(mode: mode, colors: .truecolor)
        let layout = GridLayout(terminalColumns: 120, graphics: graphics)
        let cells = try Self.cells(layout: layout, graphics: graphics, titles: Self.screenTitles)
        let text = GridComposer.compose(row: cells, layout: layout, graphics: graphics)
        // The image rows and the label line are reserved first, then the cursor goes back up.
        #expect(text.hasPrefix(String(repeating: "\n", count: layout.imageRows) + "\u{1B}[\(layout.imageRows)A"))
        #expect(text.contains("\u{1B}7"))
        #expect(text.contains("\u{1B}8"))
        #expect(text.contains("\u{1B}[\(layout.cellOffset(2))C"))

        // On a screen: labels on the line after the image rows, at their cells'
        // columns; the placeholder frame drawn at the second cell; nothing wrapped.
        let screen = RenderedText.screen(text, columns: 120, rows: 40)
        let lines = screen.lines
        #expect(screen.cursor.row == layout.imageRows)
        let labelLine = lines[layout.imageRows]
        #expect(RenderedText.column(of: "101 ", in: labelLine) == 0)
        #expect(RenderedText.column(of: "102 ", in: labelLine) == layout.cellOffset(1))
        #expect(RenderedText.column(of: "103 ", in: labelLine) == layout.cellOffset(2))
        #expect(RenderedText.column(of: "┌", in: lines[0]) == layout.cellOffset(1))
        #expect(RenderedText.column(of: "└", in: lines[layout.imageRows - 1]) == layout.cellOffset(1))
        #expect(lines[0..<layout.imageRows].contains { $0.contains("loading 40%") })
        // Image payloads are not text.
        #expect(lines[0..<layout.imageRows].allSatisfy {
            $0.trimmingCharacters(in: .whitespaces).allSatisfy { "┌┐└┘│─ loading40%".contains($0) }
        })
    }

    @Test(arguments: widths)
    func symbolRowOnAScreenKeepsEveryCellInItsColumns(width: Int) throws {
        let layout = GridLayout(terminalColumns: width)
        let cells = try Self.cells(layout: layout, graphics: Self.truecolor, titles: Self.screenTitles)
        let text = GridComposer.compose(row: cells, layout: layout, graphics: Self.truecolor)
        let screen = RenderedText.screen(text, columns: width, rows: 60)
        // Nothing wrapped: the cursor ends on the label line, right under the image rows.
        #expect(screen.cursor.row == layout.imageRows)
        let lines = screen.lines
        #expect(RenderedText.column(of: "101 ", in: lines[layout.imageRows]) == 0)
        if layout.columns > 1 {
            // The frame is the area reserved for the picture, centred in its cell.
            let inset = (layout.imageColumns - layout.imageSize(aspectRatio: nil).columns) / 2
            #expect(RenderedText.column(of: "┌", in: lines[0]) == layout.cellOffset(1) + inset)
            #expect(RenderedText.column(of: "102 ", in: lines[layout.imageRows]) == layout.cellOffset(1))
        }
    }

    @Test(arguments: widths)
    func listEntriesFitAndAlign(width: Int) throws {
        let graphics = Self.truecolor
        let layout = ListLayout(terminalColumns: width, showsThumbnails: true, numberWidth: 3)
        let renderer = TerminalImageRenderer(graphics: graphics)
        let image = try renderer.render(
            try ImageFixtures.jpeg(width: 150, height: 150), cacheKey: "q",
            columns: layout.thumbnailColumns, rows: max(1, layout.thumbnailRows))
        let entries = Self.titles.enumerated().map { index, title in
            ListEntry(number: index * 45 + 1, title: title, owner: "Ünïcode Owner 東京", content: .image(image))
        }
        let text = GridComposer.compose(list: entries, layout: layout, graphics: graphics)
        let lines = text.components(separatedBy: "\n")
        #expect(lines.count == entries.count * layout.entryHeight)
        #expect(lines.allSatisfy { RenderedText.width($0) <= width })
        // Numbers are right-aligned in a fixed-width column, so the titles after
        // "1 ", "46 " and "91 " start in the same column.
        let titleColumns = Set(entries.compactMap { entry in
            lines.lazy.compactMap { RenderedText.column(of: "\(entry.number) ", in: $0) }.first
                .map { $0 + "\(entry.number) ".count }
        })
        #expect(titleColumns == [layout.textOffset])
        #expect(text.contains("Ünïcode Owner") || width < 60)
    }

    @Test func listWithoutImagesIsOneLinePerEntryWithTheOwner() {
        let layout = ListLayout(terminalColumns: 80, showsThumbnails: false, numberWidth: 2)
        let entries = [
            ListEntry(number: 1, title: "Sunset over the bay", owner: "Ana", content: .placeholder("")),
            ListEntry(number: 12, title: "夕焼けの海", owner: "Ken", content: .placeholder("")),
        ]
        let text = GridComposer.compose(list: entries, layout: layout, graphics: .none)
        let lines = text.components(separatedBy: "\n")
        #expect(lines == [
            " 1 " + TextSanitizer.pad("Sunset over the bay", toColumns: layout.titleColumns) + "  Ana",
            "12 " + TextSanitizer.pad("夕焼けの海", toColumns: layout.titleColumns) + "  Ken",
        ])
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 })
    }

    @Test func detailShowsTheImageThenMetadataWithinTheWidth() throws {
        let graphics = Self.truecolor
        let layout = DetailLayout(terminalColumns: 100, terminalRows: 40, imageWidth: 640, imageHeight: 480)
        let image = try TerminalImageRenderer(graphics: graphics).render(
            try ImageFixtures.jpeg(width: 640, height: 480), cacheKey: "z",
            columns: layout.imageColumns, rows: layout.imageRows)
        let metadata = [
            "17 東京タワーの夜景 " + String(repeating: "long ", count: 40),
            "by Someone", "taken 2024-05-01", "640×480",
            "https://www.flickr.com/photos/12345678@N00/5200000000/",
        ]
        let text = GridComposer.composeDetail(.image(image), metadata: metadata, layout: layout, graphics: graphics)
        let lines = text.components(separatedBy: "\n")
        #expect(lines.count == layout.imageRows + metadata.count)
        #expect(lines.allSatisfy { RenderedText.width($0) <= 100 })
        #expect(lines.last == metadata.last)
    }

    @Test func clipKeepsEscapesAndCutsVisibleText() {
        let coloured = "\u{1B}[31mab\u{1B}[32m東京cd\u{1B}[0m"
        #expect(GridComposer.visibleWidth(coloured) == 8)
        let clipped = GridComposer.clip(coloured, columns: 4)
        #expect(RenderedText.visible(clipped) == "ab東")
        #expect(clipped.hasPrefix("\u{1B}[31mab\u{1B}[32m"))
    }
}
