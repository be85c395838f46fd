// A pseudo-terminal that only collects bytes, for timing to the byte.
//
// TestSupport's PTYProcess feeds every byte through its terminal model on
// a reader thread; at the 150 KB a page of thumbnails takes, that model,
// not the app, would set the pace. A real terminal parses far faster, so
// the timings here read raw bytes on the calling thread, and keep reading
// while they wait for anything else, so the app never blocks on a full pty.

import Foundation
import Glibc
import TestSupport

/// glibc's POSIX_SPAWN_SETSID (2.26+), which the Glibc module does not export.
private let spawnSetSID: Int32 = 0x80

final class RawTerminal {
    let pid: pid_t
    private let controller: Int32
    private(set) var bytes: [UInt8] = []
    /// Where each read ended and when it happened.
    private var reads: [(end: Int, at: ContinuousClock.Instant)] = []
    private var exited = false
    private let responder = TerminalResponder(TerminalResponder.Answers())

    init(executable: String, arguments: [String], environment: [String: String], columns: Int, rows: Int) throws {
        var controller: Int32 = -1
        var child: Int32 = -1
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&controller, &child, nil, nil, &size) == 0 else { throw BenchError.failed("openpty failed") }
        defer { close(child) }
        guard let name = ttyname(child).map({ String(cString: $0) }) else { throw BenchError.failed("ttyname failed") }
        _ = fcntl(controller, F_SETFL, fcntl(controller, F_GETFL) | O_NONBLOCK)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after setsid, the terminal becomes the child's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, controller)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(spawnSetSID))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(controller)
            throw BenchError.failed("could not start \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        self.controller = controller
    }

    deinit {
        if !exited {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(controller)
    }

    func mark() -> Int { bytes.count }

    func write(_ text: String) {
        var data = Array(text.utf8)[...]
        while !data.isEmpty {
            let written = data.withUnsafeBytes { Glibc.write(controller, $0.baseAddress, $0.count) }
            if written > 0 { data = data.dropFirst(written) } else { drain(waitingUpTo: 1) }
        }
    }

    /// Reads whatever is there, waiting up to `milliseconds` for the first byte.
    func drain(waitingUpTo milliseconds: Int32 = 0) {
        var descriptor = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            bytes.append(contentsOf: buffer[0..<count])
            reads.append((bytes.count, ContinuousClock.now))
            // Answer the app's start-up probe as an xterm-like terminal does
            // at once; without an answer the app would wait out its timeout.
            if let reply = responder.reply(to: buffer[0..<count]) {
                _ = reply.withUnsafeBytes { Glibc.write(controller, $0.baseAddress, $0.count) }
            }
        }
    }

    /// When `needle` first arrived after `mark`: the time of the read that
    /// brought its last byte (reads happen as bytes come, within a millisecond).
    func instant(of needle: String, after mark: Int, timeout: Duration = .seconds(60)) throws -> ContinuousClock.Instant {
        let target = Array(needle.utf8)
        let deadline = ContinuousClock.now + timeout
        var searched = mark
        while ContinuousClock.now < deadline {
            if bytes.count > searched, let found = bytes[searched...].firstRange(of: target) {
                return readInstant(reaching: found.upperBound)
            }
            searched = max(mark, bytes.count - target.count)
            drain(waitingUpTo: 1)
        }
        let tail = String(decoding: bytes.suffix(2_000), as: UTF8.self)
        throw BenchError.failed("timed out waiting for \(needle.debugDescription); output ends with:\n\(tail)")
    }

    /// When the read that brought the byte before `end` happened.
    func readInstant(reaching end: Int) -> ContinuousClock.Instant {
        reads.first { $0.end >= end }?.at ?? ContinuousClock.now
    }

    /// Reads output for `duration`.
    func pause(_ duration: Duration) {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end { drain(waitingUpTo: 1) }
    }

    /// Waits for the program to exit, reading its output meanwhile.
    func waitForExit(timeout: Duration = .seconds(30)) throws {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            drain(waitingUpTo: 5)
            if waitpid(pid, &status, WNOHANG) == pid {
                exited = true
                return
            }
        }
        throw BenchError.failed("the app did not exit")
    }
}
