import Foundation
import Testing
@testable import TerminalUI

@Suite struct HyperlinkTests {
    @Test(arguments: [
        (["TERM": "xterm-kitty"], true),
        (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], true),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], true),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], true),
        (["TERM": "xterm-256color", "VTE_VERSION": "7600"], true),
        (["TERM": "xterm-256color", "VTE_VERSION": "4800"], false),
        (["TERM": "xterm-256color", "WT_SESSION": "abc"], true),
        (["TERM": "foot"], true),
        (["TERM": "xterm-256color"], false),
        (["TERM": "screen-256color", "TMUX": "/tmp/t,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a", "KITTY_WINDOW_ID": "1"], false),
        (["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4", "KITTY_WINDOW_ID": "1"], true),
        (["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.5a"], false),
    ])
    func whichTerminalsGetLinks(environment: [String: String], expected: Bool) {
        #expect(Hyperlink.isSupported(environment: environment) == expected, "\(environment)")
    }

    @Test func onlySafeWebTargetsAreWritten() throws {
        #expect(Hyperlink.target(URL(string: "https://www.flickr.com/photos/ana/53399526683/")) == "https://www.flickr.com/photos/ana/53399526683/")
        #expect(Hyperlink.target(URL(string: "javascript:alert(1)")) == nil)
        #expect(Hyperlink.target(URL(string: "file:///etc/passwd")) == nil)
        // Percent-encoded, a server's escape cannot reach the terminal.
        let hostile = try #require(URL(string: "https://example.com/a%1B]8;;evil%07"))
        let target = try #require(Hyperlink.target(hostile))
        #expect(!target.utf8.contains(0x1B) && !target.utf8.contains(0x07))
        #expect(Hyperlink.target(URL(string: "https://example.com/" + String(repeating: "a", count: 3_000))) == nil)
        #expect(Hyperlink.target(nil) == nil)
    }

    @Test func wrapIsInvisibleTextAroundTheVisibleText() {
        let url = URL(string: "https://www.flickr.com/photos/ana/")
        #expect(Hyperlink.wrap("Ana", to: url, enabled: true) == "\u{1B}]8;;https://www.flickr.com/photos/ana/\u{1B}\\Ana\u{1B}]8;;\u{1B}\\")
        #expect(Hyperlink.wrap("Ana", to: url, enabled: false) == "Ana")
        #expect(Hyperlink.wrap("Ana", to: URL(string: "ftp://x/"), enabled: true) == "Ana")
    }

    @Test func gridLabelsLinkTheTitleAndKeepTheirWidth() throws {
        var graphics = TerminalGraphics.none
        graphics.hyperlinks = true
        let layout = GridLayout(terminalColumns: 60, columns: 3, graphics: graphics)
        let url = URL(string: "https://www.flickr.com/photos/ana/1/")
        let cells = [
            GridCell(number: 1, title: "Snow and kittens", content: .placeholder(""), link: url),
            GridCell(number: 2, title: "Beach\u{1B}[31m", content: .placeholder(""), link: URL(string: "javascript:x")),
        ]
        let linked = GridComposer.compose(row: cells, layout: layout, graphics: graphics)
        graphics.hyperlinks = false
        let plain = GridComposer.compose(row: cells, layout: layout, graphics: graphics)
        #expect(linked.contains("1 \u{1B}]8;;https://www.flickr.com/photos/ana/1/\u{1B}\\Snow and kittens\u{1B}]8;;\u{1B}\\"))
        #expect(!plain.contains("\u{1B}"))
        // Without the link sequences the line is the plain one, column for column.
        let stripped = linked.replacingOccurrences(of: "\u{1B}]8;;[^\u{1B}]*\u{1B}\\\\", with: "", options: .regularExpression)
        #expect(stripped == plain)
    }
}
