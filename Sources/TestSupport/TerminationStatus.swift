import Foundation
import NIOConcurrencyHelpers

/// How a child process ended.
public enum TerminationStatus: Sendable, Equatable, CustomStringConvertible {
    /// It called `exit` with this code.
    case exited(Int32)
    /// A signal killed it.
    case signalled(Int32)

    /// Decodes a `waitpid` status (the W* macros are not imported into Swift).
    init(waitStatus status: Int32) {
        let signal = status & 0x7F
        if signal == 0 {
            self = .exited((status >> 8) & 0xFF)
        } else {
            self = .signalled(signal)
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exit code \(code)"
        case .signalled(let signal): "killed by signal \(signal)"
        }
    }

    /// The exit code, or nil when a signal ended the process.
    public var code: Int32? {
        if case .exited(let code) = self { return code }
        return nil
    }
}

/// Reaps one child on a dedicated thread and remembers its status, so that
/// `kill` is never sent to a pid that was already reaped (and maybe reused).
final class ChildWatcher: Sendable {
    let pid: pid_t
    private let status = NIOLockedValueBox<TerminationStatus?>(nil)

    /// - Parameter onExit: called on the watcher's thread once the child is reaped.
    init(pid: pid_t, onExit: @escaping @Sendable () -> Void = {}) {
        self.pid = pid
        let thread = Thread { [status] in
            // Block until the child has exited, without reaping it yet...
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            // ...then reap it under the lock that `kill` takes.
            status.withLockedValue { value in
                var raw: Int32 = 0
                var result: pid_t
                repeat { result = waitpid(pid, &raw, 0) } while result < 0 && errno == EINTR
                value = result == pid ? TerminationStatus(waitStatus: raw) : .exited(-1)
            }
            onExit()
        }
        thread.name = "ChildWatcher \(pid)"
        thread.start()
    }

    var exitStatus: TerminationStatus? { status.withLockedValue { $0 } }

    /// Sends `signal` unless the child has already been reaped.
    func kill(_ signal: Int32) {
        status.withLockedValue { value in
            if value == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    func waitForExit(timeout: Duration) async -> TerminationStatus? {
        _ = await poll(timeout: timeout) { exitStatus != nil }
        return exitStatus
    }
}

/// C strings for `execve`, freed when the closure returns.
func withCStringArray<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) throws -> Result) rethrows -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return try body(pointers)
}

/// Checks up front what the forked child would otherwise report only as exit code 127.
func checkExecutable(_ path: String) throws(ProcessLaunchError) {
    guard FileManager.default.fileExists(atPath: path) else { throw .notFound(path) }
    guard access(path, X_OK) == 0 else { throw .notExecutable(path) }
}

/// Why a child process could not be started.
public enum ProcessLaunchError: Error, Sendable, CustomStringConvertible {
    case notFound(String)
    case notExecutable(String)
    case system(String, errno: Int32)

    public var description: String {
        switch self {
        case .notFound(let path): "No executable at \(path)."
        case .notExecutable(let path): "\(path) is not executable."
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))."
        }
    }
}
