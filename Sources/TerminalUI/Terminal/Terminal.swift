/// The size of the terminal window in character cells.
public struct TerminalSize: Sendable, Equatable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// Used when the size cannot be read (not a tty, or the ioctl fails).
    public static let fallback = TerminalSize(columns: 80, rows: 24)

    public var description: String { "\(columns)x\(rows)" }
}

/// What the app wants to hear from the terminal. All of them run on the main
/// actor, one at a time, in the order the events happened.
public struct TerminalHandlers {
    /// A line the person entered (without the newline). Empty means "Enter".
    public var onLine: @MainActor (String) -> Void
    /// End of input: Ctrl-D on an empty line, or stdin closed.
    public var onEOF: @MainActor () -> Void
    /// Ctrl-C (SIGINT). The typed line has already been cleared.
    public var onInterrupt: @MainActor () -> Void
    /// The window changed size (SIGWINCH); carries the new size.
    public var onResize: @MainActor (TerminalSize) -> Void
    /// SIGTERM, SIGHUP or SIGQUIT: save what must survive, quickly. The
    /// terminal then stops itself and the process ends by that signal.
    public var onTerminate: @MainActor (Int32) -> Void
    /// The line being typed changed (keys, paste, history recall, Ctrl-U);
    /// carries the whole text. Only interactive terminals call it, and not
    /// for the line accepted by Enter (that comes to `onLine`).
    public var onEdit: @MainActor (String) -> Void

    public init(
        onLine: @escaping @MainActor (String) -> Void,
        onEOF: @escaping @MainActor () -> Void = {},
        onInterrupt: @escaping @MainActor () -> Void = {},
        onResize: @escaping @MainActor (TerminalSize) -> Void = { _ in },
        onTerminate: @escaping @MainActor (Int32) -> Void = { _ in },
        onEdit: @escaping @MainActor (String) -> Void = { _ in }
    ) {
        self.onEdit = onEdit
        self.onLine = onLine
        self.onEOF = onEOF
        self.onInterrupt = onInterrupt
        self.onResize = onResize
        self.onTerminate = onTerminate
    }
}

/// The app's only way to talk to the person at the keyboard.
///
/// Threading contract: every method is called on the main actor, and every
/// handler is invoked there. Implementations drive their input from the main
/// dispatch queue, so the app must run it (`dispatchMain()` or an async main).
/// The view stays testable without a pty through an in-memory conformance.
@MainActor
public protocol Terminal: AnyObject {
    /// Current window size (re-read on each access where the OS allows).
    var size: TerminalSize { get }
    /// True for the readline terminal on a tty; false for plain line I/O.
    var isInteractive: Bool { get }
    /// Installs input handling and shows the prompt; returns at once.
    /// Call once; handlers run until `stop()`.
    func run(prompt: String, handlers: TerminalHandlers)
    /// Writes `text` (it may hold several lines; a final newline is added if
    /// missing) above the prompt, leaving a half-typed line intact.
    func print(_ text: String)
    /// Shows one status line just above the prompt, replacing the previous
    /// one in place; nil removes it. The text is sanitised and cut to the width.
    func setStatus(_ status: String?)
    /// Changes the prompt shown from now on.
    func setPrompt(_ prompt: String)
    /// Shows one line just below the line being typed (live results),
    /// replacing the previous one; nil removes it. The text is sanitised and
    /// cut to the width. Terminals without a live prompt ignore it.
    func setLiveLine(_ text: String?)
    /// Stops delivering lines until `resumeInput()`; lines that arrive
    /// meanwhile are kept, in order. Plain input uses this so a script's
    /// next command waits for the previous one; interactive input ignores it
    /// (the prompt must stay usable, e.g. for /cancel).
    func pauseInput()
    /// Delivers lines again, starting with any kept while paused.
    func resumeInput()
    /// Restores the terminal (modes, signal dispositions), removes the status
    /// line, and saves history. Safe to call more than once.
    func stop()
}

// MARK: - Default implementations

extension Terminal {
    public func pauseInput() {}
    public func resumeInput() {}
}

/// The limit on one line of input, shared by both terminals.
public enum InputLine {
    /// Longest line accepted, in UTF-8 bytes. A longer one (a stray paste)
    /// is refused with a message: never searched, never kept in history.
    public static let maximumBytes = 4096

    static func tooLongMessage(bytes: Int) -> String {
        "That line is too long (\(bytes) bytes; at most \(maximumBytes)): nothing was sent or saved."
    }

}
