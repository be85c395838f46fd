/// What the terminal said about itself when asked at start-up
/// (`TerminalProbe`). Every field is what an answer showed; a missing answer
/// leaves the default (no support, no size).
public struct TerminalProbeResult: Sendable, Equatable {
    /// A size in pixels.
    public struct PixelSize: Sendable, Equatable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The terminal answered the primary device attributes query, which
    /// every terminal answers last: the other answers, or their absence,
    /// are final. False means the probe gave up (nothing answered in time).
    public var answered = false
    /// The DA1 attributes (`ESC[?62;4;22c` → [62, 4, 22]).
    public var deviceAttributes: [Int] = []
    /// The terminal answered kitty's graphics query with OK.
    public var kittyGraphics = false
    /// The terminal answered the kitty query carrying `U=1` with OK: it
    /// draws Unicode placeholders (kitty 0.28 and later), which images
    /// inside tmux need.
    public var kittyPlaceholders = false
    /// DECRQM said mode 2026 (synchronized output) is known: set or reset.
    public var synchronizedOutput = false
    /// `ESC[16t` answer, or derived from the window's pixels and cells.
    public var cellPixelSize: PixelSize?
    /// `ESC[14t` answer: the text area in pixels.
    public var windowPixelSize: PixelSize?
    /// XTVERSION answer, e.g. "kitty(0.35.2)" or "tmux 3.4" (printable
    /// ASCII only, cut to 64 characters).
    public var terminalName: String?
    /// Running inside tmux (the TMUX variable is set): pixel images then
    /// need tmux's help, and the answers above may be tmux's own.
    public var insideTmux = false

    public init() {}

    /// DA1 attribute 4: the terminal draws sixel graphics.
    public var sixels: Bool { deviceAttributes.contains(4) }
}
