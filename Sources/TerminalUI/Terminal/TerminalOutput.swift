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

    /// Text longer than this goes to the descriptor in one `write` (after
    /// what is buffered), not in stream-buffer pieces: an image arriving
    /// whole is what terminals handle best (kitty 0.26 dropped some that
    /// came in many small writes).
    static let directWriteThreshold = 8 << 10

    func write(_ text: String) {
        var text = text
        let written = text.withUTF8 { bytes -> Bool in
            guard bytes.count > Self.directWriteThreshold else { return false }
            fflush(stream)
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(fileDescriptorOfStream, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if count < 0 {
                    if errno == EAGAIN {
                        var ready = pollfd(fd: fileDescriptorOfStream, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, 100)
                        continue
                    }
                    if errno == EINTR { continue }
                    return true
                }
                offset += count
            }
            return true
        }
        if !written { _ = text.withCString { fputs($0, stream) } }
    }

    /// The descriptor the stream writes to (a duplicate for other descriptors).
    private var fileDescriptorOfStream: Int32 { fileno(stream) }

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
