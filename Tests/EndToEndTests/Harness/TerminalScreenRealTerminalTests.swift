import Testing
import TestSupport

/// The screen model against what real terminals did (xterm 379 under Xvfb).
@Suite("TerminalScreen like a real terminal")
struct TerminalScreenRealTerminalTests {
    @Test func widthsAgreeWithXterm() {
        for sample in TerminalScreen.measuredWidths {
            #expect(TerminalScreen.columns(printing: sample.text) == sample.columns, "\(sample.text)")
        }
    }

    /// A sixel image with raster attributes, `height` pixels tall.
    static func sixel(height: Int) -> String {
        "\u{1B}P0;1;0q\"1;1;40;\(height)#1;2;100;0;0#1!40~-!40~\u{1B}\\"
    }

    @Test func aSixelImageCoversTheRowsOfItsHeightAndLeavesTheCursorOnItsLastRow() {
        // xterm with 17-pixel cells: 60 px from row 5 (1-based) left the cursor on row 8.
        var screen = TerminalScreen(columns: 120, rows: 50, cellPixelHeight: 17)
        screen.feed("\u{1B}[5;10H" + Self.sixel(height: 60))
        #expect(screen.cursor == .init(row: 7, column: 9))
        #expect(screen.images == [.init(line: 4, column: 9, rows: 4, pixelHeight: 60)])
        #expect(screen.linesScrolledOff == 0)
    }

    @Test func aSixelImageReachingTheBottomLineScrollsTheScreen() {
        // xterm: 60 px from row 47 of 50 (rows 47-50) scrolled once, the cursor on row 49.
        var screen = TerminalScreen(columns: 120, rows: 50, cellPixelHeight: 17)
        screen.feed("\u{1B}[1;1Htop\u{1B}[47;10H\u{1B}7" + Self.sixel(height: 60) + "\u{1B}8after")
        #expect(screen.linesScrolledOff == 1)
        #expect(screen.images.first?.line == 46)
        #expect(screen.scrollback == ["top"])
        // The restored cursor is on the saved screen row, now one text line lower.
        #expect(screen.text(ofLine: 47) == "         after")
        // The image ending one line above the bottom scrolls nothing.
        var level = TerminalScreen(columns: 120, rows: 50, cellPixelHeight: 17)
        level.feed("\u{1B}[46;10H" + Self.sixel(height: 60))
        #expect(level.linesScrolledOff == 0)
        #expect(level.cursor.row == 48)
    }

    @Test func withoutRasterAttributesTheBandsGiveTheHeight() {
        var screen = TerminalScreen(columns: 40, rows: 20, cellPixelHeight: 10)
        screen.feed("\u{1B}Pq#0!8~-!8~-!8~\u{1B}\\")
        #expect(screen.images.first?.rows == 2)
        // Other DCS strings (here XTGETTCAP) draw nothing.
        screen.feed("\u{1B}P+q544e\u{1B}\\")
        #expect(screen.images.count == 1)
    }
}
