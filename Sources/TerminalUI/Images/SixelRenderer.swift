import CChafa
import ImageCodecs

/// Sixel mode with a byte budget: a sixel image is one DCS string the
/// terminal must take whole (tmux accepts about 1 MiB per sequence), and a
/// slow link stalls on large ones. chafa quantises to at most 256 colours
/// (its dynamic palette); when the result is still over the budget the
/// image gets fewer pixels, then a 16-colour palette.
extension TerminalImageRenderer {
    /// Largest sixel sequence written for one image.
    public static let sixelByteBudget = 256 << 10

    func drawSixels(_ image: DecodedImage, columns: Int, rows: Int) -> RenderedImage {
        for attempt in SixelRenderer.attempts(cellPixelSize: graphics.cellPixelSize) {
            let rendered = drawWithChafa(
                image, columns: columns, rows: rows,
                canvasMode: attempt.colors, cellPixelSize: attempt.cellPixelSize)
            if rendered.byteCount <= Self.sixelByteBudget {
                return rendered
            }
        }
        return blank(columns: columns, rows: rows)
    }
}

/// The ladder of sixel attempts, best first.
enum SixelRenderer {
    struct Attempt: Equatable {
        var colors: ChafaCanvasMode
        var cellPixelSize: TerminalGraphics.CellPixelSize
    }

    /// 256 colours at the terminal's cell size, then ever fewer pixels per
    /// cell (each step about halves the bytes), then 16 colours at the
    /// smallest size. The image keeps its cell geometry: with fewer pixels
    /// it shows smaller inside its area, never overlapping its neighbours.
    static func attempts(cellPixelSize cell: TerminalGraphics.CellPixelSize) -> [Attempt] {
        let scales = [1.0, 0.7, 0.5, 0.35, 0.25]
        var attempts = scales.map { scale in
            Attempt(colors: CHAFA_CANVAS_MODE_TRUECOLOR, cellPixelSize: scaled(cell, scale))
        }
        if let smallest = attempts.last {
            attempts.append(Attempt(colors: CHAFA_CANVAS_MODE_INDEXED_16, cellPixelSize: smallest.cellPixelSize))
        }
        return attempts
    }

    static func scaled(_ cell: TerminalGraphics.CellPixelSize, _ scale: Double) -> TerminalGraphics.CellPixelSize {
        TerminalGraphics.CellPixelSize(
            width: max(2, Int((Double(cell.width) * scale).rounded())),
            height: max(2, Int((Double(cell.height) * scale).rounded())))
    }

    /// Colour registers a sixel sequence defines (`#n;2;r;g;b`), to check
    /// the 256-colour limit.
    static func colorRegisters(in sequence: String) -> Set<Int> {
        var registers = Set<Int>()
        let bytes = Array(sequence.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "#") else {
                index += 1
                continue
            }
            var number = 0
            var cursor = index + 1
            while cursor < bytes.count, let digit = asciiDigit(bytes[cursor]) {
                number = number * 10 + digit
                cursor += 1
            }
            // A definition has parameters after the number; a bare `#n` selects.
            if cursor > index + 1, cursor < bytes.count, bytes[cursor] == UInt8(ascii: ";") {
                registers.insert(number)
            }
            index = cursor
        }
        return registers
    }

    private static func asciiDigit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
