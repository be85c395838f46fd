import Dispatch
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Turns asynchronous signals into calls on the main actor.
///
/// A handler that only writes the signal number into a pipe (the self-pipe
/// technique), and a read source on the main queue that reads it. Unlike
/// ignoring the signal and using a dispatch signal source, this does not
/// depend on every thread of the process (NIO's, Foundation's) blocking the
/// signal: on Linux an ignored signal delivered to a thread that does not
/// block it is simply discarded.
@MainActor
final class SignalWatcher {
    private let source: DispatchSourceRead
    private var previous: [(signal: Int32, action: sigaction)] = []

    /// Installs handlers for `signals`; `onSignal` runs on the main actor,
    /// once per delivery (a burst of one signal may arrive as one call).
    init?(signals: [Int32], onSignal: @escaping @MainActor (Int32) -> Void) {
        let readEnd = SignalPipe.readEnd
        guard readEnd >= 0, SignalPipe.writeEnd >= 0 else { return nil }
        SignalPipe.drain()
        source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .main)
        source.setEventHandler {
            MainActor.assumeIsolated {
                var last: Int32?
                for number in SignalPipe.drain() where number != last {
                    onSignal(number)
                    last = number
                }
            }
        }
        source.resume()
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.writeEnd, &byte, 1)
                errno = saved
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            if sigaction(number, &action, &old) == 0 {
                previous.append((number, old))
            }
        }
    }

    /// Whether `signalNumber` still has its default disposition (nobody else
    /// in the process handles or ignores it).
    static func hasDefaultDisposition(_ signalNumber: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signalNumber, nil, &current) == 0 else { return false }
        return current.__sigaction_handler.sa_handler == nil
    }

    /// Stops the process as SIGTSTP's default action would, and returns once
    /// it is continued (SIGCONT). Our handler is back in place afterwards.
    func suspendProcess() {
        var defaultAction = sigaction()
        sigemptyset(&defaultAction.sa_mask)
        var ours = sigaction()
        sigaction(SIGTSTP, &defaultAction, &ours)
        // The main queue may run on a dispatch thread that blocks signals.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(SIGTSTP)
        sigaction(SIGTSTP, &ours, nil)
    }

    /// Puts the previous dispositions back and stops reading.
    func cancel() {
        for (number, action) in previous.reversed() {
            var old = action
            sigaction(number, &old, nil)
        }
        previous = []
        source.cancel()
    }
}

/// The process-wide pipe the signal handler writes into. Created once, on
/// first use from the main thread, before any handler is installed, so the
/// handler only ever reads the already-initialised descriptor.
enum SignalPipe {
    private static let descriptors: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return (-1, -1) }
        for descriptor in fds {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }()

    static var readEnd: Int32 { descriptors.read }
    static var writeEnd: Int32 { descriptors.write }

    /// Reads every pending signal number (the read end never blocks).
    @discardableResult
    static func drain() -> [Int32] {
        var numbers: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            numbers += buffer[0..<count].map { Int32($0) }
        }
        return numbers
    }
}
