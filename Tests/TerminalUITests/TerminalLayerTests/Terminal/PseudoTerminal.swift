import CPty
import Foundation
import NIOConcurrencyHelpers
import TestSupport

/// A pty pair opened inside the test process: the terminal under test gets
/// the child end, the test types on the controller end and reads what a
/// person would see through `TerminalScreen`.
final class PseudoTerminal: @unchecked Sendable {
    let controller: Int32
    let child: Int32
    private(set) var columns: Int
    private(set) var rows: Int
    private let initialColumns: Int
    private let initialRows: Int

    /// Bytes from the controller plus where resizes happened in that stream.
    /// `@unchecked Sendable`: shared with the reader thread under `lock`.
    private let lock = NIOLock()
    private var bytes: [UInt8] = []
    private var resizes: [(offset: Int, columns: Int, rows: Int)] = []
    private let readerDone = DispatchSemaphore(value: 0)
    private var closing = false

    struct OpenError: Error {}

    init(columns: Int = 80, rows: Int = 24) throws {
        var name = [CChar](repeating: 0, count: 256)
        let controller = cpty_open(UInt16(rows), UInt16(columns), &name, Int32(name.count))
        guard controller >= 0 else { throw OpenError() }
        let child = name.withUnsafeBufferPointer { open($0.baseAddress!, O_RDWR | O_NOCTTY | O_CLOEXEC) }
        guard child >= 0 else {
            Foundation.close(controller)
            throw OpenError()
        }
        self.controller = controller
        self.child = child
        self.columns = columns
        self.rows = rows
        initialColumns = columns
        initialRows = rows
        let thread = Thread { [self] in readLoop() }
        thread.start()
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            lock.lock()
            let stop = closing
            lock.unlock()
            if stop { break }
            // Poll so that `close()` can end the loop even while the terminal
            // under test still holds the child end open.
            var descriptor = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 50)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            lock.lock()
            bytes.append(contentsOf: buffer[0..<count])
            lock.unlock()
        }
        readerDone.signal()
    }

    /// Keys as the person types them.
    func type(_ text: String) {
        let data = Array(text.utf8)
        _ = data.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    func resize(columns: Int, rows: Int) {
        lock.lock()
        resizes.append((bytes.count, columns, rows))
        lock.unlock()
        self.columns = columns
        self.rows = rows
        _ = cpty_resize(controller, UInt16(rows), UInt16(columns))
    }

    var output: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The screen after everything written so far.
    var screen: TerminalScreen {
        lock.lock()
        let snapshot = bytes
        let resizes = self.resizes
        lock.unlock()
        var screen = TerminalScreen(columns: initialColumns, rows: initialRows)
        var offset = 0
        for resize in resizes {
            screen.feed(snapshot[offset..<resize.offset])
            screen.resize(columns: resize.columns, rows: resize.rows)
            offset = resize.offset
        }
        screen.feed(snapshot[offset...])
        return screen
    }

    /// The visible lines with trailing blank lines dropped.
    var visibleLines: [String] {
        var lines = screen.lines
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Stops the reader and closes both ends.
    func close() {
        lock.lock()
        closing = true
        lock.unlock()
        _ = readerDone.wait(timeout: .now() + 5)
        Foundation.close(child)
        Foundation.close(controller)
    }
}
