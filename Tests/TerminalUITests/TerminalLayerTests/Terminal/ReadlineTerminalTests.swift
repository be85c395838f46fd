import Foundation
import Testing
import TestSupport
@testable import TerminalUI

/// `ReadlineTerminal` driven for real through a pty opened in this process.
/// Readline is one global state per process, hence `.serialized`.
@MainActor
@Suite(.serialized) struct ReadlineTerminalTests {
    /// Everything the handlers reported.
    @MainActor final class Events {
        var lines: [String] = []
        var eofCount = 0
        var interrupts = 0
        var sizes: [TerminalSize] = []
        var onLine: (String) -> Void = { _ in }

        var handlers: TerminalHandlers {
            TerminalHandlers(
                onLine: { [unowned self] line in
                    lines.append(line)
                    onLine(line)
                },
                onEOF: { [unowned self] in eofCount += 1 },
                onInterrupt: { [unowned self] in interrupts += 1 },
                onResize: { [unowned self] in sizes.append($0) })
        }
    }

    /// Opens a pty, starts a terminal on it and waits for the prompt.
    func start(
        _ pty: PseudoTerminal, _ events: Events, historyFile: URL? = nil,
        historyFilter: (@MainActor (String) -> Bool)? = nil
    ) async throws -> ReadlineTerminal {
        let terminal = ReadlineTerminal(
            historyFile: historyFile, historyFilter: historyFilter,
            input: pty.child, output: pty.child, terminalType: "xterm-256color")
        terminal.run(prompt: "> ", handlers: events.handlers)
        try #require(await poll { pty.visibleLines.last == ">" }, "no prompt: \(pty.output.debugDescription)")
        return terminal
    }

    /// Runs `body` with a terminal at its prompt on a fresh pty; afterwards
    /// stops the terminal (a second `stop()` is harmless) and closes the pty.
    func withTerminal(
        columns: Int = 80, rows: Int = 24, historyFile: URL? = nil,
        historyFilter: (@MainActor (String) -> Bool)? = nil,
        _ body: (PseudoTerminal, Events, ReadlineTerminal) async throws -> Void
    ) async throws {
        let pty = try PseudoTerminal(columns: columns, rows: rows)
        defer { pty.close() }
        let events = Events()
        let terminal = try await start(pty, events, historyFile: historyFile, historyFilter: historyFilter)
        defer { terminal.stop() }
        try await body(pty, events, terminal)
    }

    @Test func typedLineIsDeliveredOnEnter() async throws {
        try await withTerminal { pty, events, terminal in
            pty.type("kittens\r")
            #expect(await poll { events.lines == ["kittens"] })
            #expect(terminal.isInteractive)
        }
    }

    @Test func unicodeInputArrivesIntact() async throws {
        try await withTerminal { pty, events, terminal in
            pty.type("日本 café 🐱\r")
            #expect(await poll { events.lines == ["日本 café 🐱"] })
        }
    }

    @Test func printGoesAboveAHalfTypedLineAndKeepsIt() async throws {
        try await withTerminal { pty, events, terminal in
            pty.type("hello wor")
            try #require(await poll { pty.visibleLines.last == "> hello wor" })
            terminal.print("result one\nresult two")
            #expect(await poll { pty.visibleLines.suffix(3) == ["result one", "result two", "> hello wor"] },
                    "\(pty.visibleLines)")
            #expect(pty.screen.cursor.column == 11)
            pty.type("ld\r")
            #expect(await poll { events.lines == ["hello world"] })
        }
    }

    @Test func printKeepsAWrappedHalfTypedLineWhole() async throws {
        try await withTerminal(columns: 30, rows: 10) { pty, events, terminal in
            let typed = String(repeating: "abcdefghij", count: 5)
            pty.type(typed)
            try #require(await poll { pty.visibleLines.joined().hasSuffix(typed) })
            terminal.print("row above")
            let expected = ["row above", "> " + typed.prefix(28), String(typed.dropFirst(28))]
            #expect(await poll { Array(pty.visibleLines.suffix(3)) == expected }, "\(pty.visibleLines)")
            #expect(!pty.screen.text.contains("row above\n> abc") || pty.screen.text.components(separatedBy: "> abc").count == 2)
            pty.type("\r")
            #expect(await poll { events.lines == [typed] })
        }
    }

    @Test func statusIsOneLineUpdatedInPlaceAboveThePrompt() async throws {
        try await withTerminal { pty, events, terminal in
            pty.type("abc")
            try #require(await poll { pty.visibleLines.last == "> abc" })
            for done in 1...5 { terminal.setStatus("\(done)/30 thumbnails") }
            #expect(await poll { pty.visibleLines.suffix(2) == ["5/30 thumbnails", "> abc"] }, "\(pty.visibleLines)")
            let text = pty.screen.text
            #expect(text.components(separatedBy: "thumbnails").count == 2, "\(text)")
            #expect(pty.screen.cursor.column == 5)
        }
    }

    @Test func promptChangesInPlaceKeepingTheTypedLine() async throws {
        try await withTerminal { pty, events, terminal in
            terminal.setStatus("busy")
            pty.type("abc")
            try #require(await poll { pty.visibleLines.last == "> abc" })
            terminal.setPrompt("flickr[2]> ")
            #expect(await poll { pty.visibleLines.suffix(2) == ["busy", "flickr[2]> abc"] }, "\(pty.visibleLines)")
            #expect(pty.screen.text.components(separatedBy: "abc").count == 2)
        }
    }

    @Test func printBeforeRunWritesPlainly() async throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let terminal = ReadlineTerminal(historyFile: nil, input: pty.child, output: pty.child)
        terminal.print("banner")
        #expect(await poll { pty.visibleLines == ["banner"] })
        #expect(!pty.output.contains("\u{1B}"))
    }

    @Test func statusIsCutToTheWidth() async throws {
        try await withTerminal(columns: 40, rows: 10) { pty, events, terminal in
            terminal.setStatus(String(repeating: "x", count: 100))
            #expect(await poll { pty.visibleLines.count >= 2 && pty.visibleLines.last == ">" })
            let statusRow = pty.visibleLines[pty.visibleLines.count - 2]
            #expect(statusRow == String(repeating: "x", count: 38) + "…")
        }
    }

    @Test func statusIsSanitised() async throws {
        try await withTerminal { pty, events, terminal in
            terminal.setStatus("ok\u{1B}[2J\nstill ok")
            #expect(await poll { pty.visibleLines.suffix(2) == ["ok still ok", ">"] }, "\(pty.visibleLines)")
        }
    }

    @Test func statusStaysJustAboveThePromptAcrossPrints() async throws {
        try await withTerminal { pty, events, terminal in
            terminal.setStatus("loading")
            terminal.print("row 1")
            terminal.print("row 2")
            #expect(await poll { pty.visibleLines.suffix(4) == ["row 1", "row 2", "loading", ">"] }, "\(pty.visibleLines)")
            #expect(pty.screen.text.components(separatedBy: "loading").count == 2)
        }
    }

    @Test func removingTheStatusErasesIt() async throws {
        try await withTerminal { pty, events, terminal in
            terminal.print("row")
            terminal.setStatus("busy")
            try #require(await poll { pty.visibleLines.suffix(2) == ["busy", ">"] })
            terminal.setStatus(nil)
            #expect(await poll { pty.visibleLines.suffix(2) == ["row", ">"] }, "\(pty.visibleLines)")
            #expect(!pty.screen.text.contains("busy"))
        }
    }

    @Test func acceptedLineLeavesNoStaleStatusBehind() async throws {
        try await withTerminal { pty, events, terminal in
            events.onLine = { terminal.print("page 1 for \($0)") }
            terminal.setStatus("busy")
            try #require(await poll { pty.visibleLines.suffix(2) == ["busy", ">"] })
            pty.type("kittens\r")
            #expect(await poll {
                pty.visibleLines.suffix(4) == ["> kittens", "page 1 for kittens", "busy", ">"]
            }, "\(pty.visibleLines)")
            #expect(pty.screen.text.components(separatedBy: "busy").count == 2, "\(pty.screen.text)")
        }
    }

    @Test func controlDOnAnEmptyLineIsEndOfInput() async throws {
        try await withTerminal { pty, events, terminal in
            terminal.setStatus("busy")
            pty.type("\u{04}")
            #expect(await poll { events.eofCount == 1 })
            #expect(await poll { pty.visibleLines.last == ">" && pty.screen.cursor.row == pty.visibleLines.count })
            #expect(!pty.screen.text.contains("busy"), "\(pty.output.debugDescription)")
        }
    }

    @Test func interruptClearsTheTypedLine() async throws {
        try await withTerminal { pty, events, terminal in
            pty.type("half typed")
            try #require(await poll { pty.visibleLines.last == "> half typed" })
            // The pty is not this process's controlling terminal, so Ctrl-C
            // cannot raise SIGINT here; raise it directly (it is ignored and
            // watched while the terminal runs).
            kill(getpid(), SIGINT)
            #expect(await poll { events.interrupts == 1 })
            #expect(await poll { pty.visibleLines.last == ">" }, "\(pty.visibleLines)")
            pty.type("new\r")
            #expect(await poll { events.lines == ["new"] })
        }
    }

    @Test func resizeIsReportedWithTheNewSize() async throws {
        try await withTerminal(columns: 80, rows: 24) { pty, events, terminal in
            #expect(terminal.size == TerminalSize(columns: 80, rows: 24))
            pty.resize(columns: 50, rows: 20)
            kill(getpid(), SIGWINCH)
            #expect(await poll { events.sizes == [TerminalSize(columns: 50, rows: 20)] })
            #expect(terminal.size == TerminalSize(columns: 50, rows: 20))
            terminal.setStatus(String(repeating: "y", count: 80))
            #expect(await poll { pty.visibleLines.suffix(2) == [String(repeating: "y", count: 48) + "…", ">"] },
                    "\(pty.visibleLines)")
        }
    }

    @Test func historyIsSavedWithoutDuplicatesBlanksOrRefusedLines() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("state/flickr/history")
        try await withTerminal(historyFile: file, historyFilter: { !$0.contains("KEY") }) { pty, events, terminal in
            pty.type("kittens\rkittens\r   \rsunset\rapi KEY123\rkittens\r")
            #expect(await poll { events.lines.count == 6 })
            terminal.stop()
            let saved = try String(contentsOf: file, encoding: .utf8)
            #expect(saved == "kittens\nsunset\nkittens\n")
            let attributes = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
            #expect((attributes[.posixPermissions] as? Int) == 0o700)
        }
    }

    @Test func historyFromTheLastLaunchIsRecalledWithUpArrow() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("history")
        try "first query\nsecond query\n".write(to: file, atomically: true, encoding: .utf8)
        try await withTerminal(historyFile: file) { pty, events, terminal in
            pty.type("\u{1B}[A")
            try #require(await poll { pty.visibleLines.last == "> second query" }, "\(pty.visibleLines)")
            pty.type("\u{1B}[A\r")
            #expect(await poll { events.lines == ["first query"] })
        }
    }

    @Test func historyKeepsOnlyTheLimitInTheFile() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("history")
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let events = Events()
        let terminal = ReadlineTerminal(
            historyFile: file, historyLimit: 3, input: pty.child, output: pty.child, terminalType: "xterm-256color")
        terminal.run(prompt: "> ", handlers: events.handlers)
        pty.type("a\rb\rc\rd\re\r")
        #expect(await poll { events.lines.count == 5 })
        terminal.stop()
        #expect(try String(contentsOf: file, encoding: .utf8) == "c\nd\ne\n")
    }

    @Test func tabCompletesCommands() async throws {
        try await withTerminal { pty, events, terminal in
            pty.type("/la\t")
            try #require(await poll { pty.visibleLines.last == "> /layout" }, "\(pty.visibleLines)")
            pty.type("l\t\r")
            #expect(await poll { events.lines.count == 1 })
            #expect(UserCommand.parse(events.lines.first ?? "") == .layout(.list))
        }
    }

    /// Filter words complete anywhere in the line, names and values.
    @Test func tabCompletesFilterWordsInsideALine() async throws {
        try await withTerminal { pty, events, terminal in
            terminal.wordCompletions = ["license:cc0", "license:by-sa", "sort:newest"]
            pty.type("lighthouse so\t")
            try #require(await poll { pty.visibleLines.last == "> lighthouse sort:newest" }, "\(pty.visibleLines)")
            // A whole word is followed by a space, as readline does.
            pty.type("lic\t")
            try #require(await poll { pty.visibleLines.last == "> lighthouse sort:newest license:" }, "\(pty.visibleLines)")
            pty.type("c\t\r")
            #expect(await poll {
                events.lines.map { $0.trimmingCharacters(in: .whitespaces) } == ["lighthouse sort:newest license:cc0"]
            }, "\(events.lines)")
        }
    }

    @Test func severalMatchesAreListedAboveTheStatus() async throws {
        try await withTerminal { pty, events, terminal in
            terminal.setStatus("busy")
            pty.type("/r\t")
            try #require(await poll { pty.visibleLines.last == "> /re" }, "\(pty.visibleLines)")
            // Readline lists on the next Tab that changes nothing.
            pty.type("\t\t")
            #expect(await poll { pty.visibleLines.suffix(3) == ["/recent  /retry", "busy", "> /re"] },
                    "\(pty.visibleLines)")
            #expect(pty.screen.text.components(separatedBy: "busy").count == 2)
        }
    }

    @Test func completedLinesAreRememberedWithoutTrailingBlanks() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("history")
        try await withTerminal(historyFile: file) { pty, events, terminal in
            pty.type("/la\tg\t\r")
            #expect(await poll { events.lines.count == 1 })
            terminal.stop()
            let saved = try String(contentsOf: file, encoding: .utf8)
            #expect(saved == "/layout grid\n")
        }
    }

    @Test func tabNeverCompletesFileNames() async throws {
        let directory = try TemporaryDirectory()
        try "x".write(to: directory.url.appendingPathComponent("kittens-notes.txt"), atomically: true, encoding: .utf8)
        try await withTerminal { pty, events, terminal in
            pty.type("\(directory.path)/kit\t\t\r")
            #expect(await poll { events.lines.count == 1 })
            #expect(events.lines == ["\(directory.path)/kit"])
        }
    }

    @Test func stopRestoresTerminalModesAndClearsThePrompt() async throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        var before = termios()
        tcgetattr(pty.child, &before)
        let events = Events()
        let terminal = try await start(pty, events)
        var during = termios()
        tcgetattr(pty.child, &during)
        #expect(during.c_lflag & tcflag_t(ICANON) == 0)
        terminal.setStatus("busy")
        pty.type("half")
        try #require(await poll { pty.visibleLines.suffix(2) == ["busy", "> half"] })
        terminal.stop()
        var after = termios()
        tcgetattr(pty.child, &after)
        #expect(after.c_lflag == before.c_lflag)
        #expect(after.c_iflag == before.c_iflag)
        #expect(await poll { !pty.screen.text.contains("busy") && !pty.screen.text.contains("half") })
    }

    @Test func stopFromTheLineHandlerShowsNoNewPrompt() async throws {
        try await withTerminal { pty, events, terminal in
            events.onLine = { _ in
                terminal.print("bye")
                terminal.stop()
            }
            pty.type("/quit\r")
            #expect(await poll { events.lines == ["/quit"] })
            #expect(await poll { pty.visibleLines.contains("bye") })
            // A prompt drawn after stop would come right after `bye`: give it a moment to show.
            try await Task.sleep(for: .milliseconds(100))
            #expect(pty.visibleLines.suffix(2) == ["> /quit", "bye"], "\(pty.visibleLines) \(pty.output.debugDescription)")
            terminal.print("after stop")
            #expect(await poll { pty.visibleLines.last == "after stop" })
        }
    }

    @Test func signalsAreRestoredAfterStop() async throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let before = signal(SIGINT, SIG_IGN)
        signal(SIGINT, before)
        let terminal = try await start(pty, Events())
        terminal.stop()
        let after = signal(SIGINT, SIG_IGN)
        signal(SIGINT, after)
        #expect(unsafeBitCast(before, to: Int.self) == unsafeBitCast(after, to: Int.self))
    }
}

