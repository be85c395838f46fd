import Dispatch
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns asynchronous signals into calls on a dispatch queue: the one signal
/// mechanism of the app, `download` and `sandbox`.
///
/// A handler that only writes the signal number into a pipe (the self-pipe
/// technique), and a read source that reads it. Dispatch signal sources were
/// not used: they rely on the signal being ignored, and on Linux an ignored
/// signal that the kernel hands to a thread which has not blocked it (NIO and
/// the concurrency pool run many) is simply discarded — a Ctrl-C that did
/// nothing.
///
/// `@unchecked Sendable`: `previous` is written only in `init` and `cancel`,
/// which callers run once each on the watcher's queue or before it starts;
/// the dispatch source is thread-safe.
public final class SignalWatcher: @unchecked Sendable {
    private let source: any DispatchSourceRead
    private var previous: [(signal: Int32, action: sigaction)] = []

    /// Installs handlers for `signals`; `onSignal` runs on `queue`, once per
    /// delivery (a burst of one signal may arrive as one call). Nil when the
    /// process cannot make a pipe (then the signals keep their default action).
    public init?(signals: [Int32], queue: DispatchQueue, onSignal: @escaping @Sendable (Int32) -> Void) {
        let readEnd = SignalPipe.readEnd
        guard readEnd >= 0, SignalPipe.writeEnd >= 0 else { return nil }
        SignalPipe.drain()
        source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: queue)
        source.setEventHandler {
            var last: Int32?
            for number in SignalPipe.drain() where number != last {
                onSignal(number)
                last = number
            }
        }
        source.resume()
        for number in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { number in
                SignalPipe.send(number)
            }
            #else
            action.__sigaction_u.__sa_handler = { number in
                SignalPipe.send(number)
            }
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            if sigaction(number, &action, &old) == 0 {
                previous.append((number, old))
            }
        }
    }

    /// A watcher whose handler runs on the main actor.
    @MainActor
    public convenience init?(signals: [Int32], onMainActor handler: @escaping @MainActor (Int32) -> Void) {
        self.init(signals: signals, queue: .main) { number in
            MainActor.assumeIsolated { handler(number) }
        }
    }

    /// Watches `signals` from now on and delivers them as a stream, for
    /// commands that run until interrupted (`flickr sandbox`). Cancel the
    /// watcher to put the dispositions back.
    public static func stream(of signals: [Int32]) -> (signals: AsyncStream<Int32>, watcher: SignalWatcher?) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let watcher = SignalWatcher(signals: signals, queue: .global()) { continuation.yield($0) }
        return (stream, watcher)
    }

    /// Whether `signalNumber` still has its default disposition (nobody else
    /// in the process handles or ignores it).
    public static func hasDefaultDisposition(_ signalNumber: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signalNumber, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        return current.__sigaction_handler.sa_handler == nil
        #else
        return current.__sigaction_u.__sa_handler == nil
        #endif
    }

    /// Stops the process as SIGTSTP's default action would, and returns once
    /// it is continued (SIGCONT). Our handler is back in place afterwards.
    public func suspendProcess() {
        var defaultAction = sigaction()
        sigemptyset(&defaultAction.sa_mask)
        var ours = sigaction()
        sigaction(SIGTSTP, &defaultAction, &ours)
        // The calling queue may run on a dispatch thread that blocks signals.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(SIGTSTP)
        sigaction(SIGTSTP, &ours, nil)
    }

    /// Puts the previous dispositions back and stops reading.
    public func cancel() {
        for (number, action) in previous.reversed() {
            var old = action
            sigaction(number, &old, nil)
        }
        previous = []
        source.cancel()
    }
}

/// The process-wide pipe the signal handler writes into. Created once, before
/// any handler is installed, so the handler only ever reads an
/// already-initialised descriptor.
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

    /// Async-signal-safe: one `write`, errno preserved.
    static func send(_ number: Int32) {
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(writeEnd, &byte, 1)
        errno = saved
    }

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
