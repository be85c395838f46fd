import Foundation
import Testing
import TestSupport

/// The pty driver itself, on programs every Linux machine has.
@Suite("PTYProcess")
struct PTYProcessTests {
    @Test func childSeesTheTerminalSizeAndEchoesTypedInput() async throws {
        let process = try PTYProcess(
            executable: "/bin/sh", arguments: ["-c", "stty size; read x; echo got:$x"], columns: 120, rows: 40)
        try await process.waitFor(text: "40 120")
        try process.write("hello\r")
        try await process.waitFor(text: "got:hello")
        #expect(try await process.waitForExit() == .exited(0))
        #expect(process.screen.lines.contains("got:hello"))
    }

    @Test func controlCKillsAForegroundProgramWithSIGINT() async throws {
        // exec so that sleep itself is the session's foreground process.
        let process = try PTYProcess(executable: "/bin/sh", arguments: ["-c", "echo ready; exec sleep 600"])
        try await process.waitFor(text: "ready")
        // The shell may still be exec'ing; wait until sleep is the program running.
        try await waitUntilExecutableIs("sleep", pid: process.pid)
        try process.sendControlC()
        #expect(try await process.waitForExit() == .signalled(SIGINT))
    }

    @Test func resizeDeliversTheNewSizeToTheChild() async throws {
        let process = try PTYProcess(
            executable: "/bin/sh", arguments: ["-c", "stty size; read x; stty size"], columns: 120, rows: 40)
        try await process.waitFor(text: "40 120")
        try process.resize(columns: 60, rows: 20)
        try process.write("\r")
        try await process.waitFor(text: "20 60")
        #expect(try await process.waitForExit() == .exited(0))
        #expect(process.screen.columns == 60)
    }

    @Test func childIsATerminalOnAllThreeStandardFds() async throws {
        let process = try PTYProcess(
            executable: "/bin/sh", arguments: ["-c", "test -t 0 && test -t 1 && test -t 2 && echo all-ttys"])
        try await process.waitFor(text: "all-ttys")
        #expect(try await process.waitForExit() == .exited(0))
    }

    @Test func exitCodeIsReported() async throws {
        let process = try PTYProcess(executable: "/bin/sh", arguments: ["-c", "exit 7"])
        #expect(try await process.waitForExit() == .exited(7))
    }

    @Test func terminateKillsTheProgram() async throws {
        let process = try PTYProcess(executable: "/bin/sleep", arguments: ["30"])
        process.terminate()
        #expect(try await process.waitForExit() == .signalled(SIGKILL))
    }

    @Test func timeoutErrorCarriesTheOutputSoFar() async throws {
        let process = try PTYProcess(executable: "/bin/sh", arguments: ["-c", "echo partial-output; exec sleep 30"])
        try await process.waitFor(text: "partial-output")
        let error = await #expect(throws: PTYError.self) {
            try await process.waitFor(text: "never printed", timeout: .milliseconds(200))
        }
        #expect(error.map { "\($0)" }?.contains("partial-output") == true)
        process.terminate()
    }

    @Test func environmentIsExactlyWhatWasGiven() async throws {
        let process = try PTYProcess(
            executable: "/bin/sh", arguments: ["-c", "echo \"[$MARKER][$TERM][${UNSET_IN_CHILD-unset}]\""],
            environment: ["MARKER": "m42", "TERM": "xterm-256color", "PATH": "/usr/bin:/bin"])
        try await process.waitFor(text: "[m42][xterm-256color][unset]")
    }

    @Test func missingExecutableIsAClearError() throws {
        #expect(throws: ProcessLaunchError.self) {
            _ = try PTYProcess(executable: "/nonexistent/flickr")
        }
    }

    /// Reads /proc/PID/comm until it names `name` (sh has exec'd it).
    private func waitUntilExecutableIs(_ name: String, pid: pid_t) async throws {
        for _ in 0..<400 {
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            if comm.trimmingCharacters(in: .whitespacesAndNewlines) == name { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("process \(pid) never became \(name)")
    }
}

@Suite("ProcessRunner")
struct ProcessRunnerTests {
    @Test func stdinIsAPipeAndReachesEndOfFile() async throws {
        let result = try await ProcessRunner.run(
            "/bin/sh", arguments: ["-c", "test -t 0 || echo not-a-tty; cat; echo done"], input: "line1\nline2\n")
        #expect(result.status == .exited(0))
        #expect(result.outputText == "not-a-tty\nline1\nline2\ndone\n")
    }

    @Test func stderrIsSeparateFromStdout() async throws {
        let result = try await ProcessRunner.run("/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.status == .exited(3))
        #expect(result.outputText == "out\n")
        #expect(result.errorText == "err\n")
    }

    /// `sleep infinity`, not a long sleep: on a loaded machine the waiting
    /// task once woke after `sleep 30` had ended by itself and saw an exit.
    @Test func aProgramThatDoesNotExitIsKilledAtTheTimeout() async throws {
        await #expect(throws: ProcessRunnerError.self) {
            _ = try await ProcessRunner.run("/bin/sleep", arguments: ["infinity"], timeout: .milliseconds(300))
        }
    }
}
