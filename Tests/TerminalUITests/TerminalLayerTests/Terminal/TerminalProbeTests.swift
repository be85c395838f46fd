import Foundation
import Testing
import TestSupport
@testable import TerminalUI

/// The tty-facing probe on a real pty: the test plays the terminal.
@Suite("Terminal probe on a pty", .serialized)
struct TerminalProbeTests {
    private static let environment = ["TERM": "xterm-256color", TerminalProbe.timeoutVariable: "5000"]

    /// Runs the probe, which blocks while it waits for answers, on a thread
    /// of its own: in a task it held one of the two cores' pool threads for
    /// its whole 5 s, and on a busy full run the test's own look for the
    /// query came only after the probe had given up.
    private static func onThread(_ body: @escaping @Sendable () -> TerminalProbeResult?) async -> TerminalProbeResult? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    private static func localModes(_ descriptor: Int32) -> tcflag_t {
        var modes = termios()
        _ = tcgetattr(descriptor, &modes)
        return modes.c_lflag
    }

    /// Plays the terminal on a thread of its own: waits for the DA1 query,
    /// notes the line modes the probe has set, and types the answers.
    private static func answerOnThread(_ pty: PseudoTerminal, with answers: String) async -> tcflag_t? {
        await withCheckedContinuation { continuation in
            Thread {
                let deadline = Date().addingTimeInterval(120)
                while !pty.output.contains("\u{1B}[c") {
                    guard Date() < deadline else { return continuation.resume(returning: nil) }
                    usleep(1_000)
                }
                let modes = localModes(pty.child)
                pty.type(answers)
                continuation.resume(returning: modes)
            }.start()
        }
    }

    @Test func readsTheAnswersAndRestoresTheTerminalMode() async throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let before = Self.localModes(pty.child)
        let child = pty.child
        async let whileWaiting = Self.answerOnThread(pty, with: TerminalProbeParserTests.kittyAnswers)
        // The probe returns as soon as the answers are in. On a busy full
        // run the query once reached the test only after a 5 s deadline had
        // passed, so this one is as long as the test's own wait.
        let result = try #require(await Self.onThread {
            TerminalProbe.run(environment: Self.environment, input: child, output: child, timeout: .seconds(120))
        })
        let modes = try #require(await whileWaiting, "the probe never sent its DA1 query")
        // Raw mode while waiting: no echo, no line editing.
        #expect(modes & tcflag_t(ICANON | ECHO) == 0)
        #expect(result.answered)
        #expect(result.kittyGraphics)
        #expect(result.synchronizedOutput)
        #expect(result.cellPixelSize == .init(width: 10, height: 20))
        #expect(Self.localModes(pty.child) == before)
    }

    @Test func givesUpWhenNothingAnswersAndRestoresTheTerminalMode() async throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let before = Self.localModes(pty.child)
        let child = pty.child
        let environment = ["TERM": "xterm-256color", TerminalProbe.timeoutVariable: "50"]
        let result = try #require(await Self.onThread {
            TerminalProbe.run(environment: environment, input: child, output: child)
        })
        #expect(!result.answered)
        #expect(!result.kittyGraphics)
        // The reader thread copies the pty's output a moment later.
        #expect(await poll { pty.output.contains("\u{1B}[?2026$p") })
        #expect(Self.localModes(pty.child) == before)
    }

    @Test func sendsNothingWhenNotATerminal() {
        let pipe = PipePair()
        #expect(TerminalProbe.run(environment: Self.environment, input: pipe.readEnd, output: pipe.writeEnd) == nil)
    }

    @Test func sendsNothingToADumbTerminal() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(TerminalProbe.run(environment: ["TERM": "dumb"], input: pty.child, output: pty.child) == nil)
        #expect(pty.output.isEmpty)
    }

    @Test func theDeadlineCanBeWidenedForSlowLinksWithinLimits() {
        #expect(TerminalProbe.timeout([:]) == .milliseconds(250))
        #expect(TerminalProbe.timeout([TerminalProbe.timeoutVariable: "900"]) == .milliseconds(900))
        #expect(TerminalProbe.timeout([TerminalProbe.timeoutVariable: "0"]) == .milliseconds(250))
        #expect(TerminalProbe.timeout([TerminalProbe.timeoutVariable: "60000"]) == .milliseconds(250))
    }
}
