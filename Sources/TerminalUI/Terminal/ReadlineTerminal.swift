@preconcurrency import CReadline
import Dispatch
import Foundation
import Platform

/// The interactive terminal: GNU readline's callback interface driven from the
/// main dispatch queue, so the prompt stays usable while the app prints
/// results and progress above it.
///
/// Readline is one global state per process, so only one instance may be
/// running at a time; its C callbacks find that instance through
/// `ReadlineBridge`. Everything happens on the main thread: input arrives via a
/// read source on the main queue, signals via `SignalWatcher` on the main
/// queue, and readline calls back only from inside `rl_callback_read_char`.
///
/// Start: `run(prompt:handlers:)`, then let the main queue run
/// (`dispatchMain()`). Stop: `stop()` before exiting, which restores the tty
/// and saves history; an `exit()` without `stop()` still restores the tty modes.
@MainActor
public final class ReadlineTerminal: Terminal {
    /// Commands Tab completes (whole lines, e.g. "/layout grid").
    public var completions: [String]
    /// Words Tab completes anywhere in a line (filters: `license:cc0`).
    public var wordCompletions: [String] = []
    /// Asked before a line is added to history; false keeps it out (for
    /// example a line that contains an API key).
    public var historyFilter: (@MainActor (String) -> Bool)?
    /// Where history is kept across launches; nil keeps no file.
    public let historyFile: URL?
    /// Most lines kept in history (memory and file).
    public let historyLimit: Int

    public let isInteractive = true

    let inputDescriptor: Int32
    let outputDescriptor: Int32
    let terminalType: String?
    var output: TerminalOutput?
    var input: UnsafeMutablePointer<FILE>?

    var handlers = TerminalHandlers(onLine: { _ in })
    var prompt = ""
    var status: String?

    enum Phase {
        case idle          // before run()
        case reading       // prompt on screen, readline owns the line
        case inLineHandler // readline handed over a line; prompt not on screen
        case stopped
    }
    var phase = Phase.idle
    /// A status line is drawn on the row just above the prompt's first row.
    var statusShown = false

    var readSource: DispatchSourceRead?
    /// What readline reads: typed-ahead keys first, late probe answers left out.
    var promptInput: PromptInput?
    var signalWatcher: SignalWatcher?
    var lastHistoryLine: String?
    /// Lines added this session, merged into the file on stop.
    var sessionHistory: [String] = []
    var historyFailureReported = false
    /// Set once the line being typed went over `InputLine.maximumBytes`: how
    /// long it got (at least). Enter then refuses it.
    var overlongLineBytes: Int?
    var pendingMatches: [String] = []
    var nextMatch = 0
    /// The live line to show under the line being typed, sanitised.
    var liveLine: String?
    /// How many rows below the cursor the live line was drawn, while it is
    /// on screen (the cursor has not moved since: it is erased first).
    var liveLineDrawnBelow: Int?
    /// The text last reported through `onEdit`.
    var reportedLine = ""

    /// - Parameters:
    ///   - historyFile: history across launches; `defaultHistoryFile(environment:)`
    ///     is the product's location. nil keeps history in memory only.
    ///   - completions: lines Tab completes.
    ///   - input, output: the terminal's descriptors (a pty's child end in tests).
    ///   - terminalType: terminfo name to use instead of `TERM` (tests).
    public init(
        historyFile: URL?,
        historyLimit: Int = 1000,
        completions: [String] = UserCommand.completions,
        historyFilter: (@MainActor (String) -> Bool)? = nil,
        input: Int32 = STDIN_FILENO,
        output: Int32 = STDOUT_FILENO,
        terminalType: String? = nil
    ) {
        self.historyFile = historyFile
        self.historyLimit = max(1, historyLimit)
        self.completions = completions
        self.historyFilter = historyFilter
        inputDescriptor = input
        outputDescriptor = output
        self.terminalType = terminalType
    }

    /// `$XDG_STATE_HOME/flickr/history`, or `~/.local/state/flickr/history`
    /// (XDG says a relative XDG_STATE_HOME is to be ignored).
    nonisolated public static func defaultHistoryFile(environment: [String: String]) -> URL? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("flickr/history")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/flickr/history")
    }

    public var size: TerminalSize {
        TerminalSize.read(fileDescriptor: outputDescriptor) ?? .fallback
    }

    // MARK: - Start and stop

    public func run(prompt: String, handlers: TerminalHandlers) {
        guard phase == .idle else { return }
        precondition(ReadlineBridge.active == nil, "only one ReadlineTerminal can run at a time")
        guard let output = TerminalOutput(fileDescriptor: outputDescriptor), let input = openInput() else {
            return
        }
        self.output = output
        self.input = input
        self.handlers = handlers
        self.prompt = prompt
        ReadlineBridge.active = self
        TerminalModeGuard.save(input: inputDescriptor, output: outputDescriptor)

        ReadlineBridge.useUTF8Locale()
        rl_instream = input
        rl_outstream = output.stream
        rl_readline_name = ReadlineBridge.programName
        if let terminalType {
            rl_terminal_name = ReadlineBridge.persistentCString(terminalType)
        }
        // The app owns signals (watched below); readline must not install
        // handlers or export LINES/COLUMNS.
        rl_catch_signals = 0
        rl_catch_sigwinch = 0
        rl_change_environment = 0
        rl_eof_found = 0  // left set by an earlier instance's end of input
        rl_attempted_completion_function = { text, start, end in
            MainActor.assumeIsolated {
                CResult(ReadlineBridge.active?.complete(text: text, start: start, end: end))
            }.value
        }
        rl_completion_entry_function = { _, _ in nil }
        promptInput = PromptInput(typedAhead: PromptInput.takeHandedOver(descriptor: inputDescriptor))
        rl_getc_function = { stream in
            MainActor.assumeIsolated {
                guard let terminal = ReadlineBridge.active, let input = terminal.promptInput else {
                    return rl_getc(stream)
                }
                return input.next(from: terminal.inputDescriptor)
            }
        }
        rl_completion_display_matches_hook = { matches, count, _ in
            MainActor.assumeIsolated { ReadlineBridge.active?.displayMatches(matches, count: Int(count)) }
        }
        ReadlineBridge.installHooks()

        loadHistory()
        if let status {
            output.write(statusLine(status) + "\r\n")
            statusShown = true
        }
        phase = .reading
        if let terminalType { rl_reset_terminal(terminalType) }
        rl_reset_screen_size()
        rl_callback_handler_install(prompt) { line in
            MainActor.assumeIsolated { ReadlineBridge.active?.handleLine(line) }
        }
        bindAcceptKeys()
        output.flush()
        watchInput()
        watchSignals()
        readQueuedInput()
    }

    public func stop() {
        switch phase {
        case .idle:
            ReadlineBridge.release(self)
            phase = .stopped
            return
        case .stopped:
            return
        case .reading:
            hidePrompt()
            rl_callback_handler_remove()
        case .inLineHandler:
            // The prompt is not on screen; removing the handler keeps readline
            // from showing it again when the line handler returns.
            rl_callback_handler_remove()
        }
        phase = .stopped
        readSource?.cancel()
        readSource = nil
        signalWatcher?.cancel()
        signalWatcher = nil
        ReadlineBridge.removeHooks()
        rl_getc_function = rl_getc
        promptInput = nil
        saveHistory()
        rl_instream = flickr_stdin_stream()
        rl_outstream = flickr_stdout_stream()
        output?.flush()  // kept: `print` after stop still reaches the terminal
        if let input, inputDescriptor != STDIN_FILENO { fclose(input) }
        input = nil
        TerminalModeGuard.restore()
        ReadlineBridge.release(self)
    }

    // MARK: - Output

    /// `text` with every line ending as CR LF (the terminal is in raw mode
    /// while readline reads) and a final line ending; one pass over the
    /// bytes, since a page of thumbnails is hundreds of kilobytes.
    nonisolated static func terminalLines(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + text.utf8.count / 32 + 2)
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x0A, previous != 0x0D { bytes.append(0x0D) }
            bytes.append(byte)
            previous = byte
        }
        if !(bytes.count >= 2 && bytes[bytes.count - 2] == 0x0D && previous == 0x0A) { bytes += [0x0D, 0x0A] }
        return String(decoding: bytes, as: UTF8.self)
    }

    public func print(_ text: String) {
        guard let output = output ?? TerminalOutput(fileDescriptor: outputDescriptor) else { return }
        if self.output == nil { self.output = output }
        let lines = Self.terminalLines(text)
        if phase == .reading {
            hidePrompt()
            output.write(lines)
            showPrompt()
        } else {
            output.write(lines)
        }
        output.flush()
    }

    public func setStatus(_ status: String?) {
        let cleaned = status.map { TextSanitizer.sanitize($0) }.flatMap { $0.isEmpty ? nil : $0 }
        guard cleaned != self.status || (cleaned != nil) != statusShown else { return }
        self.status = cleaned
        guard phase == .reading else { return }
        hidePrompt()
        showPrompt()
        output?.flush()
    }

    public func setPrompt(_ prompt: String) {
        self.prompt = prompt
        switch phase {
        case .reading:
            eraseLiveLine()
            rl_clear_visible_line()
            rl_set_prompt(prompt)
            rl_forced_update_display()
            drawLiveLine()
            output?.flush()
        case .inLineHandler:
            rl_set_prompt(prompt)
        case .idle, .stopped:
            break
        }
    }

    /// Clears readline's rows (prompt and typed text, however wrapped) and the
    /// status row, leaving the cursor at column 0 of the status row (or of the
    /// prompt's first row when there is no status).
    func hidePrompt() {
        eraseLiveLine()
        rl_clear_visible_line()
        if statusShown {
            output?.write("\u{1B}[A\r\u{1B}[J")
            statusShown = false
        }
    }

    /// Draws the status (if any) and then readline's prompt and line, from the
    /// cursor's row down.
    func showPrompt() {
        if let status {
            output?.write(statusLine(status) + "\r\n")
            statusShown = true
        }
        rl_forced_update_display()
        drawLiveLine()
    }

    /// One row, one column short of the width so the terminal never wraps it.
    func statusLine(_ status: String) -> String {
        TextSanitizer.fit(status, columns: max(1, size.columns - 1))
    }
}
