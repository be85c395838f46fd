import Foundation
import Testing
@testable import ImagePipeline

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

    @Test func jpegWithoutEndMarkerIsInvalid() {
        let whole = fakeJPEG(size: 100)
        #expect((try? ImageFormat.validate(whole).get()) == .jpeg)
        let truncated = whole.prefix(50)
        guard case .failure(.invalidImage(let reason)) = ImageFormat.validate(Data(truncated)) else {
            Issue.record("a truncated JPEG passed validation")
            return
        }
        #expect(reason.contains("truncated"))
    }

    @Test func pngNeedsItsEndChunk() {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png.append(Data(repeating: 7, count: 20))
        #expect((try? ImageFormat.validate(png).get()) == nil)
        png.append(contentsOf: [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        #expect((try? ImageFormat.validate(png).get()) == .png)
    }

    @Test func nonImageBytesAreInvalid() {
        guard case .failure(.invalidImage) = ImageFormat.validate(Data("garbage, not an image".utf8)) else {
            Issue.record("garbage passed validation")
            return
        }
    }
}
