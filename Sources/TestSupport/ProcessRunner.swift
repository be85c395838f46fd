import CPty
import Foundation
import NIOConcurrencyHelpers

/// Runs a program without a terminal: stdin, stdout and stderr are pipes,
/// and the child has no controlling terminal (its own session), as when a
/// script or CI runs it.
public enum ProcessRunner {
    /// What a finished run produced.
    public struct Result: Sendable {
        public var status: TerminationStatus
        public var standardOutput: [UInt8]
        public var standardError: [UInt8]

        /// stdout decoded as UTF-8.
        public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
        /// stderr decoded as UTF-8.
        public var errorText: String { String(decoding: standardError, as: UTF8.self) }

        /// stdout and stderr for failure messages, control bytes made visible.
        public var transcript: String {
            """
            --- \(status) ---
            --- stdout (\(standardOutput.count) bytes) ---
            \(PTYProcess.visible(String(outputText.suffix(4000))))
            --- stderr (\(standardError.count) bytes) ---
            \(PTYProcess.visible(String(errorText.suffix(4000))))
            """
        }
    }

    /// Runs `executable` to completion, feeding `input` to its stdin and then
    /// closing it (end of file). Kills it and throws if it has not exited
    /// within `timeout`.
    ///
    /// - Parameter environment: the child's whole environment.
    public static func run(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String] = PTYProcess.baseEnvironment(),
        input: String = "",
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        try await start(executable, arguments: arguments, environment: environment, input: input)
            .finish(timeout: timeout)
    }

    /// `run` on the calling thread, for the few callers that cannot await
    /// (a test trait's condition): quick probes only, with no input.
    public static func runBlocking(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String] = PTYProcess.baseEnvironment(),
        timeout: Duration = .seconds(30)
    ) throws -> Result {
        let child = try start(executable, arguments: arguments, environment: environment, input: "")
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while child.isRunning || !child.outputClosed, clock.now < deadline {
            usleep(2_000)
        }
        return try child.result(timedOut: child.isRunning)
    }

    /// Starts `executable` and returns at once, for a test that acts while
    /// it runs (reads what it wrote so far, sends it a signal).
    public static func start(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String] = PTYProcess.baseEnvironment(),
        input: String = ""
    ) throws -> RunningProcess {
        try checkExecutable(executable)
        ignoreSIGPIPE
        let stdinPipe = try makePipe()
        let stdoutPipe = try makePipe()
        let stderrPipe = try makePipe()

        let argv = [executable] + arguments
        let envp = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let pid = withCStringArray(argv) { argvPointers in
            withCStringArray(envp) { envPointers in
                cpty_spawn_fds(executable, argvPointers, envPointers, stdinPipe.read, stdoutPipe.write, stderrPipe.write)
            }
        }
        let spawnErrno = errno
        close(stdinPipe.read)
        close(stdoutPipe.write)
        close(stderrPipe.write)
        guard pid > 0 else {
            close(stdinPipe.write)
            close(stdoutPipe.read)
            close(stderrPipe.read)
            throw ProcessLaunchError.system("fork", errno: spawnErrno)
        }
        let child = RunningProcess(executable: executable, watcher: ChildWatcher(pid: pid))
        startReader(fd: stdoutPipe.read, into: child.stdout)
        startReader(fd: stderrPipe.read, into: child.stderr)
        startWriter(fd: stdinPipe.write, bytes: Array(input.utf8))
        return child
    }

    /// A child started by `ProcessRunner.start`, its output pipes read on
    /// threads of their own.
    public final class RunningProcess: Sendable {
        let executable: String
        let watcher: ChildWatcher
        let stdout = NIOLockedValueBox(Stream())
        let stderr = NIOLockedValueBox(Stream())

        init(executable: String, watcher: ChildWatcher) {
            self.executable = executable
            self.watcher = watcher
        }

        /// A child nobody waits for any more (a test that failed early) is killed.
        deinit {
            watcher.kill(SIGKILL)
        }

        public var pid: pid_t { watcher.pid }

        /// Until it has exited (and been reaped).
        public var isRunning: Bool { watcher.exitStatus == nil }

        /// What it wrote to stdout so far.
        public var outputSoFar: [UInt8] { stdout.withLockedValue(\.bytes) }

        /// Sends `signal` unless it has already been reaped.
        public func send(signal: Int32) {
            watcher.kill(signal)
        }

        /// Waits until it has exited and closed its output. One still
        /// running after `timeout` is killed, and this throws.
        public func finish(timeout: Duration = .seconds(60)) async throws -> Result {
            let exited = await watcher.waitForExit(timeout: timeout) != nil
            if !exited { watcher.kill(SIGKILL) }
            // The pipes reach EOF once the child (and anything it started) is gone.
            _ = await poll(timeout: .seconds(10)) { outputClosed }
            return try result(timedOut: !exited)
        }

        var outputClosed: Bool {
            stdout.withLockedValue(\.finished) && stderr.withLockedValue(\.finished)
        }

        /// What it wrote and how it ended; after a time-out it is killed,
        /// and the run is an error that carries what it wrote.
        func result(timedOut: Bool) throws -> Result {
            if timedOut { watcher.kill(SIGKILL) }
            let result = Result(
                status: watcher.exitStatus ?? .signalled(SIGKILL),
                standardOutput: stdout.withLockedValue(\.bytes),
                standardError: stderr.withLockedValue(\.bytes))
            guard !timedOut else {
                throw ProcessRunnerError.timedOut(executable: executable, transcript: result.transcript)
            }
            return result
        }
    }

    struct Stream {
        var bytes: [UInt8] = []
        var finished = false
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard cpty_pipe(&fds) == 0 else { throw ProcessLaunchError.system("pipe2", errno: errno) }
        return (fds[0], fds[1])
    }

    private static func startReader(fd: Int32, into stream: NIOLockedValueBox<Stream>) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    stream.withLockedValue { $0.bytes.append(contentsOf: buffer[0..<count]) }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(fd)
            stream.withLockedValue { $0.finished = true }
        }
        thread.start()
    }

    /// Writes stdin on its own thread, so a child that does not read cannot
    /// block the test; a child that exits early just ends the write (EPIPE).
    private static func startWriter(fd: Int32, bytes: [UInt8]) {
        let thread = Thread {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    break
                }
                offset += written
            }
            close(fd)
        }
        thread.start()
    }

    /// Writing to a pipe whose reader exited must fail with EPIPE rather than
    /// kill the test process.
    private static let ignoreSIGPIPE: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()
}

/// A `ProcessRunner` run that did not finish in time.
public enum ProcessRunnerError: Error, Sendable, CustomStringConvertible {
    case timedOut(executable: String, transcript: String)

    public var description: String {
        switch self {
        case .timedOut(let executable, let transcript):
            "\(executable) did not exit in time and was killed.\n\(transcript)"
        }
    }
}
