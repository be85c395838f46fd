/// How thumbnails are drawn, as chosen with `--images`.
///
/// `auto` is only ever a request: `TerminalGraphics.detect` resolves it to one
/// of the other cases, so a resolved `TerminalGraphics.mode` is never `.auto`.
public enum ImageMode: String, CaseIterable, Sendable {
    case auto, none, symbols, sixels, kitty, iterm

    /// True for the modes that send real pixels (a graphics protocol) rather
    /// than coloured text characters.
    public var isPixelMode: Bool {
        switch self {
        case .sixels, .kitty, .iterm: true
        case .auto, .none, .symbols: false
        }
    }
}

/// The colours symbol output may use, best first.
public enum ColorDepth: String, CaseIterable, Sendable, Comparable {
    /// 24-bit SGR (`38;2;r;g;b`).
    case truecolor
    /// The xterm 256-colour palette.
    case indexed256
    /// The 16 ANSI colours (8 normal + 8 bright).
    case indexed16
    /// The 8 basic ANSI colours.
    case indexed8
    /// No colour escape codes at all: shapes only (`NO_COLOR`, or a terminal
    /// without colour sequences).
    case monochrome

    /// Better depths compare greater.
    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .monochrome: 0
        case .indexed8: 1
        case .indexed16: 2
        case .indexed256: 3
        case .truecolor: 4
        }
    }
}
