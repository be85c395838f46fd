import Testing
import TestSupport

@Suite("TerminalScreen")
struct TerminalScreenTests {
    private func screen(_ columns: Int = 20, _ rows: Int = 5, feeding text: String) -> TerminalScreen {
        var screen = TerminalScreen(columns: columns, rows: rows)
        screen.feed(text)
        return screen
    }

    @Test func printsTextWithCarriageReturnAndLineFeed() {
        let screen = screen(feeding: "hello\r\nworld")
        #expect(screen.lines == ["hello", "world", "", "", ""])
        #expect(screen.cursor == .init(row: 1, column: 5))
    }

    @Test func lineFeedAloneKeepsTheColumn() {
        #expect(screen(feeding: "ab\ncd").lines.prefix(2) == ["ab", "  cd"])
    }

    @Test func carriageReturnOverwritesFromTheStart() {
        #expect(screen(feeding: "abcdef\rXY").lines[0] == "XYcdef")
    }

    @Test func backspaceMovesLeftWithoutErasing() {
        #expect(screen(feeding: "abc\u{8}\u{8}X").lines[0] == "aXc")
    }

    @Test func tabAdvancesToTheNextMultipleOfEight() {
        #expect(screen(feeding: "a\tb\tc").lines[0] == "a       b       c")
    }

    @Test func wideCharactersTakeTwoColumns() {
        let screen = screen(feeding: "猫x")
        #expect(screen.lines[0] == "猫x")
        #expect(screen.cursor.column == 3)
    }

    @Test func emojiTakeTwoColumnsAndCombiningMarksNone() {
        let screen = screen(feeding: "🐱e\u{301}!")
        #expect(screen.lines[0] == "🐱e\u{301}!")
        #expect(screen.cursor.column == 4)
    }

    @Test func wideCharacterThatDoesNotFitWrapsWhole() {
        let screen = screen(5, 3, feeding: "abcd猫")
        #expect(screen.lines == ["abcd", "猫", ""])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        #expect(screen(feeding: "猫猫\r\u{1B}[2CX").lines[0] == "猫X")
        #expect(screen(feeding: "猫猫\rX").lines[0] == "X 猫")
    }

    @Test func utf8SplitAcrossFeedsIsReassembled() {
        var screen = TerminalScreen(columns: 10, rows: 2)
        let bytes = Array("é猫".utf8)
        for byte in bytes { screen.feed([byte]) }
        #expect(screen.lines[0] == "é猫")
    }

    @Test func autowrapIsDeferredUntilTheNextCharacter() {
        var screen = TerminalScreen(columns: 5, rows: 3)
        screen.feed("abcde")
        #expect(screen.cursor == .init(row: 0, column: 4))
        #expect(screen.lines == ["abcde", "", ""])
        screen.feed("f")
        #expect(screen.lines == ["abcde", "f", ""])
    }

    @Test func carriageReturnAfterAFullLineDoesNotWrap() {
        #expect(screen(5, 3, feeding: "abcde\r\nx").lines == ["abcde", "x", ""])
    }

    @Test func writingPastTheBottomScrollsIntoTheScrollback() {
        let screen = screen(10, 3, feeding: "1\r\n2\r\n3\r\n4\r\n5")
        #expect(screen.lines == ["3", "4", "5"])
        #expect(screen.scrollback == ["1", "2"])
        #expect(screen.text == "1\n2\n3\n4\n5")
    }

    @Test func cursorMovementSequences() {
        var screen = TerminalScreen(columns: 10, rows: 5)
        screen.feed("\u{1B}[3;4HX")       // row 3, column 4 (1-based)
        screen.feed("\u{1B}[2AY")         // up 2
        screen.feed("\u{1B}[B\u{1B}[3DZ") // down 1, left 3
        screen.feed("\u{1B}[5GW")         // column 5
        screen.feed("\u{1B}[5;1fV")       // f is H
        screen.feed("\u{1B}[1;1H\u{1B}[CU") // right 1 (default count)
        #expect(screen.lines == [" U  Y", "  Z W", "   X", "", "V"])
    }

    @Test func movementStopsAtTheEdges() {
        let screen = screen(5, 3, feeding: "\u{1B}[99A\u{1B}[99DX\u{1B}[99B\u{1B}[99CY")
        #expect(screen.lines == ["X", "", "    Y"])
    }

    @Test func eraseInLineModes() {
        #expect(screen(feeding: "abcdef\u{1B}[3D\u{1B}[K").lines[0] == "abc")
        #expect(screen(feeding: "abcdef\u{1B}[3D\u{1B}[1K").lines[0] == "    ef")
        #expect(screen(feeding: "abcdef\u{1B}[2K").lines[0] == "")
    }

    @Test func eraseInDisplayModes() {
        let below = screen(10, 3, feeding: "aaa\r\nbbb\r\nccc\u{1B}[2;2H\u{1B}[J")
        #expect(below.lines == ["aaa", "b", ""])
        let above = screen(10, 3, feeding: "aaa\r\nbbb\r\nccc\u{1B}[2;2H\u{1B}[1J")
        #expect(above.lines == ["", "  b", "ccc"])
        let all = screen(10, 3, feeding: "aaa\r\nbbb\u{1B}[2J")
        #expect(all.lines == ["", "", ""])
        #expect(all.cursor == .init(row: 1, column: 3))
    }

    @Test func saveAndRestoreCursorBothForms() {
        #expect(screen(feeding: "ab\u{1B}7cd\r\nxy\u{1B}8Z").lines.prefix(2) == ["abZd", "xy"])
        #expect(screen(feeding: "ab\u{1B}[scd\r\nxy\u{1B}[uZ").lines.prefix(2) == ["abZd", "xy"])
    }

    @Test func insertAndDeleteCharacters() {
        #expect(screen(feeding: "abcdef\r\u{1B}[2C\u{1B}[2@").lines[0] == "ab  cdef")
        #expect(screen(feeding: "abcdef\r\u{1B}[2C\u{1B}[2P").lines[0] == "abef")
        #expect(screen(feeding: "abcdef\r\u{1B}[2C\u{1B}[2X").lines[0] == "ab  ef")
    }

    @Test func insertAndDeleteLines() {
        #expect(screen(10, 3, feeding: "a\r\nb\r\nc\u{1B}[2H\u{1B}[L").lines == ["a", "", "b"])
        #expect(screen(10, 3, feeding: "a\r\nb\r\nc\u{1B}[1H\u{1B}[M").lines == ["b", "c", ""])
    }

    @Test func sgrAndPrivateModesDrawNothing() {
        let screen = screen(feeding: "\u{1B}[1;38;2;255;0;0mred\u{1B}[0m \u{1B}[?2004h\u{1B}[?25lok\u{1B}(B\u{1B}=")
        #expect(screen.lines[0] == "red ok")
    }

    @Test func oscStringsAreSkippedWithEitherTerminator() {
        let screen = screen(30, 3, feeding: "a\u{1B}]0;window title\u{7}b\u{1B}]52;c;aGVsbG8=\u{1B}\\c")
        #expect(screen.lines[0] == "abc")
    }

    @Test func sixelAndKittyPayloadsAreSkipped() {
        let sixel = "\u{1B}Pq#0;2;0;0;0#1;2;100;100;0#1~~@@vv@@~~@@~~$#2??}}GG}}??}}??-\u{1B}\\"
        let kitty = "\u{1B}_Gf=100,a=T;iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB\u{1B}\\"
        let iterm = "\u{1B}]1337;File=inline=1:R0lGODlhAQABAAAAACw=\u{7}"
        let screen = screen(40, 3, feeding: "[\(sixel)][\(kitty)][\(iterm)]")
        #expect(screen.lines[0] == "[][][]")
    }

    @Test func sequencesSplitAcrossFeedsAreParsed() {
        var screen = TerminalScreen(columns: 20, rows: 2)
        for byte in Array("ab\u{1B}[1;31mc\u{1B}]0;t\u{1B}\\d\u{1B}[0Ke".utf8) { screen.feed([byte]) }
        #expect(screen.lines[0] == "abcde")
    }

    @Test func c1ControlsFromUTF8AreNotDrawn() {
        #expect(screen(feeding: "a\u{9B}2Jb\u{85}c").lines[0] == "a2Jbc")
    }

    @Test func scrollRegionKeepsLinesOutsideIt() {
        let screen = screen(10, 4, feeding: "top\u{1B}[2;3r\u{1B}[3;1Hx\r\ny\r\nz")
        #expect(screen.lines == ["top", "y", "z", ""])
        #expect(screen.scrollback.isEmpty)
    }

    @Test func reverseIndexAtTheTopScrollsDown() {
        #expect(screen(10, 3, feeding: "a\r\nb\u{1B}[H\u{1B}Mc").lines == ["c", "a", "b"])
    }

    @Test func resizeCutsLinesAndKeepsTheCursorLineVisible() {
        var screen = TerminalScreen(columns: 10, rows: 4)
        screen.feed("0123456789\r\nb\r\nc\r\nd")
        screen.resize(columns: 5, rows: 2)
        #expect(screen.lines == ["c", "d"])
        #expect(screen.scrollback == ["01234", "b"])
        #expect(screen.cursor == .init(row: 1, column: 1))
    }

    @Test func widthTable() {
        #expect(TerminalScreen.width(of: "a") == 1)
        #expect(TerminalScreen.width(of: "猫") == 2)
        #expect(TerminalScreen.width(of: "한") == 2)
        #expect(TerminalScreen.width(of: "🐱") == 2)
        #expect(TerminalScreen.width(of: "\u{301}") == 0)
        #expect(TerminalScreen.width(of: "\u{200D}") == 0)
        #expect(TerminalScreen.width(of: "\u{202E}") == 0)
        #expect(TerminalScreen.width(of: "\u{1B}") == -1)
    }
}
