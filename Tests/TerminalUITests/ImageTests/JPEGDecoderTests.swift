import Foundation
@testable import ImageCodecs
@testable import TerminalUI
import Testing

@Suite("JPEGDecoder")
struct JPEGDecoderTests {
    @Test func decodesAValidJPEGToRGBAAtFullSize() throws {
        let data = try ImageFixtures.jpeg(width: 150, height: 100)
        let image = try JPEGDecoder.decode(data)
        #expect(image.width == 150)
        #expect(image.height == 100)
        #expect(image.sourceWidth == 150)
        #expect(image.sourceHeight == 100)
        #expect(image.rgba.count == 150 * 100 * 4)
        // Opaque, and the gradient survives: the left edge is less red than the right.
        #expect(image.rgba[3] == 255)
        let left = Int(image.rgba[(50 * 150 + 2) * 4])
        let right = Int(image.rgba[(50 * 150 + 147) * 4])
        #expect(right > left + 100)
    }

    @Test func readsDimensionsWithoutDecoding() throws {
        let data = try ImageFixtures.jpeg(width: 64, height: 48)
        let size = try JPEGDecoder.dimensions(of: data)
        #expect(size.width == 64)
        #expect(size.height == 48)
    }

    @Test func scaledDecodeUsesTheSmallestFactorThatCoversTheBox() throws {
        let data = try ImageFixtures.jpeg(width: 800, height: 600)
        // Fitting 800×600 into 100×100 keeps aspect: 100×75 is needed; 1/8 gives exactly 100×75.
        let eighth = try JPEGDecoder.decode(data, fitting: (width: 100, height: 100))
        #expect(eighth.width == 100)
        #expect(eighth.height == 75)
        #expect(eighth.sourceWidth == 800)
        // 101 px wide no longer fits 1/8; the next factor (1/4 or 3/8 per the library) must cover it.
        let larger = try JPEGDecoder.decode(data, fitting: (width: 101, height: 1000))
        #expect(larger.width >= 101)
        #expect(larger.width < 800)
        #expect(larger.height * 800 >= larger.width * 600 - 800)
    }

    @Test func neverUpscalesWhenTheBoxIsLargerThanTheImage() throws {
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let image = try JPEGDecoder.decode(data, fitting: (width: 1000, height: 1000))
        #expect(image.width == 150)
        #expect(image.height == 150)
    }

    @Test func truncatedJPEGIsReportedAsTruncated() throws {
        let data = try ImageFixtures.jpeg(width: 200, height: 200)
        let half = data.prefix(data.count / 2)
        #expect(throws: ImageDecodeError.truncated) {
            try JPEGDecoder.decode(Data(half))
        }
    }

    @Test func jpegCutInsideItsHeadersFailsWithAReason() throws {
        let data = try ImageFixtures.jpeg(width: 200, height: 200)
        do {
            _ = try JPEGDecoder.decode(Data(data.prefix(40)))
            Issue.record("decoding 40 bytes of a JPEG succeeded")
        } catch {
            #expect(!error.description.isEmpty)
            #expect(error == .truncated || error.description.hasPrefix("corrupt JPEG"))
        }
    }

    @Test func nonJPEGBytesAreRejectedWithoutCrashing() {
        let html = Data("<html><body>Service Unavailable</body></html>".utf8)
        #expect(throws: ImageDecodeError.notJPEG) {
            try JPEGDecoder.decode(html)
        }
    }

    @Test func pngIsNamedAsUnsupported() {
        #expect(throws: ImageDecodeError.unsupportedFormat("PNG")) {
            try JPEGDecoder.decode(ImageFixtures.pngSignature)
        }
    }

    @Test func emptyDataIsAnError() {
        #expect(throws: ImageDecodeError.empty) {
            try JPEGDecoder.decode(Data())
        }
    }

    @Test func garbageAfterAJPEGSignatureIsCorruptNotACrash() {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        bytes += (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        #expect(throws: ImageDecodeError.self) {
            try JPEGDecoder.decode(Data(bytes))
        }
    }

    @Test func aFailedDecodeDoesNotSpoilTheNextOneOnTheSameThread() throws {
        let valid = try ImageFixtures.jpeg(width: 80, height: 60)
        for _ in 0..<3 {
            #expect(throws: ImageDecodeError.self) {
                try JPEGDecoder.decode(Data(valid.prefix(valid.count / 2)))
            }
            #expect(throws: ImageDecodeError.self) {
                try JPEGDecoder.decode(Data(valid.prefix(40)))
            }
            #expect(throws: ImageDecodeError.self) {
                try JPEGDecoder.dimensions(of: Data(valid.prefix(40)))
            }
            var garbage: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
            garbage += (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            #expect(throws: ImageDecodeError.self) {
                try JPEGDecoder.decode(Data(garbage))
            }
            let image = try JPEGDecoder.decode(valid)
            #expect(image.width == 80)
        }
    }

    @Test func decodesInParallelFromManyTasks() async throws {
        let data = try ImageFixtures.jpeg(width: 120, height: 90)
        let reference = try JPEGDecoder.decode(data).rgba
        let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<16 {
                group.addTask { try JPEGDecoder.decode(data).rgba }
            }
            var all: [[UInt8]] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == reference })
    }

    @Test func errorDescriptionsSayWhatWasWrong() {
        #expect(ImageDecodeError.truncated.description == "truncated JPEG")
        #expect(ImageDecodeError.notJPEG.description == "not a JPEG image")
        #expect(ImageDecodeError.unsupportedFormat("GIF").description == "GIF images are not supported")
    }
}
