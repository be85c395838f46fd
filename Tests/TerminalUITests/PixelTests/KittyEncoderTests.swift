import Testing
@testable import TerminalUI

@Suite("Kitty payload encoding")
struct KittyEncoderTests {
    @Test func aSmoothPictureKeepsEveryPixelAndIsSmall() throws {
        let image = PixelFixtures.gradient(width: 150, height: 150)
        let payload = try #require(KittyEncoder.encode(
            rgba: image.rgba, width: 150, height: 150, budget: 20 << 10))
        #expect(payload.width == 150)
        #expect(payload.height == 150)
        // Raw RGB is 67,500 bytes; the row filters make a gradient tiny.
        #expect(payload.bytes.count < 8 << 10)
        let decoded = try #require(PNGReader.read(payload.bytes))
        #expect(decoded.width == 150 && decoded.height == 150)
        let samePixels = decoded.rgb == KittyEncoder.dropAlpha(image.rgba, pixels: 150 * 150)
        #expect(samePixels)
    }

    @Test func noiseIsDownscaledUntilItFitsTheBudget() throws {
        let image = PixelFixtures.noise(width: 150, height: 150)
        let budget = 20 << 10
        let payload = try #require(KittyEncoder.encode(
            rgba: image.rgba, width: 150, height: 150, budget: budget))
        #expect(payload.bytes.count <= budget)
        #expect(payload.width < 150)
        #expect(payload.width == payload.height)  // aspect kept
        let decoded = try #require(PNGReader.read(payload.bytes))
        #expect(decoded.width == payload.width && decoded.height == payload.height)
    }

    @Test func everyRowFilterRoundTrips() throws {
        // Noise next to flat and ramped areas makes each filter win somewhere.
        var image = PixelFixtures.noise(width: 64, height: 48).rgba
        for index in stride(from: 0, to: image.count / 2, by: 4) { image[index] = UInt8(index / 4 % 256) }
        let rgb = KittyEncoder.dropAlpha(image, pixels: 64 * 48)
        let png = try #require(KittyPNG.encode(rgb: rgb, width: 64, height: 48))
        let decoded = try #require(PNGReader.read(png))
        let samePixels = decoded.rgb == rgb
        #expect(samePixels)
    }

    @Test func downscaleAveragesTheArea() {
        // 2×2 → 1×1: the mean of the four pixels.
        let rgb: [UInt8] = [0, 0, 0, 100, 100, 100, 200, 200, 200, 100, 100, 100]
        #expect(KittyEncoder.downscale(rgb, from: (2, 2), to: (1, 1)) == [100, 100, 100])
    }

    @Test func thumbnailsGetASmallBudgetAndLargeViewsALargerOne() {
        #expect(KittyEncoder.budget(cells: 22 * 11) * 30 * 4 / 3 < 1 << 20)
        #expect(KittyEncoder.budget(cells: 118 * 45) > KittyEncoder.budget(cells: 22 * 11))
        #expect(KittyEncoder.budget(cells: 1_000_000) == 256 << 10)
    }
}
