import Foundation
import ImageCodecs
@testable import TerminalUI
import Testing
import TestSupport

/// Thumbnails and `/open` draw PNG, GIF and WebP like JPEG, in every mode.
@Suite struct ImageFormatRenderTests {
    static func samples() throws -> [(String, Data)] {
        [
            ("JPEG", try ImageSamples.jpeg(width: 120, height: 90)),
            ("PNG", try ImageSamples.png(width: 120, height: 90, color: .rgba, interlaced: true)),
            ("GIF", try ImageSamples.gif(width: 120, height: 90)),
            ("WebP", try ImageSamples.webp(width: 120, height: 90, lossless: false)),
        ]
    }

    @Test(arguments: [ImageMode.symbols, .sixels, .kitty, .iterm])
    func everyFormatRendersInEveryMode(mode: ImageMode) throws {
        let renderer = TerminalImageRenderer(graphics: TerminalGraphics(mode: mode, colors: .truecolor))
        for (name, data) in try Self.samples() {
            let image = try renderer.render(data, cacheKey: name, columns: 16, rows: 6)
            #expect(image.mode == mode, "\(name)")
            // 120×90 fitted into 16×6 cells keeps its aspect: narrower than the box.
            #expect(image.columns > 0 && image.columns <= 16 && image.rows == 6, "\(name): \(image.columns)×\(image.rows)")
            if mode == .symbols {
                #expect(image.lines.count == image.rows, "\(name)")
            } else {
                #expect(image.byteCount > 100, "\(name) drew \(image.byteCount) bytes")
            }
        }
    }

    @Test func theCellJobOfAPNGIsAPictureNotAFailure() throws {
        let renderer = TerminalImageRenderer(graphics: TerminalGraphics(mode: .symbols, colors: .truecolor))
        let data = try ImageSamples.png(width: 64, height: 64, color: .palette)
        let content = CellRenderJob(source: .image(data, cacheKey: "p"), columns: 10, rows: 5).run(with: renderer)
        guard case .image(let image) = content else {
            Issue.record("the PNG cell became \(content)")
            return
        }
        #expect(image.lines.count == image.rows)
    }

    @Test func aCutWebPSaysWhatWasWrong() throws {
        let renderer = TerminalImageRenderer(graphics: TerminalGraphics(mode: .symbols, colors: .truecolor))
        let cut = ImageSamples.truncated(try ImageSamples.webp(width: 64, height: 64, lossless: true))
        #expect(throws: ImageDecodeError.self) { try renderer.render(cut, cacheKey: "w", columns: 10, rows: 5) }
        #expect(renderer.cachedCount == 0)
    }
}
