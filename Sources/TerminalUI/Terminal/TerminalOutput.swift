import CReadline
import Platform

/// A buffered C stream onto the terminal's output descriptor. Readline writes
/// through the same `FILE*`, so our text and its redisplay never reorder.
final class TerminalOutput {
    let stream: UnsafeMutablePointer<FILE>
    let fileDescriptor: Int32
    private var ownsStream: Bool

    /// stdout's own stream for descriptor 1 (shared with Swift's `print`),
    /// otherwise a stream on a duplicate of `fileDescriptor`.
    init?(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        if fileDescriptor == STDOUT_FILENO {
            stream = flickr_stdout_stream()
            ownsStream = false
        } else {
            let copy = dup(fileDescriptor)
            guard copy >= 0, let opened = fdopen(copy, "w") else {
                if copy >= 0 { Glibc.close(copy) }
                return nil
            }
            stream = opened
            ownsStream = true
        }
    }

    func write(_ text: String) {
        _ = text.withCString { fputs($0, stream) }
    }

    func flush() {
        fflush(stream)
    }

    /// Flushes, and closes the stream if this object opened it.
    func close() {
        fflush(stream)
        if ownsStream { fclose(stream) }
        ownsStream = false
    }

    deinit {
        close()
    }
}

extension TerminalSize {
    /// The window size of the terminal behind `fileDescriptor`, or nil when
    /// it is not a terminal or reports zero.
    static func read(fileDescriptor: Int32) -> TerminalSize? {
        var window = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return nil
        }
        return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }
}
