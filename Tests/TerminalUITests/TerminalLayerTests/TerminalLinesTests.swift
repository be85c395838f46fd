import Testing
@testable import TerminalUI

/// Line endings as the raw-mode terminal needs them.
@Suite struct TerminalLinesTests {
    @Test(arguments: [
        ("a", "a\r\n"),
        ("a\nb", "a\r\nb\r\n"),
        ("a\r\nb\n", "a\r\nb\r\n"),
        ("", "\r\n"),
        ("\n\n", "\r\n\r\n"),
        ("é\u{1B}[0m\n", "é\u{1B}[0m\r\n"),
        ("\r", "\r\r\n"),
    ])
    func everyLineEndsInCarriageReturnLineFeed(_ input: String, _ expected: String) {
        #expect(ReadlineTerminal.terminalLines(input) == expected)
    }
}
