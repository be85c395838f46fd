import CZlib
import Foundation
@testable import ImageCodecs
import Testing
import TestSupport

/// Headers are claims from outside: a file of a few dozen bytes may say
/// 8000×8000. These check what a decode really allocates, by the process's
/// peak resident memory, so they run one at a time.
@Suite(.serialized) struct DecodeBudgetTests {
    /// A grid cell's box in pixels (38 columns × 12 rows of 8×16).
    static let gridBox = (width: 304, height: 192)

    /// Far below the 256 MB of RGBA an 8000×8000 claim costs decoded whole,
    /// far above what a shrunk or refused decode needs.
    static let allowedRise = 48 << 20

    @Test func aTinyPNGClaimingAHugeSizeAllocatesNothingLarge() throws {
        let data = HostileImages.png(width: 8000, height: 8000)
        #expect(data.count < 100)
        let rise = try PeakMemory.rise {
            #expect(throws: ImageDecodeError.self) { try ImageDecoder.validate(data) }
            #expect(throws: ImageDecodeError.self) { try ImageDecoder.decode(data, fitting: Self.gridBox) }
        }
        #expect(rise < Self.allowedRise, "peak rose by \(rise >> 20) MB")
    }

    @Test func aTinyLossyWebPClaimingAHugeSizeAllocatesNothingLarge() throws {
        let data = HostileImages.lossyWebP(width: 8000, height: 8000)
        #expect(try ImageDecoder.dimensions(of: data) == (8000, 8000))
        let rise = try PeakMemory.rise {
            #expect(throws: ImageDecodeError.self) { try ImageDecoder.validate(data) }
            #expect(throws: ImageDecodeError.self) { try ImageDecoder.decode(data, fitting: Self.gridBox) }
        }
        #expect(rise < Self.allowedRise, "peak rose by \(rise >> 20) MB")
    }

    /// libwebp's lossless decoder holds the whole picture whatever the
    /// output, so a claim above the budget is refused before it starts.
    @Test func aLosslessWebPAboveTheBudgetIsRefusedAsTooLarge() throws {
        let data = HostileImages.losslessWebP(width: 8000, height: 8000)
        #expect(try ImageDecoder.dimensions(of: data) == (8000, 8000))
        let rise = try PeakMemory.rise {
            #expect(throws: ImageDecodeError.tooLarge(width: 8000, height: 8000)) {
                try ImageDecoder.decode(data, fitting: Self.gridBox)
            }
            #expect(throws: ImageDecodeError.tooLarge(width: 8000, height: 8000)) { try ImageDecoder.validate(data) }
        }
        #expect(rise < Self.allowedRise, "peak rose by \(rise >> 20) MB")
    }

    /// giflib cannot decode smaller: a screen above the budget is refused.
    @Test func aGIFWhoseScreenIsAboveTheBudgetIsRefusedAsTooLarge() throws {
        let data = HostileImages.gif(width: 8000, height: 8000)
        let rise = try PeakMemory.rise {
            #expect(throws: ImageDecodeError.tooLarge(width: 8000, height: 8000)) {
                try ImageDecoder.decode(data, fitting: Self.gridBox)
            }
            #expect(throws: ImageDecodeError.self) { try ImageDecoder.validate(data) }
        }
        #expect(rise < Self.allowedRise, "peak rose by \(rise >> 20) MB")
    }

    /// 8192×8192 of zeros compresses to about 8 KB; decoded whole it is
    /// 256 MB of RGBA. Read row by row it is shrunk into the grid's budget.
    @Test func aValidHugePNGDecodesForTheGridWithinTheBudget() throws {
        let data = try HostileImages.blackPNG(side: 8192)
        #expect(data.count < 16_384)
        var image: DecodedImage?
        let rise = try PeakMemory.rise {
            try ImageDecoder.validate(data)
            image = try ImageDecoder.decode(data, fitting: Self.gridBox)
        }
        #expect(rise < Self.allowedRise, "peak rose by \(rise >> 20) MB")
        let decoded = try #require(image)
        #expect(decoded.sourceWidth == 8192 && decoded.sourceHeight == 8192)
        #expect(decoded.width >= Self.gridBox.height && decoded.height >= Self.gridBox.height)
        #expect(decoded.width * decoded.height <= DecodeBudget.pixels(fitting: Self.gridBox))
        #expect(decoded.rgba.count == decoded.width * decoded.height * 4)
        #expect(stride(from: 0, to: decoded.rgba.count, by: 4).allSatisfy {
            decoded.rgba[$0..<$0 + 4] == [0, 0, 0, 255]
        })
    }

    /// The row-by-row reader averages as ImageShrinker does, so a PNG just
    /// above the budget looks as it would have decoded whole and shrunk.
    @Test(arguments: [ImageSamples.PNGColor.grayAlpha, .palette])
    func shrinkingRowByRowGivesTheSamePixelsAsShrinkingTheWhole(color: ImageSamples.PNGColor) throws {
        let data = try ImageSamples.png(width: 1100, height: 1000, color: color)
        let box = (width: 100, height: 90)
        #expect(1100 * 1000 > DecodeBudget.pixels(fitting: box))
        let streamed = try ImageDecoder.decode(data, fitting: box)
        let whole = ImageShrinker.shrink(try PNGDecoder.decodeWhole(data), fitting: box)
        #expect(streamed.width == whole.width && streamed.height == whole.height)
        #expect(streamed.width < 1100 / 2)
        #expect(streamed.rgba == whole.rgba)
    }

    /// An interlaced PNG's passes span the whole picture: above the budget
    /// it is refused, not decoded whole.
    @Test func anInterlacedPNGAboveTheBudgetIsRefused() throws {
        let data = try ImageSamples.png(width: 1100, height: 1000, color: .gray, interlaced: true)
        #expect(throws: ImageDecodeError.tooLarge(width: 1100, height: 1000)) {
            try ImageDecoder.decode(data, fitting: (width: 100, height: 90))
        }
        try ImageDecoder.validate(data)
    }

    /// Checking a download reads an interlaced PNG's passes through one row.
    @Test func checkingAValidHugeInterlacedPNGKeepsNoWholeImage() throws {
        let data = try HostileImages.blackPNG(side: 4096, interlaced: true)
        let rise = try PeakMemory.rise { try ImageDecoder.validate(data) }
        #expect(rise < Self.allowedRise, "peak rose by \(rise >> 20) MB")
        #expect(throws: ImageDecodeError.self) { try ImageDecoder.validate(ImageSamples.truncated(data)) }
    }

    /// A lossless WebP claiming 4000×4000 is within the ceiling, so checking
    /// it decodes; libwebp's buffer is touched only as far as the data goes.
    @Test func checkingATinyLosslessWebPClaimingFourThousandSquareAllocatesNothingLarge() throws {
        let data = HostileImages.losslessWebP(width: 4000, height: 4000)
        let rise = try PeakMemory.rise {
            #expect(throws: ImageDecodeError.self) { try ImageDecoder.validate(data) }
        }
        #expect(rise < Self.allowedRise, "peak rose by \(rise >> 20) MB")
    }

    /// Thumbnails within the budget take the path they always took: decoded
    /// whole by their library and shrunk by a whole factor.
    @Test func normalThumbnailsDecodeAsBefore() throws {
        let png = try ImageSamples.png(width: 150, height: 150, color: .rgba)
        let gif = try ImageSamples.gif(width: 150, height: 150, left: 3, top: 2, frameWidth: 140, frameHeight: 120)
        let box = (width: 64, height: 64)
        #expect(try ImageDecoder.decode(png, fitting: box).rgba
            == ImageShrinker.shrink(try PNGDecoder.decodeWhole(png), fitting: box).rgba)
        #expect(try ImageDecoder.decode(gif, fitting: box).rgba
            == ImageShrinker.shrink(try GIFDecoder.decode(gif), fitting: box).rgba)
        for lossless in [false, true] {
            let webp = try ImageSamples.webp(width: 150, height: 150, lossless: lossless)
            let decoded = try ImageDecoder.decode(webp, fitting: box)
            #expect(decoded.width == 75 && decoded.height == 75)
            let full = try ImageDecoder.decode(webp)
            #expect(decoded.rgba == ImageShrinker.shrink(full, fitting: box).rgba)
        }
    }

    @Test func pixelCountsFromHeadersSaturate() {
        #expect(DecodeBudget.pixelCount(width: Int(UInt32.max), height: Int(UInt32.max)) == Int.max)
        #expect(DecodeBudget.pixelCount(width: Int.max / 2, height: 3) == Int.max)
        #expect(DecodeBudget.pixelCount(width: -1, height: 5) == 0)
        #expect(DecodeBudget.pixels(fitting: (Int.max, Int.max)) == DecodeBudget.ceilingPixels)
        #expect(DecodeBudget.pixels(fitting: Self.gridBox) == DecodeBudget.smallPixels)
    }
}

/// The peak resident memory of this process, from Linux's /proc.
enum PeakMemory {
    struct Unavailable: Error {}

    /// How far the peak rose above the resident memory at the start while
    /// `body` ran: the kernel's mark is reset first (clear_refs 5).
    ///
    /// The mark is the whole process's, and other suites run beside this
    /// one: the smallest of three runs is kept, since what `body` allocates
    /// shows in every run and a neighbour's burst seldom lands in all three.
    static func rise(_ body: () throws -> Void) throws -> Int {
        var smallest = Int.max
        for _ in 0..<3 {
            try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
            let start = try peakKilobytes()
            try body()
            smallest = min(smallest, (try peakKilobytes() - start) * 1024)
            if smallest < DecodeBudgetTests.allowedRise { break }
        }
        return smallest
    }

    private static func peakKilobytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let value = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw Unavailable() }
        return value
    }
}

/// Files that claim more than they hold, made byte by byte.
enum HostileImages {
    /// A PNG header claiming `width×height` RGBA, then a few bytes of pixels.
    static func png(width: UInt32, height: UInt32) -> Data {
        var ihdr = bigEndian(width) + bigEndian(height)
        ihdr += [8, 6, 0, 0, 0]
        return Data(signature + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x63, 0, 0, 0, 1, 0, 1]) + chunk("IEND", []))
    }

    /// A valid 1-bit greyscale PNG, all black: tiny compressed, huge decoded.
    static func blackPNG(side: Int, interlaced: Bool = false) throws -> Data {
        // Adam7's seven passes (first column and row, steps): each pass's
        // rows are a filter byte and its pixels, 8 to a byte.
        let passes = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        let count = passes.reduce(0) { total, pass in
            let columns = (side - pass.0 + pass.2 - 1) / pass.2
            let rows = (side - pass.1 + pass.3 - 1) / pass.3
            return total + rows * (1 + (columns + 7) / 8)
        }
        let raw = [UInt8](repeating: 0, count: count)
        var length = compressBound(UInt(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(length))
        let status = raw.withUnsafeBufferPointer { compress2(&compressed, &length, $0.baseAddress, UInt($0.count), 9) }
        try #require(status == Z_OK)
        let ihdr = bigEndian(UInt32(side)) + bigEndian(UInt32(side)) + [1, 0, 0, 0, interlaced ? 1 : 0]
        return Data(signature + chunk("IHDR", ihdr) + chunk("IDAT", Array(compressed.prefix(Int(length)))) + chunk("IEND", []))
    }

    /// A lossy WebP whose VP8 key frame header claims `width×height`, and
    /// nothing after it: 33 bytes.
    static func lossyWebP(width: UInt16, height: UInt16) -> Data {
        let frame: [UInt8] = [0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A] + littleEndian16(width) + littleEndian16(height) + [0, 0, 0]
        return riff(chunk: "VP8 ", frame)
    }

    /// A lossless WebP header claiming `width×height`, and no pixels.
    static func losslessWebP(width: UInt32, height: UInt32) -> Data {
        let bits = (width - 1) | (height - 1) << 14
        return riff(chunk: "VP8L", [0x2F] + littleEndian32(bits) + [0, 0, 0])
    }

    /// A GIF whose screen and one frame claim `width×height`, with one byte of image data.
    static func gif(width: UInt16, height: UInt16) -> Data {
        var bytes = Array("GIF89a".utf8) + littleEndian16(width) + littleEndian16(height) + [0x80, 0, 0]
        bytes += [0, 0, 0, 255, 255, 255]
        bytes += [0x2C, 0, 0, 0, 0] + littleEndian16(width) + littleEndian16(height) + [0]
        bytes += [2, 1, 0x44, 0, 0x3B]
        return Data(bytes)
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        let crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc)
    }

    private static func riff(chunk type: String, _ body: [UInt8]) -> Data {
        var payload = Array("WEBP".utf8) + Array(type.utf8) + littleEndian32(UInt32(body.count)) + body
        if body.count % 2 == 1 { payload.append(0) }
        return Data(Array("RIFF".utf8) + littleEndian32(UInt32(payload.count)) + payload)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func littleEndian32(_ value: UInt32) -> [UInt8] { bigEndian(value).reversed() }

    private static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
