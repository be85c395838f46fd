import Foundation
import ImageCodecs
import Testing
import TestSupport

/// Whole files of every format pass `ImageDecoder.validate`; files cut
/// short, with a piece cut out of the middle, or noise between a format's
/// first and last bytes do not.
@Suite struct ImageValidationTests {
    /// One whole sample of each format and variant, made here.
    static func wholeSamples() throws -> [(String, Data)] {
        [
            ("JPEG", try ImageSamples.jpeg(width: 160, height: 120)),
            ("PNG rgba", try ImageSamples.png(width: 60, height: 40, color: .rgba)),
            ("PNG palette interlaced", try ImageSamples.png(width: 60, height: 40, color: .palette, interlaced: true)),
            ("PNG gray 16-bit", try ImageSamples.png(width: 60, height: 40, color: .gray, sixteenBit: true)),
            ("GIF", try ImageSamples.gif(width: 60, height: 40)),
            ("WebP lossy", try ImageSamples.webp(width: 60, height: 40, lossless: false)),
            ("WebP lossless", try ImageSamples.webp(width: 60, height: 40, lossless: true)),
        ]
    }

    @Test func wholeFilesOfEveryFormatPass() throws {
        for (name, data) in try Self.wholeSamples() {
            let format = try ImageDecoder.validate(data)
            #expect(format.name == String(name.prefix { $0 != " " }), "\(name)")
        }
    }

    @Test func filesCutShortFail() throws {
        for (name, data) in try Self.wholeSamples() {
            for fraction in [0.3, 0.6, 0.9] {
                #expect(throws: ImageDecodeError.self, "\(name) cut to \(fraction)") {
                    try ImageDecoder.validate(ImageSamples.truncated(data, keeping: fraction))
                }
            }
            // Down to the last byte: only the very end is missing.
            #expect(throws: ImageDecodeError.self, "\(name) without its last byte") {
                try ImageDecoder.validate(data.dropLast())
            }
        }
    }

    @Test func filesWithAPieceCutOutOfTheMiddleFail() throws {
        for (name, data) in try Self.wholeSamples() {
            #expect(throws: ImageDecodeError.self, "\(name) with a hole") {
                try ImageDecoder.validate(ImageSamples.holed(data))
            }
        }
    }

    @Test func noiseBetweenAFormatsFirstAndLastBytesFails() throws {
        for (name, data) in try Self.wholeSamples() {
            #expect(throws: ImageDecodeError.self, "\(name) garbage") {
                try ImageDecoder.validate(ImageSamples.garbage(like: data))
            }
        }
    }

    @Test func aTruncatedJPEGSaysSo() throws {
        let data = try ImageSamples.jpeg(width: 160, height: 120)
        #expect(throws: ImageDecodeError.truncated) { try ImageDecoder.validate(ImageSamples.truncated(data)) }
    }
}
