import Foundation

/// PNG samples written chunk by chunk, in every colour type.
extension ImageSamples {
    public enum PNGColor: Sendable, CaseIterable {
        case gray, grayAlpha, rgb, rgba, palette

        /// The IHDR colour type.
        var code: UInt8 {
            switch self {
            case .gray: 0
            case .rgb: 2
            case .palette: 3
            case .grayAlpha: 4
            case .rgba: 6
            }
        }
    }

    /// The palette samples' colours (RGBA); index 3 is fully transparent
    /// through a tRNS chunk.
    public static let pngPalette: [[UInt8]] = [[200, 30, 30, 255], [30, 200, 30, 255], [30, 30, 200, 128], [0, 0, 0, 0]]

    /// What pixel (x, y) of a `png(…)` sample decodes to, in 8-bit RGBA.
    public static func pngPixel(x: Int, y: Int, width: Int, height: Int, color: PNGColor) -> [UInt8] {
        let source = pixel(x: x, y: y, width: width, height: height, alpha: true)
        let gray = UInt8((Int(source[0]) + Int(source[1]) + Int(source[2])) / 3)
        switch color {
        case .gray: return [gray, gray, gray, 255]
        case .grayAlpha: return [gray, gray, gray, source[3]]
        case .rgb: return [source[0], source[1], source[2], 255]
        case .rgba: return source
        case .palette: return pngPalette[Int(gifIndex(x: x, y: y))]
        }
    }

    /// A PNG of `width × height` in `color`, with 8- or 16-bit samples
    /// (palette: 8-bit indices), optionally Adam7-interlaced.
    public static func png(
        width: Int, height: Int, color: PNGColor, sixteenBit: Bool = false, interlaced: Bool = false
    ) throws -> Data {
        let depth: UInt8 = sixteenBit && color != .palette ? 16 : 8
        func samples(x: Int, y: Int) -> [UInt8] {
            if color == .palette { return [gifIndex(x: x, y: y)] }
            let value = pngPixel(x: x, y: y, width: width, height: height, color: color)
            let channels: [UInt8] = switch color {
            case .gray: [value[0]]
            case .grayAlpha: [value[0], value[3]]
            case .rgb: Array(value[0..<3])
            case .rgba, .palette: value
            }
            // 16-bit: each 8-bit value v becomes v·257, which libpng turns back into v.
            return depth == 16 ? channels.flatMap { [$0, $0] } : channels
        }
        // Adam7's passes: start and step in x and y; one pass covering all when not interlaced.
        let passes: [(Int, Int, Int, Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var scanlines: [UInt8] = []
        for (startX, startY, stepX, stepY) in passes where startX < width && startY < height {
            for y in stride(from: startY, to: height, by: stepY) {
                scanlines.append(0)  // filter type None
                for x in stride(from: startX, to: width, by: stepX) { scanlines += samples(x: x, y: y) }
            }
        }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ body: [UInt8]) {
            let typed = Array(type.utf8) + body
            file += bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
        }
        chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [depth, color.code, 0, 0, interlaced ? 1 : 0])
        if color == .palette {
            chunk("PLTE", pngPalette.flatMap { $0.prefix(3) })
            chunk("tRNS", pngPalette.map { $0[3] })
        }
        chunk("IDAT", try deflate(scanlines))
        chunk("IEND", [])
        return Data(file)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
