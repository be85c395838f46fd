import Dispatch
import Foundation
import Platform

/// Line-by-line terminal for when stdin is not a tty (a pipe, a file,
/// /dev/null) or TERM is dumb: no readline, no prompt, no escape sequences.
///
/// A background thread reads lines with blocking reads (a dispatch read
/// source is unreliable on /dev/null and closed pipes) and hands each to the
/// main queue in order. `print` strips anything that could drive a terminal.
/// The status line is transient, so it is not printed at all.
@MainActor
public final class PlainTerminal: Terminal {
    public let isInteractive = false

    private let inputDescriptor: Int32
    private let outputDescriptor: Int32
    private let output: TerminalOutput?
    private var handlers = TerminalHandlers(onLine: { _ in })
    private var running = false
    private var started = false
    private var paused = false
    private var delivering = false
    private var pending: [PlainInputEvent] = []

    /// - Parameters:
    ///   - input: read until EOF (stdin by default).
    ///   - output: where `print` writes (stdout by default).
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        inputDescriptor = input
        outputDescriptor = output
        self.output = TerminalOutput(fileDescriptor: output)
    }

    /// The window's size if stdout is still a terminal (stdin piped into an
    /// interactive shell's window), else `COLUMNS`/`LINES`, else 80x24.
    public var size: TerminalSize {
        if let size = TerminalSize.read(fileDescriptor: outputDescriptor) { return size }
        let environment = ProcessInfo.processInfo.environment
        let columns = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        let rows = environment["LINES"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        return TerminalSize(columns: columns ?? TerminalSize.fallback.columns, rows: rows ?? TerminalSize.fallback.rows)
    }

    public func run(prompt: String, handlers: TerminalHandlers) {
        guard !started else { return }
        started = true
        running = true
        self.handlers = handlers
        let descriptor = inputDescriptor
        let deliver: @Sendable (PlainInputEvent) -> Void = { [weak self] event in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.receive(event) }
            }
        }
        let thread = Thread { PlainLineReader.read(fileDescriptor: descriptor, deliver: deliver) }
        thread.name = "flickr.plain-input"
        thread.start()
    }

    public func print(_ text: String) {
        guard let output else { return }
        var plain = TextSanitizer.stripControls(text)
        if !plain.hasSuffix("\n") { plain += "\n" }
        output.write(plain)
        output.flush()
    }

    public func setStatus(_ status: String?) {}

    public func setPrompt(_ prompt: String) {}

    /// Plain input is never live: scripts see no live line.
    public func setLiveLine(_ text: String?) {}

    public func pauseInput() {
        paused = true
    }

    public func resumeInput() {
        paused = false
        deliverPending()
    }

    /// Nothing is delivered after this, and the handlers are let go (they
    /// often hold whoever holds this terminal).
    public func stop() {
        running = false
        pending = []
        handlers = TerminalHandlers(onLine: { _ in })
        output?.flush()
    }

    private func receive(_ event: PlainInputEvent) {
        guard running else { return }
        pending.append(event)
        deliverPending()
    }

    /// Hands over kept lines in order until paused or stopped. A handler that
    /// resumes input re-enters here; the outer loop keeps going instead.
    private func deliverPending() {
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        while running, !paused, !pending.isEmpty {
            switch pending.removeFirst() {
            case .line(let line):
                handlers.onLine(line)
            case .tooLong(let bytes):
                print(InputLine.tooLongMessage(bytes: bytes))
            case .endOfInput:
                handlers.onEOF()
            }
        }
    }
}

enum PlainInputEvent: Sendable, Equatable {
    case line(String)
    /// A line over `InputLine.maximumBytes`; only its length is kept.
    case tooLong(bytes: Int)
    case endOfInput
}

/// The blocking read loop of `PlainTerminal`'s input thread.
enum PlainLineReader {
    /// Reads until EOF or error, delivering each line (LF or CRLF removed,
    /// invalid UTF-8 repaired), a final unterminated line, then end of input.
    /// A line over the limit is delivered as its length only, so a huge one
    /// never sits in memory.
    static func read(fileDescriptor: Int32, deliver: @Sendable (PlainInputEvent) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var line = LineAccumulator()
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            for index in 0..<count where buffer[index] == 0x0A {
                line.append(buffer[start..<index])
                deliver(line.finish())
                start = index + 1
            }
            line.append(buffer[start..<count])
        }
        if !line.isEmpty { deliver(line.finish()) }
        deliver(.endOfInput)
    }

    /// One line's bytes, kept up to just past the limit and counted beyond.
    private struct LineAccumulator {
        private var bytes: [UInt8] = []
        private var length = 0
        private var last: UInt8?

        var isEmpty: Bool { length == 0 }

        mutating func append(_ chunk: ArraySlice<UInt8>) {
            length += chunk.count
            if let byte = chunk.last { last = byte }
            let room = InputLine.maximumBytes + 2 - bytes.count  // + CR, + one over
            if room > 0 { bytes.append(contentsOf: chunk.prefix(room)) }
        }

        mutating func finish() -> PlainInputEvent {
            defer {
                bytes.removeAll(keepingCapacity: true)
                length = 0
                last = nil
            }
            let trimmed = last == 0x0D ? length - 1 : length
            guard trimmed <= InputLine.maximumBytes else { return .tooLong(bytes: trimmed) }
            return .line(PlainLineReader.decode(bytes[..<trimmed]))
        }
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// Chooses the terminal for this process.
public enum Terminals {
    /// Readline on a real terminal, plain lines otherwise.
    @MainActor
    public static func standard(
        capabilities: TerminalCapabilities,
        historyFile: URL?,
        completions: [String] = UserCommand.completions,
        historyFilter: (@MainActor (String) -> Bool)? = nil
    ) -> any Terminal {
        if capabilities.isTTY {
            return ReadlineTerminal(historyFile: historyFile, completions: completions, historyFilter: historyFilter)
        }
        return PlainTerminal()
    }
}
