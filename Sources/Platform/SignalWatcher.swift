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
    private let pipe: SignalPipe
    private var previous: [(signal: Int32, action: sigaction)] = []

    /// Installs handlers for `signals`; `onSignal` runs on `queue`, once per
    /// delivery (a burst of one signal may arrive as one call). Nil when the
    /// process cannot make a pipe (then the signals keep their default action).
    public init?(signals: [Int32], queue: DispatchQueue, onSignal: @escaping @Sendable (Int32) -> Void) {
        guard let pipe = SignalPipe(), signals.allSatisfy({ $0 > 0 && $0 < SignalPipe.routeCount }) else { return nil }
        self.pipe = pipe
        source = DispatchSource.makeReadSource(fileDescriptor: pipe.readEnd, queue: queue)
        source.setEventHandler {
            var last: Int32?
            for number in pipe.drain() where number != last {
                onSignal(number)
                last = number
            }
        }
        source.resume()
        for number in signals {
            // Route this signal to this watcher's pipe before the handler can run.
            SignalPipe.routes[Int(number)] = pipe.writeEnd
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
            if SignalPipe.routes[Int(number)] == pipe.writeEnd { SignalPipe.routes[Int(number)] = -1 }
        }
        previous = []
        source.cancel()
    }
}

/// The pipe a watcher's signals are written into. The handler finds it
/// through `routes`, a fixed table indexed by signal number that is written
/// before a handler is installed and only read inside the handler (a plain
/// load, async-signal-safe). Each watcher has its own pipe, so two watchers
/// never read each other's signals.
final class SignalPipe: Sendable {
    static let routeCount: Int32 = 65
    nonisolated(unsafe) static let routes: UnsafeMutablePointer<Int32> = {
        let table = UnsafeMutablePointer<Int32>.allocate(capacity: Int(routeCount))
        table.initialize(repeating: -1, count: Int(routeCount))
        return table
    }()

    let readEnd: Int32
    let writeEnd: Int32

    init?() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for descriptor in fds {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Async-signal-safe: one table load and one `write`, errno preserved.
    static func send(_ number: Int32) {
        guard number > 0, number < routeCount else { return }
        let descriptor = routes[Int(number)]
        guard descriptor >= 0 else { return }
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(descriptor, &byte, 1)
        errno = saved
    }

    /// Reads every pending signal number (the read end never blocks).
    func drain() -> [Int32] {
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
