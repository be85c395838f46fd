import TerminalUI

/// An in-memory `Terminal` for tests of code that talks to a terminal: it
/// records what was printed and shown, and lets the test play the person at
/// the keyboard. Behaves like `PlainTerminal` plus a visible status, without
/// any file descriptors, threads or signals.
@MainActor
public final class RecordingTerminal: Terminal {
    /// Everything passed to `print`, one entry per call, as given.
    public private(set) var printed: [String] = []
    /// The status line currently shown (nil when none).
    public private(set) var status: String?
    /// Every status set, in order, including removals (nil).
    public private(set) var statusHistory: [String?] = []
    public private(set) var prompt = ""
    /// The live line currently shown under the prompt (nil when none).
    public private(set) var liveLine: String?
    public private(set) var isRunning = false
    public private(set) var isPaused = false
    public private(set) var stopCount = 0
    public var size: TerminalSize
    public let isInteractive: Bool

    private var handlers = TerminalHandlers(onLine: { _ in })
    private var pending: [String] = []

    public init(size: TerminalSize = .fallback, isInteractive: Bool = true) {
        self.size = size
        self.isInteractive = isInteractive
    }

    /// All printed text joined, each call ending in a newline.
    public var output: String {
        printed.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined()
    }

    public func run(prompt: String, handlers: TerminalHandlers) {
        self.prompt = prompt
        self.handlers = handlers
        isRunning = true
    }

    public func print(_ text: String) {
        printed.append(text)
    }

    public func setStatus(_ status: String?) {
        let cleaned = status.map { TextSanitizer.sanitize($0) }.flatMap { $0.isEmpty ? nil : $0 }
        self.status = cleaned
        statusHistory.append(cleaned)
    }

    public func setPrompt(_ prompt: String) {
        self.prompt = prompt
    }

    public func setLiveLine(_ text: String?) {
        liveLine = text.map { TextSanitizer.sanitize($0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Plays an edit of the line being typed (as readline reports it).
    public func edit(_ text: String) {
        guard isRunning else { return }
        handlers.onEdit(text)
    }

    public func pauseInput() {
        isPaused = true
    }

    public func resumeInput() {
        isPaused = false
        while !isPaused, isRunning, !pending.isEmpty {
            handlers.onLine(pending.removeFirst())
        }
    }

    public func stop() {
        isRunning = false
        stopCount += 1
    }

    // MARK: - Playing the person at the keyboard

    /// Types `line` and Enter; kept until resumed if input is paused.
    public func type(_ line: String) {
        guard isRunning else { return }
        if isPaused {
            pending.append(line)
        } else {
            handlers.onLine(line)
        }
    }

    /// Ctrl-D on an empty line.
    public func sendEndOfInput() {
        guard isRunning else { return }
        handlers.onEOF()
    }

    /// Ctrl-C.
    public func sendInterrupt() {
        guard isRunning else { return }
        handlers.onInterrupt()
    }

    /// The window changes size.
    public func resize(to size: TerminalSize) {
        self.size = size
        guard isRunning else { return }
        handlers.onResize(size)
    }
}
