// Re-exported: every other module imports `Platform` instead of choosing
// between Glibc and Darwin itself.
#if canImport(Glibc)
@_exported @preconcurrency import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif
import CHeap

/// The one place for operating-system differences (Glibc on Linux, Darwin
/// elsewhere) and for the few POSIX calls the layers above share.
public enum Platform {
    /// The C heap as the allocator sees it: bytes handed out, and bytes it
    /// holds free (kept for reuse, not returned to the system). nil where
    /// the allocator cannot say.
    public static func heapUsage() -> (inUse: Int, heldFree: Int)? {
        var inUse = 0
        var heldFree = 0
        guard flickr_heap_usage(&inUse, &heldFree) != 0 else { return nil }
        return (inUse, heldFree)
    }

    /// Returns the free memory the allocator holds to the system: what a
    /// burst of work freed stays resident otherwise, scattered between
    /// blocks still in use. Takes a few milliseconds: call it off the main
    /// thread, once a burst is over.
    public static func releaseFreeHeap() {
        flickr_heap_release_free()
    }

    /// Caps the allocator's arenas at one per core (2 to 8). glibc gives
    /// threads up to eight arenas per core, and each keeps the memory a
    /// burst of work freed (a page of renders, a batch of disk reads on
    /// their own threads) for its own reuse: a 6-minute soak of the app
    /// ended with 35 MB of such free memory resident and 7 MB in use.
    /// Call once, first thing, before other threads start.
    public static func limitHeapArenas(cores: Int = sysconf(Int32(_SC_NPROCESSORS_ONLN))) {
        flickr_heap_limit_arenas(Int32(min(8, max(2, cores))))
    }

    /// Whether `descriptor` is a terminal a person is using: a tty, and
    /// `TERM` names a real terminal. `TERM` unset, empty or `dumb` counts as
    /// "not a terminal": such a terminal cannot take cursor movement.
    public static func isTerminal(_ descriptor: Int32, environment: [String: String]) -> Bool {
        guard isatty(descriptor) == 1 else { return false }
        return usableTerm(environment)
    }

    /// Whether `TERM` names a terminal that takes escape sequences.
    public static func usableTerm(_ environment: [String: String]) -> Bool {
        environment["TERM"].map { !$0.isEmpty && $0 != "dumb" } ?? false
    }

    public static let standardInput: Int32 = STDIN_FILENO
    public static let standardOutput: Int32 = STDOUT_FILENO
    public static let standardError: Int32 = STDERR_FILENO

    /// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR.
    /// Returns false when the descriptor refuses (closed pipe, full disk).
    @discardableResult
    public static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Bool {
        Array(bytes).withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Platform.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// One `write(2)`, for types that have a `write` method of their own.
    public static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }

    /// The text of `errno`-style error `code`.
    public static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Ends the process the way `number` would have by default. The calling
    /// thread may block signals (dispatch threads do), so it is unblocked first.
    public static func dieBy(signal number: Int32) -> Never {
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        _exit(128 + number)
    }
}
