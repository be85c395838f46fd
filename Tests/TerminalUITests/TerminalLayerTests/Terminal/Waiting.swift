import Foundation

/// Both ends of a pipe; closed on deinit unless already closed.
final class PipePair {
    private(set) var readEnd: Int32
    private(set) var writeEnd: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "pipe failed")
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    func write(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Foundation.write(writeEnd, $0.baseAddress, $0.count) }
    }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    /// Whatever can be read within `timeout` of the last byte.
    func readAvailable(timeout: Int32 = 200) -> String {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, timeout) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: result, as: UTF8.self)
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }
}
