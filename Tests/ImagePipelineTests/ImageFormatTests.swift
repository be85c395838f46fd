import Foundation
import Testing
@testable import ImagePipeline
import TestSupport

@Suite struct ImageFormatTests {
    @Test func sniffRecognisesJPEGPNGAndGIFSignatures() {
        #expect(ImageFormat.sniff(Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00])) == .jpeg)
        #expect(ImageFormat.sniff(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00])) == .png)
        #expect(ImageFormat.sniff(Data("GIF89a....".utf8)) == .gif)
        #expect(ImageFormat.sniff(Data("GIF87a....".utf8)) == .gif)
    }

    @Test func sniffRejectsOtherBytes() {
        #expect(ImageFormat.sniff(Data()) == nil)
        #expect(ImageFormat.sniff(Data("<html>nope</html>".utf8)) == nil)
        #expect(ImageFormat.sniff(Data([0xFF, 0xD8])) == nil)
    }

    @Test func sniffRecognisesWebP() throws {
        #expect(ImageFormat.sniff(try ImageSamples.webp(width: 8, height: 8, lossless: true)) == .webp)
        #expect(ImageFormat.webp.fileExtension == "webp")
        #expect(ImageFormat.jpeg.fileExtension == "jpg")
    }

    /// Whole, cut and garbage files of each format, made here, with what the
    /// check must say. The old check (signature and last bytes only) got the
    /// rows marked `old: wrong` wrong: it refused every WebP, and passed
    /// files with a hole in the middle and noise between valid first and
    /// last bytes.
    static func table() throws -> [(name: String, data: Data, valid: Bool)] {
        let jpeg = try ImageSamples.jpeg(width: 160, height: 120)
        let png = try ImageSamples.png(width: 60, height: 40, color: .rgba, interlaced: true)
        let gif = try ImageSamples.gif(width: 60, height: 40)
        let webp = try ImageSamples.webp(width: 60, height: 40, lossless: false)
        let lossless = try ImageSamples.webp(width: 60, height: 40, lossless: true)
        return [
            ("JPEG whole", jpeg, true),
            ("JPEG cut short", ImageSamples.truncated(jpeg), false),
            ("JPEG with a hole", ImageSamples.holed(jpeg), false),                           // old: wrong
            ("JPEG noise between SOI and EOI", ImageSamples.garbage(like: jpeg, prefix: 4, suffix: 2), false),  // old: wrong
            ("PNG whole", png, true),
            ("PNG cut short", ImageSamples.truncated(png), false),
            ("PNG with a hole", ImageSamples.holed(png), false),                             // old: wrong
            ("PNG noise before IEND", ImageSamples.garbage(like: png, prefix: 8, suffix: 12), false),  // old: wrong
            ("GIF whole", gif, true),
            ("GIF cut short", ImageSamples.truncated(gif), false),
            ("GIF with a hole", ImageSamples.holed(gif), false),                             // old: wrong
            ("GIF noise before the trailer", ImageSamples.garbage(like: gif, prefix: 6, suffix: 1), false),  // old: wrong
            ("WebP lossy whole", webp, true),                                                // old: wrong
            ("WebP lossless whole", lossless, true),                                         // old: wrong
            ("WebP cut short", ImageSamples.truncated(webp), false),
            ("WebP with a hole", ImageSamples.holed(lossless), false),
            ("WebP noise", ImageSamples.garbage(like: webp), false),
            ("HTML", Data("<html>not found</html>".utf8), false),
            ("empty", Data(), false),
        ]
    }

    @Test func validateDecodesTheWholeFile() throws {
        for (name, data, valid) in try Self.table() {
            let result = ImageFormat.validate(data)
            switch result {
            case .success(let format):
                #expect(valid, "\(name) passed as \(format)")
                #expect(ImageFormat.isComplete(data) == valid)
            case .failure(.invalidImage(let reason)):
                #expect(!valid, "\(name) failed: \(reason)")
            case .failure(let other):
                Issue.record("\(name): unexpected \(other)")
            }
        }
    }

    @Test func aJPEGCutShortIsCalledTruncated() throws {
        let cut = ImageSamples.truncated(try ImageSamples.jpeg(width: 160, height: 120))
        guard case .failure(.invalidImage(let reason)) = ImageFormat.validate(cut) else {
            Issue.record("a truncated JPEG passed validation")
            return
        }
        #expect(reason.contains("truncated"))
    }

    @Test func nonImageBytesAreInvalid() {
        guard case .failure(.invalidImage) = ImageFormat.validate(Data("garbage, not an image".utf8)) else {
            Issue.record("garbage passed validation")
            return
        }
    }
}
