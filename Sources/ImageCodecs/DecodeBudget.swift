/// How many pixels one decode may hold at once, from what the picture is
/// for. A header is a claim from outside: a 33-byte file can say 8000×8000,
/// so every decoder checks the size against this before it allocates.
public enum DecodeBudget {
    /// No buffer of any decode holds more, whatever it is for: 16 Mpx, 64 MB
    /// of RGBA.
    public static let ceilingPixels = 16 << 20

    /// A picture decoded whole before it is shrunk may have at most this many
    /// times the pixels it is shown at: the shrink keeps up to twice the
    /// shown size each way.
    static let wholeImageSlack = 4

    /// …and never less than this (1 Mpx, 4 MB), so small boxes still take
    /// ordinary photos whole.
    public static let smallPixels = 1 << 20

    /// The most pixels a decode for `fitting` may allocate: a few times the
    /// box (a grid cell's box gives `smallPixels`), at most `ceilingPixels`;
    /// with no box, the ceiling.
    public static func pixels(fitting: (width: Int, height: Int)?) -> Int {
        guard let fitting, fitting.width > 0, fitting.height > 0 else { return ceilingPixels }
        let shown = pixelCount(width: fitting.width, height: fitting.height)
        let (allowed, overflow) = shown.multipliedReportingOverflow(by: wholeImageSlack)
        return min(ceilingPixels, max(smallPixels, overflow ? Int.max : allowed))
    }

    /// `width × height`, saturating at `Int.max` (header fields are up to
    /// 32 bits each, so the product can overflow), 0 for a non-positive side.
    public static func pixelCount(width: Int, height: Int) -> Int {
        guard width > 0, height > 0 else { return 0 }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }
}
