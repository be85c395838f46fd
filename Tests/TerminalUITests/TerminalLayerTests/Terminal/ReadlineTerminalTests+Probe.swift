import Foundation
import Testing
import TestSupport
@testable import TerminalUI

/// The start-up probe and the prompt after it, on one pty: keys typed while
/// the probe waits reach the prompt, and answers that come after its
/// deadline (a slow link) are not typed into the first query.
extension ReadlineTerminalTests {
    @Test func keysTypedDuringTheProbeReachThePromptAndLateAnswersDoNot() async throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let child = pty.child
        // Long enough for the typed keys to arrive while the probe reads (the
        // most the probe allows: with 1 s a busy machine typed them after it,
        // into the restored cooked mode); the pretend terminal answers only
        // after the deadline.
        let environment = ["TERM": "xterm-256color", TerminalProbe.timeoutVariable: "5000"]
        let probe = Task.detached { TerminalProbe.run(environment: environment, input: child, output: child) }
        try await eventually("the probe's DA1 query") { pty.output.contains("\u{1B}[c") }
        pty.type("kit")
        let result = await probe.value
        #expect(result?.answered == false)

        let events = Events()
        let terminal = ReadlineTerminal(historyFile: nil, input: child, output: child, terminalType: "xterm-256color")
        terminal.run(prompt: "> ", handlers: events.handlers)
        defer { terminal.stop() }
        try #require(await poll { pty.visibleLines.last == "> kit" }, "typed-ahead keys on the prompt: \(pty.visibleLines)")
        pty.type("\u{1B}[?2026;2$y" + "\u{1B}P>|kitty(0.26.5)\u{1B}\\" + "\u{1B}[6;20;10t"
            + "\u{1B}_Gi=\(TerminalProbe.kittyQueryID);OK\u{1B}\\" + "\u{1B}[?62;22c")
        pty.type("tens\r")
        try #require(await poll { !events.lines.isEmpty })
        #expect(events.lines == ["kittens"])
    }

    @Test func answersAreTakenOutOfTheInputButKeysStay() {
        let typed = "a\u{1B}[?62;22cb\u{1B}[A\u{1B}P>|XTerm(379)\u{1B}\\c\u{1B}[6;17;8t\u{1B}x\u{1B}[?2026;2$y\u{1B}[1;5C"
            + "\u{1B}_Gi=1;OK\u{1B}\\d\u{1B}[200~e\u{1B}[201~"
        let kept = PromptInput.removingAnswers(Array(typed.utf8)) { nil }
        #expect(String(decoding: kept, as: UTF8.self)
            == "ab\u{1B}[Ac\u{1B}x\u{1B}[1;5Cd\u{1B}[200~e\u{1B}[201~")
        // An answer cut in two is completed from what comes next.
        var rest = Array("22c".utf8)
        let completed = PromptInput.removingAnswers(Array("x\u{1B}[?62;".utf8)) { rest.isEmpty ? nil : rest.removeFirst() }
        #expect(completed == Array("x".utf8))
    }
}
