import Foundation
import NIOConcurrencyHelpers
import Testing
import TestSupport
@testable import TerminalUI

/// `ReadlineTerminal` at its limits: lines past the length limit, history
/// shared with another instance or impossible to write, and the tty modes
/// that keep Ctrl-C from cutting output. Part of the serialized suite:
/// readline is one global state per process.
extension ReadlineTerminalTests {
    /// Types `text` on another thread (the pty takes a few KB at a time, and
    /// the terminal reading it runs on this actor); true once all is written.
    private func typeInBackground(_ pty: PseudoTerminal, _ text: String) -> NIOLockedValueBox<Bool> {
        let written = NIOLockedValueBox(false)
        let thread = Thread {
            pty.type(text)
            written.withLockedValue { $0 = true }
        }
        thread.start()
        return written
    }

    @Test func aPasteOverTheLimitIsNeverSentNorKept() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("history")
        try await withTerminal(historyFile: file) { pty, events, terminal in
            let written = typeInBackground(pty, String(repeating: "abcdefghij", count: 10_000) + "\r")
            let refusal = "That line is too long (100000 bytes; at most 4096): nothing was sent or saved."
            try #require(await poll { written.withLockedValue { $0 } && pty.output.contains(refusal) })
            #expect(events.lines.isEmpty)
            #expect(await poll { pty.visibleLines.suffix(2) == [refusal, ">"] }, "\(pty.visibleLines.suffix(3))")
            pty.type("kittens\r")
            #expect(await poll { events.lines == ["kittens"] })
            terminal.stop()
            #expect(try String(contentsOf: file, encoding: .utf8) == "kittens\n")
        }
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() async throws {
        try await withTerminal { pty, events, terminal in
            let line = String(repeating: "x", count: InputLine.maximumBytes)
            _ = typeInBackground(pty, line + "\r")
            #expect(await poll { events.lines == [line] })
            #expect(!pty.output.contains("too long"))
        }
    }

    /// Two windows on one HOME: the other one saved while this one ran.
    @Test func savingHistoryKeepsWhatAnotherInstanceSaved() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("history")
        try "old\n".write(to: file, atomically: true, encoding: .utf8)
        try await withTerminal(historyFile: file) { pty, events, terminal in
            pty.type("mine\r")
            #expect(await poll { events.lines == ["mine"] })
            try "old\ntheirs\n".write(to: file, atomically: true, encoding: .utf8)
            terminal.stop()
            #expect(try String(contentsOf: file, encoding: .utf8) == "old\ntheirs\nmine\n")
        }
    }

    @Test func anUnwritableHistoryFileIsReportedOnceWithPathAndReason() async throws {
        let directory = try TemporaryDirectory()
        // A file where the state folder should be: even root cannot write below it.
        let blocker = directory.url.appendingPathComponent("state")
        try Data("x".utf8).write(to: blocker)
        let file = blocker.appendingPathComponent("history")
        try await withTerminal(historyFile: file) { pty, events, terminal in
            let warning = "warning: Could not save history to \(file.path): a part of the path is not a folder."
            #expect(await poll { pty.output.contains(warning) }, "\(pty.output.debugDescription)")
            pty.type("kittens\r")
            #expect(await poll { events.lines == ["kittens"] })
            terminal.stop()
            #expect(pty.output.components(separatedBy: "Could not save history").count == 2, "reported once")
        }
    }

    /// By default the tty discards output still queued when Ctrl-C arrives,
    /// which can cut an escape sequence in half; NOFLSH keeps it whole.
    @Test func controlCCannotMakeTheTTYDropQueuedOutput() async throws {
        try await withTerminal { pty, events, terminal in
            var modes = termios()
            tcgetattr(pty.child, &modes)
            #expect(modes.c_lflag & tcflag_t(NOFLSH) != 0)
            // Readline puts the tty back for each line and prepares it again.
            pty.type("kittens\r")
            #expect(await poll { events.lines == ["kittens"] })
            tcgetattr(pty.child, &modes)
            #expect(modes.c_lflag & tcflag_t(NOFLSH) != 0)
        }
    }
}
