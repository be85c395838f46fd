import CPty
import Foundation
import NIOConcurrencyHelpers

/// A program running in a pseudo-terminal, driven like a person at a
/// terminal would: type, press Ctrl-C, resize the window, read the screen.
///
/// The child runs in its own session with the pty as its controlling
/// terminal, so `isatty` is true, the line discipline turns Ctrl-C into
/// SIGINT, and `resize` delivers SIGWINCH. This works without any terminal
/// on the test side (CI runs tests under `setsid` with stdin from /dev/null).
///
/// Output is read continuously on a background thread into a byte buffer and
/// a `TerminalScreen`. If the process is still running when the last
/// reference goes away, it is killed.
public final class PTYProcess: Sendable {
    /// The waits' default safety net: generous, because a busy 2-core CI
    /// machine can be slow; tests never assert on time. As long as
    /// `eventually`'s: the first wait of a test can sit behind every suite.
    public static let defaultTimeout: Duration = .seconds(90)

    public let pid: pid_t
    public let executable: String

    private let controller: Int32
    private let watcher: ChildWatcher
    private let output: NIOLockedValueBox<Output>
    /// Guards the controller fd's lifetime: writes and the final close.
    private let descriptor: NIOLockedValueBox<Bool>
    /// 0 while the reader reads, 1 while `pauseReading` holds it back.
    private let readerGate = ConditionLock(value: 0)

    private struct Output {
        var bytes: [UInt8] = []
        var screen: TerminalScreen
        var finished = false
    }

    /// Starts `executable` with `arguments` in a new pty of `columns` × `rows`.
    ///
    /// - Parameter environment: the child's whole environment (nothing is
    ///   inherited); see `PTYProcess.baseEnvironment()`.
    /// - Parameter responder: answers the program's terminal queries, as
    ///   the terminal would (nil: nothing answers, like a dumb emulator).
    public init(
        executable: String,
        arguments: [String] = [],
        environment: [String: String] = PTYProcess.baseEnvironment(),
        columns: Int = 120,
        rows: Int = 40,
        responder: TerminalResponder? = nil
    ) throws {
        try checkExecutable(executable)
        var name = [CChar](repeating: 0, count: 256)
        let fd = cpty_open(UInt16(rows), UInt16(columns), &name, Int32(name.count))
        guard fd >= 0 else { throw ProcessLaunchError.system("cpty_open", errno: errno) }
        let childName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Hold the child end open here until the child is reaped: a read on
        // a pty whose child end was never opened blocks instead of failing,
        // so a child killed before it opened the pty would hang the reader.
        let heldChildEnd = open(childName, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard heldChildEnd >= 0 else {
            let code = errno
            close(fd)
            throw ProcessLaunchError.system("open \(childName)", errno: code)
        }

        let argv = [executable] + arguments
        let envp = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let pid = withCStringArray(argv) { argvPointers in
            withCStringArray(envp) { envPointers in
                cpty_spawn(executable, argvPointers, envPointers, childName)
            }
        }
        guard pid > 0 else {
            let code = errno
            close(fd)
            close(heldChildEnd)
            throw ProcessLaunchError.system("fork", errno: code)
        }

        self.pid = pid
        self.executable = executable
        self.controller = fd
        // Once the child is gone, the reader sees EIO as soon as no other
        // process (a leftover grandchild) holds the child end.
        self.watcher = ChildWatcher(pid: pid) { close(heldChildEnd) }
        self.output = NIOLockedValueBox(Output(screen: TerminalScreen(columns: columns, rows: rows)))
        self.descriptor = NIOLockedValueBox(true)
        startReader(responder: responder)
    }

    deinit {
        watcher.kill(SIGKILL)
        resumeReading()
    }

    /// A minimal, predictable environment for a child: PATH and HOME from
    /// this process, an xterm with 256 colours, a UTF-8 locale.
    /// Sanitizer settings pass through, so that a sanitized app started by a
    /// test reports where Scripts/sanitize looks, with its suppressions.
    public static func baseEnvironment() -> [String: String] {
        let current = ProcessInfo.processInfo.environment
        var environment = [
            "PATH": current["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": current["HOME"] ?? "/tmp",
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
        ]
        for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "SWIFT_BACKTRACE"] {
            if let value = current[name] { environment[name] = value }
        }
        return environment
    }

    // MARK: - Output

    /// Everything the program wrote so far, escape sequences included.
    public var outputBytes: [UInt8] { output.withLockedValue { $0.bytes } }

    /// `outputBytes` decoded as UTF-8 (invalid bytes become U+FFFD).
    public var outputText: String { String(decoding: outputBytes, as: UTF8.self) }

    /// The terminal as a person would see it now.
    public var screen: TerminalScreen { output.withLockedValue { $0.screen } }

    /// A position in the output, to wait for text that appears after it.
    public func mark() -> Int { output.withLockedValue { $0.bytes.count } }

    /// Output written since `mark`.
    public func output(since mark: Int) -> [UInt8] {
        output.withLockedValue { Array($0.bytes[min(mark, $0.bytes.count)...]) }
    }

    // MARK: - Input

    /// Types `text` (UTF-8) as if at the keyboard. Use "\r" for Enter.
    public func write(_ text: String) throws {
        try write(bytes: Array(text.utf8))
    }

    /// Writes raw bytes to the terminal's input.
    public func write(bytes: [UInt8]) throws {
        try descriptor.withLockedValue { open in
            guard open else { throw PTYError.closed }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(controller, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw PTYError.writeFailed(errno: errno)
                }
                offset += written
            }
        }
    }

    /// Presses Ctrl-C: the line discipline sends SIGINT to the foreground group.
    public func sendControlC() throws {
        try write(bytes: [0x03])
    }

    /// Presses Ctrl-D: end of input for a program reading lines.
    public func sendControlD() throws {
        try write(bytes: [0x04])
    }

    /// Resizes the window: the program gets SIGWINCH, and the screen model
    /// takes the new size for output that follows.
    public func resize(columns: Int, rows: Int) throws {
        try descriptor.withLockedValue { open in
            guard open else { throw PTYError.closed }
            output.withLockedValue { $0.screen.resize(columns: columns, rows: rows) }
            guard cpty_resize(controller, UInt16(rows), UInt16(columns)) == 0 else {
                throw PTYError.writeFailed(errno: errno)
            }
        }
    }

    // MARK: - Waiting

    /// Waits until the raw output written after `mark` contains `text`.
    public func waitFor(text: String, after mark: Int = 0, timeout: Duration = PTYProcess.defaultTimeout) async throws {
        let needle = Array(text.utf8)
        try await waitFor("output containing \(text.debugDescription)", timeout: timeout) { bytes, _ in
            bytes.count >= mark && bytes[mark...].firstRange(of: needle) != nil
        }
    }

    /// Waits until the screen (scrollback included) shows `text`.
    public func waitFor(screenContains text: String, timeout: Duration = PTYProcess.defaultTimeout) async throws {
        try await waitFor("the screen to show \(text.debugDescription)", timeout: timeout) { _, screen in
            screen.text.contains(text)
        }
    }

    /// Waits until `condition` holds for the output and screen, or throws
    /// `PTYError.timedOut` with what was seen so far.
    public func waitFor(
        _ description: String,
        timeout: Duration = PTYProcess.defaultTimeout,
        until condition: @escaping ([UInt8], TerminalScreen) -> Bool
    ) async throws {
        let met = await poll(timeout: timeout) {
            output.withLockedValue { condition($0.bytes, $0.screen) }
        }
        if !met { throw PTYError.timedOut(waitingFor: description, transcript: transcript()) }
    }

    /// Waits for the program to end and returns how it ended.
    public func waitForExit(timeout: Duration = PTYProcess.defaultTimeout) async throws -> TerminationStatus {
        guard let status = await watcher.waitForExit(timeout: timeout) else {
            throw PTYError.timedOut(waitingFor: "the process to exit", transcript: transcript())
        }
        // Let the reader drain what the program wrote just before exiting.
        _ = await poll(timeout: .seconds(5)) { output.withLockedValue { $0.finished } }
        return status
    }

    /// How the program ended, or nil while it runs.
    public var exitStatus: TerminationStatus? { watcher.exitStatus }

    /// Kills the program (SIGKILL) if it is still running.
    public func terminate() {
        watcher.kill(SIGKILL)
    }

    /// Sends `signal` to the program if it is still running.
    public func send(signal: Int32) {
        watcher.kill(signal)
    }

    /// The screen and the tail of the raw output (control bytes made
    /// visible), for failure messages.
    public func transcript(rawTail: Int = 3000) -> String {
        let (bytes, screen) = output.withLockedValue { ($0.bytes, $0.screen) }
        let screenLines = (screen.scrollback.suffix(40) + screen.lines)
        var trimmed = Array(screenLines)
        while let last = trimmed.last, last.isEmpty { trimmed.removeLast() }
        let raw = String(decoding: bytes.suffix(rawTail), as: UTF8.self)
        return """
            --- screen (last lines, scrollback included) ---
            \(trimmed.joined(separator: "\n"))
            --- raw output, last \(min(rawTail, bytes.count)) of \(bytes.count) bytes ---
            \(Self.visible(raw))
            --- process: \(exitStatus.map(\.description) ?? "running") ---
            """
    }

    /// Shows control characters as `\e`, `\r`, `^X` so a transcript can be read.
    public static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1B: result += "\\e"
            case 0x0D: result += "\\r"
            case 0x0A: result += "\\n\n"
            case 0x07: result += "\\a"
            case 0x08: result += "\\b"
            case 0x00..<0x20: result += "^" + String(UnicodeScalar(UInt8(scalar.value) + 0x40))
            case 0x7F...0x9F: result += String(format: "\\x%02X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: - A terminal that stops reading

    /// Stops taking the program's output, as a terminal stuck behind a slow
    /// link would: what it writes piles up in the pty (about 4 KB in the
    /// line discipline, then up to 64 KB queued), then its writes block.
    /// A read already under way still delivers its bytes.
    public func pauseReading() {
        readerGate.lock()
        readerGate.unlock(withValue: 1)
    }

    public func resumeReading() {
        readerGate.lock()
        readerGate.unlock(withValue: 0)
    }

    /// Bytes the program wrote that wait in the controller's line
    /// discipline (at most about 4 KB; more waits queued behind them).
    public var unreadOutputBytes: Int {
        descriptor.withLockedValue { open in
            var count: Int32 = 0
            guard open, ioctl(controller, UInt(FIONREAD), &count) == 0 else { return 0 }
            return Int(count)
        }
    }

    // MARK: - Reader

    private func startReader(responder: TerminalResponder?) {
        let thread = Thread { [output, descriptor, controller, readerGate] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                readerGate.lock(whenValue: 0)
                readerGate.unlock()
                let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
                if count > 0 {
                    output.withLockedValue {
                        $0.bytes.append(contentsOf: buffer[0..<count])
                        $0.screen.feed(buffer[0..<count])
                    }
                    if let reply = responder?.reply(to: buffer[0..<count]) {
                        descriptor.withLockedValue { open in
                            guard open else { return }
                            _ = reply.withUnsafeBytes { Glibc.write(controller, $0.baseAddress, $0.count) }
                        }
                    }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    // 0 or EIO: every child end of the pty is closed.
                    break
                }
            }
            descriptor.withLockedValue { open in
                open = false
                close(controller)
            }
            output.withLockedValue { $0.finished = true }
        }
        thread.name = "PTYProcess reader \(pid)"
        thread.start()
    }
}

/// What went wrong while driving a `PTYProcess`.
public enum PTYError: Error, Sendable, CustomStringConvertible {
    case timedOut(waitingFor: String, transcript: String)
    case writeFailed(errno: Int32)
    case closed

    public var description: String {
        switch self {
        case .timedOut(let what, let transcript):
            "Timed out waiting for \(what).\n\(transcript)"
        case .writeFailed(let code):
            "Writing to the pty failed: \(String(cString: strerror(code)))."
        case .closed:
            "The pty is closed: the program has exited."
        }
    }
}
