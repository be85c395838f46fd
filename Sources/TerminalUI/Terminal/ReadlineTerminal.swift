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
    /// Asked before a line is added to history; false keeps it out (for
    /// example a line that contains an API key).
    public var historyFilter: (@MainActor (String) -> Bool)?
    /// Where history is kept across launches; nil keeps no file.
    public let historyFile: URL?
    /// Most lines kept in history (memory and file).
    public let historyLimit: Int

    public let isInteractive = true

    private let inputDescriptor: Int32
    private let outputDescriptor: Int32
    private let terminalType: String?
    private var output: TerminalOutput?
    private var input: UnsafeMutablePointer<FILE>?

    private var handlers = TerminalHandlers(onLine: { _ in })
    private var prompt = ""
    private var status: String?

    private enum Phase {
        case idle          // before run()
        case reading       // prompt on screen, readline owns the line
        case inLineHandler // readline handed over a line; prompt not on screen
        case stopped
    }
    private var phase = Phase.idle
    /// A status line is drawn on the row just above the prompt's first row.
    private var statusShown = false

    private var readSource: DispatchSourceRead?
    private var signalWatcher: SignalWatcher?
    private var lastHistoryLine: String?
    private var pendingMatches: [String] = []
    private var nextMatch = 0

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
        rl_completion_display_matches_hook = { matches, count, _ in
            MainActor.assumeIsolated { ReadlineBridge.active?.displayMatches(matches, count: Int(count)) }
        }

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

    public func print(_ text: String) {
        guard let output = output ?? TerminalOutput(fileDescriptor: outputDescriptor) else { return }
        if self.output == nil { self.output = output }
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        if !lines.hasSuffix("\r\n") { lines += "\r\n" }
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
            rl_clear_visible_line()
            rl_set_prompt(prompt)
            rl_forced_update_display()
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
    private func hidePrompt() {
        rl_clear_visible_line()
        if statusShown {
            output?.write("\u{1B}[A\r\u{1B}[J")
            statusShown = false
        }
    }

    /// Draws the status (if any) and then readline's prompt and line, from the
    /// cursor's row down.
    private func showPrompt() {
        if let status {
            output?.write(statusLine(status) + "\r\n")
            statusShown = true
        }
        rl_forced_update_display()
    }

    /// One row, one column short of the width so the terminal never wraps it.
    private func statusLine(_ status: String) -> String {
        TextSanitizer.fit(status, columns: max(1, size.columns - 1))
    }

    // MARK: - Input

    private func openInput() -> UnsafeMutablePointer<FILE>? {
        if inputDescriptor == STDIN_FILENO { return stdin }
        let copy = dup(inputDescriptor)
        guard copy >= 0 else { return nil }
        guard let stream = fdopen(copy, "r") else {
            close(copy)
            return nil
        }
        return stream
    }

    private func watchInput() {
        let source = DispatchSource.makeReadSource(fileDescriptor: inputDescriptor, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.phase == .reading else { return }
                rl_callback_read_char()
            }
        }
        readSource = source
        source.resume()
    }

    /// Enter first takes the status line off the screen, so that accepted
    /// lines do not leave stale status rows in the scrollback.
    private func bindAcceptKeys() {
        for mapName in ["emacs", "vi-insert", "vi-command"] {
            guard let keymap = rl_get_keymap_by_name(mapName) else { continue }
            rl_bind_key_in_map(0x0D, readlineAcceptLine, keymap)
            rl_bind_key_in_map(0x0A, readlineAcceptLine, keymap)
        }
    }

    fileprivate func prepareToAccept() {
        guard phase == .reading, statusShown else { return }
        hidePrompt()
        rl_forced_update_display()
    }

    fileprivate func handleLine(_ pointer: UnsafeMutablePointer<CChar>?) {
        guard phase == .reading else {
            free(pointer)
            return
        }
        guard let pointer else {
            handleEndOfInput()
            return
        }
        let line = String(cString: pointer)
        free(pointer)
        recordHistory(line)
        phase = .inLineHandler
        handlers.onLine(line)
        guard phase == .inLineHandler else { return }  // stop() was called
        phase = .reading
        // Readline shows the prompt once this returns; the status goes above it.
        if let status, let output {
            output.write(statusLine(status) + "\r\n")
            statusShown = true
            output.flush()
        }
    }

    /// Ctrl-D on an empty line, or the terminal went away. Input stops here;
    /// the app is expected to call `stop()` from `onEOF`.
    private func handleEndOfInput() {
        // Leaving raw mode with bracketed paste on, readline already moved to
        // the next row; otherwise the cursor is still after the prompt.
        let movedDown = rl_variable_value("enable-bracketed-paste").map { String(cString: $0) == "on" } ?? false
        rl_callback_handler_remove()
        readSource?.cancel()
        readSource = nil
        if let output {
            if movedDown { output.write("\u{1B}[A") }
            output.write("\r\u{1B}[K")
            if statusShown {
                output.write("\u{1B}[A\r\u{1B}[K")
                statusShown = false
            }
            output.write(visiblePrompt + "\r\n")
            output.flush()
        }
        phase = .inLineHandler
        handlers.onEOF()
        if phase == .inLineHandler { phase = .reading }
    }

    /// The prompt without readline's invisible-text markers.
    private var visiblePrompt: String {
        prompt.filter { $0 != "\u{01}" && $0 != "\u{02}" }
    }

    // MARK: - Signals

    private func watchSignals() {
        // A plain `kill`, a closed window or Ctrl-\ must not leave the tty in
        // raw mode nor lose history; they are taken only when nobody else in
        // the process has claimed them.
        let terminating = [SIGTERM, SIGHUP, SIGQUIT].filter(SignalWatcher.hasDefaultDisposition)
        // Ctrl-Z: only under a job-control shell (otherwise SIGTSTP is ignored).
        let suspending = [SIGTSTP].filter(SignalWatcher.hasDefaultDisposition)
        signalWatcher = SignalWatcher(
            signals: [SIGINT, SIGWINCH] + terminating + suspending, onMainActor: { [weak self] number in
            guard let self, self.phase == .reading || self.phase == .inLineHandler else { return }
            switch number {
            case SIGINT:
                guard self.phase == .reading else { return }
                self.handleInterrupt()
            case SIGWINCH:
                guard self.phase == .reading else { return }
                self.handleResize()
            case SIGTSTP:
                guard self.phase == .reading else { return }
                self.handleSuspend()
            default:
                // The app saves what it must (it stops this terminal, which
                // saves history and restores the tty); then die as the signal would.
                self.handlers.onTerminate(number)
                self.stop()
                Platform.dieBy(signal: number)
            }
        })
    }

    /// Ctrl-C: drop whatever is typed (and any search or argument in
    /// progress), redraw an empty prompt in place, then tell the app.
    private func handleInterrupt() {
        rl_free_line_state()
        rl_callback_sigcleanup()
        rl_clear_visible_line()
        rl_replace_line("", 1)
        rl_point = 0
        rl_mark = 0
        rl_forced_update_display()
        output?.flush()
        handlers.onInterrupt()
    }

    /// Ctrl-Z: give the shell a sane tty, stop, and on `fg` take raw mode
    /// back and draw the prompt afresh (the screen may hold anything by then).
    private func handleSuspend() {
        let sizeBefore = size
        hidePrompt()
        output?.flush()
        rl_deprep_terminal()
        signalWatcher?.suspendProcess()
        rl_prep_terminal(0)
        rl_reset_screen_size()
        showPrompt()
        output?.flush()
        if size != sizeBefore { handlers.onResize(size) }
    }

    private func handleResize() {
        rl_resize_terminal()
        if statusShown {
            hidePrompt()
            showPrompt()
        }
        output?.flush()
        handlers.onResize(size)
    }

    // MARK: - History

    private func loadHistory() {
        clear_history()
        stifle_history(Int32(clamping: historyLimit))
        lastHistoryLine = nil
        guard let historyFile else { return }
        let directory = historyFile.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // ENOENT on first launch is normal; an unreadable file only costs recall.
        _ = read_history(historyFile.path)
        if history_length > 0, let entry = history_get(history_base + history_length - 1), let text = entry.pointee.line {
            lastHistoryLine = String(cString: text)
        }
    }

    /// Adds a typed line (trailing blanks, e.g. left by completion, removed)
    /// unless it is blank, repeats the previous entry, or the filter refuses it.
    private func recordHistory(_ typed: String) {
        var line = Substring(typed)
        while line.last?.isWhitespace == true { line.removeLast() }
        let entry = String(line)
        guard !entry.allSatisfy(\.isWhitespace), entry != lastHistoryLine else { return }
        if let historyFilter, !historyFilter(typed) { return }
        add_history(entry)
        lastHistoryLine = entry
    }

    private func saveHistory() {
        guard let historyFile else { return }
        let path = historyFile.path
        if write_history(path) == 0 {
            _ = history_truncate_file(path, Int32(clamping: historyLimit))
        }
    }

    // MARK: - Completion

    /// Completes whole command lines: the text before the cursor must be a
    /// prefix of a completion; readline gets the part from the current word on.
    fileprivate func complete(
        text: UnsafePointer<CChar>?, start: Int32, end: Int32
    ) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        rl_attempted_completion_over = 1
        guard let buffer = rl_line_buffer, start >= 0, end >= start else { return nil }
        let typed = Array(UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                              count: Int(end)))
        pendingMatches = completions.compactMap { candidate in
            let bytes = Array(candidate.utf8)
            guard bytes.count >= typed.count, bytes.starts(with: typed) else { return nil }
            return String(decoding: bytes[Int(start)...], as: UTF8.self)
        }
        nextMatch = 0
        guard let text, !pendingMatches.isEmpty else { return nil }
        return rl_completion_matches(text) { _, state in
            MainActor.assumeIsolated {
                CResult(ReadlineBridge.active?.nextCompletion(restart: state == 0))
            }.value
        }
    }

    /// Lists several matches on one line above the status and prompt, so the
    /// status stays just above the prompt (readline's own listing would push
    /// the prompt below it).
    fileprivate func displayMatches(_ matches: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: Int) {
        guard let matches, count > 0, phase == .reading, let output else { return }
        let names = (1...count).compactMap { index in matches[index].map { TextSanitizer.sanitize(String(cString: $0)) } }
        hidePrompt()
        output.write(names.joined(separator: "  ") + "\r\n")
        showPrompt()
        output.flush()
    }

    fileprivate func nextCompletion(restart: Bool) -> UnsafeMutablePointer<CChar>? {
        if restart { nextMatch = 0 }
        guard nextMatch < pendingMatches.count else { return nil }
        defer { nextMatch += 1 }
        return strdup(pendingMatches[nextMatch])
    }
}

/// Readline's accept-line, preceded by taking the status line off the screen.
private func readlineAcceptLine(_ count: Int32, _ key: Int32) -> Int32 {
    MainActor.assumeIsolated { ReadlineBridge.active?.prepareToAccept() }
    return rl_newline(count, key)
}

/// Carries a C pointer out of `MainActor.assumeIsolated` back to readline on
/// the same (main) thread; it never crosses threads, hence unchecked.
private struct CResult<Value>: @unchecked Sendable {
    let value: Value?
    init(_ value: Value?) { self.value = value }
}

/// How readline's context-free C callbacks reach the running terminal.
@MainActor
enum ReadlineBridge {
    static var active: ReadlineTerminal?

    /// Readline keeps the pointer, so it must live for the whole process.
    static let programName: UnsafePointer<CChar>? = UnsafePointer(strdup("flickr"))

    static func release(_ terminal: ReadlineTerminal) {
        if active === terminal { active = nil }
    }

    /// A copy readline may keep for the rest of the process.
    static func persistentCString(_ text: String) -> UnsafePointer<CChar>? {
        UnsafePointer(strdup(text))
    }

    /// Readline decides at its first initialisation whether input is UTF-8;
    /// in the "C" locale it would echo "é" as octal escapes. Use the
    /// environment's locale if it is UTF-8, else C.UTF-8.
    static func useUTF8Locale() {
        if let name = setlocale(LC_CTYPE, ""), isUTF8(String(cString: name)) { return }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }

    private static func isUTF8(_ locale: String) -> Bool {
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }
}

/// Puts the tty back at process exit if the app exits without calling
/// `stop()`: readline leaves it in non-canonical, no-echo mode with bracketed
/// paste switched on.
enum TerminalModeGuard {
    private struct Saved {
        var input: Int32
        var output: Int32
        var modes: termios
    }

    /// Written on the main thread around readline's use of the tty; read by
    /// the exit handler, which runs on the exiting thread once the app is done.
    nonisolated(unsafe) private static var saved: Saved?
    nonisolated(unsafe) private static var registered = false

    static func save(input: Int32, output: Int32) {
        var modes = termios()
        guard tcgetattr(input, &modes) == 0 else { return }
        saved = Saved(input: input, output: output, modes: modes)
        if !registered {
            registered = true
            atexit { TerminalModeGuard.restore(leavingBracketedPaste: true) }
        }
    }

    /// Re-applies the saved modes (once). At exit it also switches bracketed
    /// paste off, which `rl_callback_handler_remove` does on a normal stop.
    static func restore(leavingBracketedPaste: Bool = false) {
        guard var state = saved else { return }
        saved = nil
        if leavingBracketedPaste {
            let sequence: [UInt8] = Array("\u{1B}[?2004l".utf8)
            _ = sequence.withUnsafeBytes { write(state.output, $0.baseAddress, $0.count) }
        }
        _ = tcsetattr(state.input, TCSANOW, &state.modes)
    }
}
