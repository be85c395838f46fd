import Platform

/// Asks the terminal what it can do, once, at start-up: synchronized output
/// (DECRQM 2026), its name (XTVERSION), cell and window size in pixels
/// (`ESC[16t`, `ESC[14t`), kitty graphics (a query action), and last the
/// primary device attributes (DA1), which every terminal answers and so
/// marks the end of the answers.
///
/// Answers are read in raw mode from the input terminal, with a deadline
/// for all of them together (250 ms unless `FLICKR_PROBE_TIMEOUT_MS` says
/// otherwise, for slow links); the terminal mode is restored before
/// returning, whatever happened. Nothing is sent when input or output is
/// not a terminal.
public enum TerminalProbe {
    public static let defaultTimeout: Duration = .milliseconds(250)
    /// Environment variable that changes the deadline (milliseconds, 1–5000).
    public static let timeoutVariable = "FLICKR_PROBE_TIMEOUT_MS"
    /// Id of the kitty query; the query action stores nothing under it.
    static let kittyQueryID: UInt32 = 0xF1_1C4E
    /// Id of the query that asks for Unicode placeholders.
    static let placeholderQueryID: UInt32 = 0xF1_1C4F

    /// Probes the terminal on `input`/`output`. Nil when either is not a
    /// terminal, or TERM is unset, empty or `dumb`. `timeout` replaces the
    /// deadline the environment gives (a test that plays the terminal on a
    /// busy machine waits as long as its answers take).
    public static func run(
        environment: [String: String],
        input: Int32 = Platform.standardInput,
        output: Int32 = Platform.standardOutput,
        timeout: Duration? = nil
    ) -> TerminalProbeResult? {
        guard isatty(input) == 1, isatty(output) == 1, Platform.usableTerm(environment) else { return nil }
        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        let asksKitty = !insideTmux || outerTerminalMayDrawKitty(environment)
        var parser = TerminalProbeParser(
            kittyQueryID: kittyQueryID, placeholderQueryID: placeholderQueryID,
            waitsForKittyAfterAttributes: insideTmux && asksKitty)

        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var raw = saved
        // No line editing and no echo, so answers arrive at once and never
        // show; signals still work (Ctrl-C during start-up still quits).
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 0
            characters[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(input, TCSANOW, &saved) }

        let query = queries(insideTmux: insideTmux, asksKitty: asksKitty)
        guard writeAll(Array(query.utf8), to: output) else { return nil }
        read(input, into: &parser, timeout: timeout ?? Self.timeout(environment))
        // Keys typed meanwhile belong to the prompt.
        PromptInput.handOver(parser.typedAhead, descriptor: input)

        var result = parser.result
        result.insideTmux = insideTmux
        if result.cellPixelSize == nil, let window = result.windowPixelSize,
           let size = TerminalSize.read(fileDescriptor: output) {
            let width = window.width / size.columns
            let height = window.height / size.rows
            if width >= 2, height >= 2 {
                result.cellPixelSize = TerminalProbeResult.PixelSize(width: width, height: height)
            }
        }
        return result
    }

    /// The bytes sent, DA1 last. Inside tmux the kitty queries go through
    /// tmux's passthrough to the terminal tmux runs in. The placeholder
    /// query goes before the plain one: terminals answer in order, so once
    /// the plain answer is in, a missing placeholder answer is final.
    public static func queries(insideTmux: Bool, asksKitty: Bool) -> String {
        var text = "\u{1B}[?2026$p" + "\u{1B}[>0q" + "\u{1B}[16t" + "\u{1B}[14t"
        if asksKitty {
            let kitty = KittyCommand.placeholderQuery(id: placeholderQueryID) + KittyCommand.query(id: kittyQueryID)
            text += insideTmux ? KittyCommand.tmuxPassthrough(kitty) : kitty
        }
        return text + "\u{1B}[c"
    }

    /// Inside tmux, the outer terminal is worth a kitty query only when the
    /// environment that leaked through from it names one that speaks the
    /// protocol: otherwise the probe would wait out its deadline for nothing.
    static func outerTerminalMayDrawKitty(_ environment: [String: String]) -> Bool {
        ["KITTY_WINDOW_ID", "GHOSTTY_RESOURCES_DIR", "WEZTERM_PANE"].contains {
            !(environment[$0] ?? "").isEmpty
        }
    }

    static func timeout(_ environment: [String: String]) -> Duration {
        guard let text = environment[timeoutVariable], let milliseconds = Int(text),
              (1...5_000).contains(milliseconds) else { return defaultTimeout }
        return .milliseconds(milliseconds)
    }

    /// Reads until the parser has every answer or the deadline passes.
    private static func read(_ input: Int32, into parser: inout TerminalProbeParser, timeout: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !parser.isComplete {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return }
            let milliseconds = Int32(clamping: left.components.seconds * 1000
                + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return }
            parser.feed(buffer[0..<count])
        }
    }

    private static func writeAll(_ bytes: [UInt8], to output: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
