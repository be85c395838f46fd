import Foundation
import TestSupport
import Testing
@testable import TerminalUI

/// The non-tty path, driven through real pipes.
@MainActor
@Suite struct PlainTerminalTests {
    /// What the handlers saw, in order.
    @MainActor final class Recorder {
        var events: [String] = []
        var handlers: TerminalHandlers {
            TerminalHandlers(
                onLine: { [unowned self] in self.events.append("line:\($0)") },
                onEOF: { [unowned self] in self.events.append("eof") })
        }
    }

    /// Runs a terminal on a pipe that carries `input` and then closes, and
    /// returns what the handlers saw once end of input arrived.
    private func events(reading input: [UInt8], prompt: String = "") async -> [String] {
        let pipe = PipePair()
        let output = PipePair()
        let terminal = PlainTerminal(input: pipe.readEnd, output: output.writeEnd)
        defer { terminal.stop() }
        let recorder = Recorder()
        terminal.run(prompt: prompt, handlers: recorder.handlers)
        pipe.write(bytes: input)
        pipe.closeWriteEnd()
        #expect(await poll { recorder.events.last == "eof" })
        return recorder.events
    }

    @Test func linesArriveInOrderThenEndOfInputOnce() async {
        let events = await events(reading: Array("kittens\n\n/open 2\nred car\n".utf8), prompt: "> ")
        #expect(events == ["line:kittens", "line:", "line:/open 2", "line:red car", "eof"])
    }

    @Test func crlfIsRemovedAndAnUnterminatedLastLineIsDelivered() async {
        #expect(await events(reading: Array("one\r\ntwo".utf8)) == ["line:one", "line:two", "eof"])
    }

    @Test func invalidUTF8IsRepairedNotDropped() async {
        #expect(await events(reading: [0x63, 0xFF, 0x61, 0x74, 0x0A]) == ["line:c\u{FFFD}at", "eof"])
    }

    /// A script that feeds a huge line gets a message instead of a search
    /// carrying it, and the next line goes through.
    @Test func aLineOverTheLimitIsRefusedAndTheNextOneDelivered() async {
        let input = PipePair()
        let output = PipePair()
        let terminal = PlainTerminal(input: input.readEnd, output: output.writeEnd)
        defer { terminal.stop() }
        let recorder = Recorder()
        terminal.run(prompt: "", handlers: recorder.handlers)
        let exact = String(repeating: "y", count: InputLine.maximumBytes)
        input.write(String(repeating: "x", count: 100_000) + "\r\n" + exact + "\nkittens\n")
        input.closeWriteEnd()
        #expect(await poll { recorder.events.last == "eof" })
        #expect(recorder.events == ["line:\(exact)", "line:kittens", "eof"])
        #expect(output.readAvailable() == "That line is too long (100000 bytes; at most 4096): nothing was sent or saved.\n")
    }

    @Test func pausedInputKeepsLinesUntilResumed() async {
        let input = PipePair()
        let output = PipePair()
        let terminal = PlainTerminal(input: input.readEnd, output: output.writeEnd)
        var seen: [String] = []
        terminal.run(prompt: "", handlers: TerminalHandlers(onLine: { line in
            seen.append(line)
            terminal.pauseInput()  // as an app does while a search runs
        }, onEOF: { seen.append("eof") }))
        input.write("first\nsecond\nthird\n")
        input.closeWriteEnd()
        #expect(await poll { seen == ["first"] })
        // Give the reader every chance to have queued the rest.
        try? await Task.sleep(for: .milliseconds(100))
        #expect(seen == ["first"])
        terminal.resumeInput()
        #expect(await poll { seen == ["first", "second"] })
        terminal.resumeInput()
        #expect(await poll { seen == ["first", "second", "third"] })
        terminal.resumeInput()
        #expect(await poll { seen == ["first", "second", "third", "eof"] })
        terminal.stop()
    }

    @Test func nothingIsDeliveredAfterStop() async {
        let input = PipePair()
        let output = PipePair()
        let terminal = PlainTerminal(input: input.readEnd, output: output.writeEnd)
        var seen: [String] = []
        terminal.run(prompt: "", handlers: TerminalHandlers(onLine: { seen.append($0) }, onEOF: { seen.append("eof") }))
        input.write("one\n")
        #expect(await poll { seen == ["one"] })
        terminal.stop()
        input.write("two\n")
        input.closeWriteEnd()
        try? await Task.sleep(for: .milliseconds(100))
        #expect(seen == ["one"])
    }

    /// Handlers often hold whoever holds the terminal (the pause test's
    /// handler holds the terminal itself); stop breaks that cycle.
    @Test func stopLetsGoOfTheHandlers() {
        final class Owner: Sendable {}
        let input = PipePair()
        let output = PipePair()
        let terminal = PlainTerminal(input: input.readEnd, output: output.writeEnd)
        var owner: Owner? = Owner()
        weak let watched = owner
        terminal.run(prompt: "", handlers: TerminalHandlers(onLine: { [owner] _ in _ = owner }))
        owner = nil
        #expect(watched != nil, "the running terminal holds its handlers")
        terminal.stop()
        #expect(watched == nil)
        input.closeWriteEnd()
    }

    @Test func printWritesPlainLinesWithoutEscapeSequences() {
        let input = PipePair()
        let output = PipePair()
        let terminal = PlainTerminal(input: input.readEnd, output: output.writeEnd)
        terminal.print("1 kittens\u{1B}[2J\n2 \u{1B}]52;c;eA==\u{07}beach")
        terminal.print("done\n")
        #expect(output.readAvailable() == "1 kittens\n2 beach\ndone\n")
    }

    @Test func statusAndPromptPrintNothing() {
        let input = PipePair()
        let output = PipePair()
        let terminal = PlainTerminal(input: input.readEnd, output: output.writeEnd)
        terminal.setPrompt("flickr> ")
        terminal.setStatus("3/30 thumbnails")
        terminal.setStatus(nil)
        terminal.print("x")
        #expect(output.readAvailable() == "x\n")
        #expect(!terminal.isInteractive)
    }

    @Test func sizeFallsBackWhenOutputIsNotATerminal() {
        let input = PipePair()
        let output = PipePair()
        let terminal = PlainTerminal(input: input.readEnd, output: output.writeEnd)
        #expect(terminal.size.columns > 0)
        #expect(terminal.size.rows > 0)
    }
}
