import TestSupport
import Testing
@testable import TerminalUI

/// The in-memory terminal other tests rely on must behave like the real ones.
@MainActor
@Suite struct RecordingTerminalTests {
    @Test func typedLinesReachTheHandlerAndPrintsAreRecorded() {
        let terminal = RecordingTerminal()
        var lines: [String] = []
        terminal.run(prompt: "> ", handlers: TerminalHandlers(onLine: { lines.append($0) }))
        terminal.type("kittens")
        terminal.print("page 1")
        #expect(lines == ["kittens"])
        #expect(terminal.output == "page 1\n")
    }

    @Test func pausedLinesWaitForResume() {
        let terminal = RecordingTerminal()
        var lines: [String] = []
        terminal.run(prompt: "> ", handlers: TerminalHandlers(onLine: { lines.append($0) }))
        terminal.pauseInput()
        terminal.type("a")
        terminal.type("b")
        #expect(lines.isEmpty)
        terminal.resumeInput()
        #expect(lines == ["a", "b"])
    }

    @Test func statusIsSanitisedAndRemovable() {
        let terminal = RecordingTerminal()
        terminal.setStatus("1/3\u{1B}[2J")
        terminal.setStatus(nil)
        #expect(terminal.statusHistory == ["1/3", nil])
        #expect(terminal.status == nil)
    }

    @Test func eventsStopAfterStop() {
        let terminal = RecordingTerminal()
        var events: [String] = []
        terminal.run(prompt: "", handlers: TerminalHandlers(
            onLine: { events.append($0) }, onEOF: { events.append("eof") },
            onInterrupt: { events.append("int") }, onResize: { events.append("\($0)") }))
        terminal.sendInterrupt()
        terminal.resize(to: TerminalSize(columns: 100, rows: 30))
        terminal.sendEndOfInput()
        terminal.stop()
        terminal.type("late")
        #expect(events == ["int", "100x30", "eof"])
        #expect(terminal.size == TerminalSize(columns: 100, rows: 30))
    }
}
