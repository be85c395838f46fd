import Foundation
import NIOConcurrencyHelpers
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

    /// Runs the probe against the test playing the terminal, each on a
    /// thread of its own started before anything waits: the player waits
    /// for the DA1 query, notes the line modes the probe has set, and types
    /// the answers. (Started from a child task, the player once began only
    /// after the probe's 5 s: a busy full run had no pool thread free.)
    private static func probeAnswered(by answers: String, on pty: PseudoTerminal)
        async -> (result: TerminalProbeResult?, modesWhileWaiting: tcflag_t?) {
        let child = pty.child
        let modes = NIOLockedValueBox<tcflag_t?>(nil)
        let played = DispatchSemaphore(value: 0)
        Thread {
            let deadline = Date().addingTimeInterval(120)
            while !pty.output.contains("\u{1B}[c"), Date() < deadline { usleep(1_000) }
            if pty.output.contains("\u{1B}[c") {
                modes.withLockedValue { $0 = localModes(child) }
                pty.type(answers)
            }
            played.signal()
        }.start()
        // The probe returns as soon as the answers are in; its deadline is
        // as long as the player's wait.
        let result = await onThread {
            TerminalProbe.run(environment: Self.environment, input: child, output: child, timeout: .seconds(120))
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                played.wait()
                done.resume()
            }.start()
        }
        return (result, modes.withLockedValue { $0 })
    }

    @Test func readsTheAnswersAndRestoresTheTerminalMode() async throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let before = Self.localModes(pty.child)
        let (probed, modesWhileWaiting) = await Self.probeAnswered(by: TerminalProbeParserTests.kittyAnswers, on: pty)
        let result = try #require(probed)
        let modes = try #require(modesWhileWaiting, "the probe never sent its DA1 query")
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
