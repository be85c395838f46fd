import CChafa
import Platform

/// What the terminal can show, resolved once at start-up from `--images`,
/// the environment and whether stdout is a terminal.
///
/// A value type so it can be handed to background render tasks and compared
/// (a change of mode or colour depth invalidates rendered cells).
public struct TerminalGraphics: Sendable, Equatable {
    /// Size of one terminal cell in pixels.
    public struct CellPixelSize: Sendable, Equatable, Hashable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = max(1, width)
            self.height = max(1, height)
        }

        /// A common cell size (10×20 px) used when the terminal does not report one.
        public static let typical = CellPixelSize(width: 10, height: 20)
    }

    /// The resolved mode; never `.auto`.
    public var mode: ImageMode
    /// Colours symbol output may use. `.monochrome` means no colour escape codes.
    public var colors: ColorDepth
    /// Cell size in pixels: decides how many pixels a pixel-mode image gets and
    /// the cell aspect used to keep photos undistorted.
    public var cellPixelSize: CellPixelSize
    /// The terminal-describing variables chafa's database reads (TERM,
    /// COLORTERM, TERM_PROGRAM, …), kept so the renderer can rebuild the same
    /// terminal description. Nothing else from the environment is kept.
    public var terminalEnvironment: [String: String]
    /// Whether page draws are wrapped as one update (the terminal said it
    /// knows mode 2026).
    public var synchronizedOutput: SynchronizedOutput
    /// Running inside tmux: kitty images then go through tmux's passthrough
    /// and show through Unicode placeholders.
    public var insideTmux: Bool
    /// What the person should know about this choice, said once at start-up
    /// (kitty forced inside a tmux that does not pass its images on).
    public var notice: String?
    /// Titles, owners and URLs are OSC 8 hyperlinks (the terminal follows
    /// them and `--no-links` was not given).
    public var hyperlinks = false
    /// The terminal repeats a character on REP (`ESC [ n b`), so symbol
    /// rows may write a run of one character once (`CharacterRepeat`).
    public var repeatsCharacters = false

    public init(
        mode: ImageMode,
        colors: ColorDepth,
        cellPixelSize: CellPixelSize = .typical,
        terminalEnvironment: [String: String] = [:],
        synchronizedOutput: SynchronizedOutput = .disabled,
        insideTmux: Bool = false,
        notice: String? = nil,
        repeatsCharacters: Bool = false
    ) {
        self.mode = mode == .auto ? .symbols : mode
        self.colors = colors
        self.cellPixelSize = cellPixelSize
        self.terminalEnvironment = terminalEnvironment
        self.synchronizedOutput = synchronizedOutput
        self.insideTmux = insideTmux
        self.notice = notice
        self.repeatsCharacters = repeatsCharacters
    }

    /// No images, no escape codes: not a terminal, `TERM=dumb`, or `--images none`.
    public static let none = TerminalGraphics(mode: .none, colors: .monochrome)

    /// Whether thumbnails are drawn at all.
    public var showsImages: Bool { mode != .none }

    /// Whether output may contain SGR colour or attribute codes. False for
    /// `none` and for monochrome symbols, so `NO_COLOR` output has no escapes.
    public var usesEscapeCodes: Bool {
        switch mode {
        case .none, .auto: false
        case .symbols: colors != .monochrome
        case .sixels, .kitty, .iterm: true
        }
    }

    /// Kitty images shown as Unicode placeholder text (inside tmux, which
    /// keeps and redraws text but not images) rather than by placements.
    public var usesKittyPlaceholders: Bool { mode == .kitty && insideTmux }

    /// Height of a terminal cell divided by its width (about 2 on most fonts).
    public var cellAspectRatio: Double {
        Double(cellPixelSize.height) / Double(cellPixelSize.width)
    }

    /// The environment variables chafa 1.12's terminal database consults.
    static let terminalVariables: Set<String> = [
        "TERM", "COLORTERM", "TERM_PROGRAM", "TERMINAL_NAME", "LC_TERMINAL",
        "VTE_VERSION", "KONSOLE_VERSION", "TMUX", "CTX_BACKEND",
    ]

    /// Decides how to draw images.
    ///
    /// - Not a terminal, `TERM` unset/empty or `dumb`, or `requested == .none`:
    ///   `.none` (plain text, whatever was requested).
    /// - Colour depth comes from chafa's terminal database: the best of
    ///   direct / 256 / 16 / 8 colour sequences the terminal has.
    /// - `NO_COLOR` set (non-empty, per no-color.org): symbols are drawn in
    ///   monochrome, with no colour escape codes at all. `auto` then picks
    ///   monochrome symbols and never a graphics protocol. An explicit
    ///   `--images sixels|kitty|iterm` still wins, as no-color.org says
    ///   command-line arguments should.
    /// - `auto`: kitty, then iTerm2, then sixels if the terminal has that
    ///   protocol, otherwise symbols. When `probe` holds the terminal's own
    ///   answers, they decide kitty and sixels (inside tmux: what tmux and
    ///   the terminal behind it said); otherwise chafa's database does.
    ///   Inside tmux kitty needs Unicode placeholders, so `auto` picks it
    ///   only when the terminal answered the placeholder query.
    /// - An explicit mode is honoured even if nothing says the terminal has
    ///   it, except sixels inside tmux without sixel support (tmux would
    ///   swallow them): symbols instead.
    /// - The probe also decides the cell size (before `cellPixelSize`) and
    ///   synchronized output.
    public static func detect(
        requested: ImageMode,
        environment: [String: String],
        isTTY: Bool,
        cellPixelSize: CellPixelSize? = nil,
        probe: TerminalProbeResult? = nil,
        links: Bool = true
    ) -> TerminalGraphics {
        var graphics = detectImages(
            requested: requested, environment: environment, isTTY: isTTY, cellPixelSize: cellPixelSize, probe: probe)
        let term = environment["TERM"] ?? ""
        graphics.hyperlinks = links && isTTY && !term.isEmpty && term != "dumb"
            && Hyperlink.isSupported(environment: environment)
        return graphics
    }

    private static func detectImages(
        requested: ImageMode,
        environment: [String: String],
        isTTY: Bool,
        cellPixelSize: CellPixelSize?,
        probe: TerminalProbeResult?
    ) -> TerminalGraphics {
        let term = environment["TERM"] ?? ""
        guard isTTY, !term.isEmpty, term != "dumb", requested != .none else { return .none }

        let kept = environment.filter { terminalVariables.contains($0.key) }
        let capabilities = ChafaTerminal(environment: kept).capabilities
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let colors: ColorDepth = noColor ? .monochrome : capabilities.bestColors

        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        let answers = probe.flatMap { $0.answered ? $0 : nil }
        let kitty = insideTmux
            ? answers?.kittyPlaceholders ?? false
            : answers?.kittyGraphics ?? capabilities.kitty
        let sixels = answers?.sixels ?? capabilities.sixels
        let mode: ImageMode
        switch requested {
        case .auto:
            if noColor {
                mode = .symbols
            } else if kitty {
                mode = .kitty
            } else if capabilities.iterm {
                mode = .iterm
            } else if sixels {
                mode = .sixels
            } else {
                mode = .symbols
            }
        case .sixels where insideTmux && !(answers?.sixels ?? false):
            mode = .symbols
        case .none, .symbols, .sixels, .kitty, .iterm:
            mode = requested
        }
        let probedCell = probe?.cellPixelSize.flatMap {
            $0.width >= 2 && $0.height >= 2 ? CellPixelSize(width: $0.width, height: $0.height) : nil
        }
        return TerminalGraphics(
            mode: mode, colors: colors,
            cellPixelSize: probedCell ?? cellPixelSize ?? .typical,
            terminalEnvironment: kept,
            synchronizedOutput: SynchronizedOutput(
                isEnabled: (probe?.synchronizedOutput ?? false)
                    && !SynchronizedOutput.isKnownBroken(terminalName: probe?.terminalName)),
            insideTmux: insideTmux,
            notice: mode == .kitty && insideTmux ? tmuxKittyNotice(answers) : nil,
            repeatsCharacters: !insideMultiplexer(environment)
                && (capabilities.repeats || repeatsCharacters(terminalName: answers?.terminalName)))
    }

    /// Terminals whose XTVERSION answer says they carry out REP: xterm and
    /// kitty were seen to draw the same screen with it (Scripts/real-terminals),
    /// foot and WezTerm list it among what they implement. The answer
    /// travels over ssh, where bytes matter most. Anything else gets REP
    /// only if chafa's database says so (VTE 0.52+).
    static func repeatsCharacters(terminalName name: String?) -> Bool {
        guard let name else { return false }
        return ["XTerm(", "kitty(", "foot(", "WezTerm "].contains { name.hasPrefix($0) }
    }

    /// Inside tmux or screen the terminal's own variables (VTE_VERSION) may
    /// have leaked in, but the multiplexer reads the output first: tmux 3.3a
    /// was seen to lose the runs REP writes after a block character.
    static func insideMultiplexer(_ environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return !(environment["TMUX"] ?? "").isEmpty || !(environment["STY"] ?? "").isEmpty
            || term.hasPrefix("tmux") || term.hasPrefix("screen")
    }

    /// Why kitty images forced inside tmux may show as empty boxes, and the
    /// fix; nil when the terminal behind tmux said it can draw them.
    static func tmuxKittyNotice(_ answers: TerminalProbeResult?) -> String? {
        if answers?.kittyPlaceholders == true { return nil }
        if answers?.kittyGraphics == true {
            return "this terminal draws kitty images but not inside tmux (that needs Unicode placeholders, "
                + "kitty 0.28 or later); try --images symbols."
        }
        return "kitty images inside tmux need tmux to pass them on: add `set -g allow-passthrough on` "
            + "to ~/.tmux.conf and run `tmux source-file ~/.tmux.conf` (tmux 3.3 or later)."
    }

    /// The cell size in pixels the terminal reports for `fileDescriptor`
    /// (`TIOCGWINSZ`), or nil when it reports none (many terminals send zeros).
    public static func cellPixelSize(fileDescriptor: Int32) -> CellPixelSize? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0,
              size.ws_col > 0, size.ws_row > 0, size.ws_xpixel > 0, size.ws_ypixel > 0
        else { return nil }
        let width = Int(size.ws_xpixel) / Int(size.ws_col)
        let height = Int(size.ws_ypixel) / Int(size.ws_row)
        guard width >= 2, height >= 2 else { return nil }
        return CellPixelSize(width: width, height: height)
    }
}
