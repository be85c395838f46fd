import Foundation
import ImageCodecs
@testable import TerminalUI
import Testing

@Suite("TerminalImageRenderer")
struct TerminalImageRendererTests {
    private static func renderer(_ mode: ImageMode, _ colors: ColorDepth = .truecolor) -> TerminalImageRenderer {
        TerminalImageRenderer(graphics: TerminalGraphics(mode: mode, colors: colors))
    }

    @Test(arguments: [ColorDepth.truecolor, .indexed256, .indexed16, .indexed8, .monochrome])
    func symbolOutputHasTheRequestedRowsAndColumns(colors: ColorDepth) throws {
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let image = try Self.renderer(.symbols, colors).render(data, cacheKey: "a", columns: 20, rows: 10)
        #expect(image.columns == 20)
        #expect(image.rows == 10)
        #expect(image.lines.count == 10)
        for line in image.lines {
            #expect(!line.contains("\n"))
            #expect(RenderedText.width(line) == 20)
        }
    }

    @Test func truecolorSymbolRowsAreSelfContained() throws {
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let image = try Self.renderer(.symbols).render(data, cacheKey: "a", columns: 16, rows: 8)
        for line in image.lines {
            // Each row sets its own colours and ends with a reset, so rows can sit side by side.
            #expect(line.contains("\u{1B}[38;2;") || line.contains("\u{1B}[48;2;"))
            #expect(line.hasSuffix("\u{1B}[0m"))
        }
    }

    @Test func monochromeSymbolsHaveNoEscapeCodesAtAll() throws {
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let image = try Self.renderer(.symbols, .monochrome).render(data, cacheKey: "a", columns: 20, rows: 10)
        #expect(image.lines.allSatisfy { !$0.contains("\u{1B}") })
        #expect(image.lines.joined().contains { $0 != " " })
    }

    @Test func indexedColoursUseOnlyPaletteCodes() throws {
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let image = try Self.renderer(.symbols, .indexed256).render(data, cacheKey: "a", columns: 20, rows: 10)
        let sequences = image.lines.flatMap(RenderedText.sgrSequences)
        #expect(!sequences.isEmpty)
        #expect(sequences.allSatisfy { !$0.contains("38;2;") && !$0.contains("48;2;") })
    }

    @Test func sixelOutputIsADeviceControlString() throws {
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let image = try Self.renderer(.sixels).render(data, cacheKey: "a", columns: 20, rows: 10)
        let sequence = try #require(image.escapeSequence)
        #expect(image.columns == 20)
        #expect(image.rows == 10)
        #expect(sequence.hasPrefix("\u{1B}P"))
        let introducer = try #require(sequence.firstIndex(of: "q"))
        #expect(sequence[sequence.index(sequence.startIndex, offsetBy: 2)..<introducer].allSatisfy {
            $0.isNumber || $0 == ";"
        })
        #expect(sequence.hasSuffix("\u{1B}\\"))
        #expect(!sequence.contains("\n"))
    }

    @Test func kittyOutputIsAGraphicsCommandSizedInCells() throws {
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let image = try Self.renderer(.kitty).render(data, cacheKey: "a", columns: 20, rows: 10)
        let sequence = try #require(image.escapeSequence)
        #expect(sequence.hasPrefix("\u{1B}_G"))
        #expect(sequence.contains("c=20,r=10"))
        #expect(!sequence.contains("\n"))
    }

    @Test func itermOutputIsAnInlineFileSizedInCells() throws {
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let image = try Self.renderer(.iterm).render(data, cacheKey: "a", columns: 20, rows: 10)
        let sequence = try #require(image.escapeSequence)
        #expect(sequence.hasPrefix("\u{1B}]1337;File="))
        #expect(sequence.contains("width=20;height=10"))
    }

    @Test func wideImageKeepsItsAspectInsideTheBox() throws {
        // 300×150 is 2:1; cells are 1:2, so 32 columns wide is 8 rows tall.
        let data = try ImageFixtures.jpeg(width: 300, height: 150)
        let image = try Self.renderer(.symbols).render(data, cacheKey: "a", columns: 32, rows: 16)
        #expect(image.columns == 32)
        #expect(image.rows == 8)
        #expect(image.lines.count == 8)
    }

    @Test func tallImageKeepsItsAspectInsideTheBox() throws {
        let data = try ImageFixtures.jpeg(width: 100, height: 200)
        let image = try Self.renderer(.symbols).render(data, cacheKey: "a", columns: 32, rows: 16)
        #expect(image.rows == 16)
        #expect(image.columns == 16)
    }

    @Test func secondRenderOfTheSameKeyAndSizeComesFromTheCache() throws {
        let renderer = Self.renderer(.symbols)
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let first = try renderer.render(data, cacheKey: "photo-1", columns: 20, rows: 10)
        // Broken bytes under the same key: served from the cache, so nothing is decoded.
        let again = try renderer.render(Data("not a jpeg".utf8), cacheKey: "photo-1", columns: 20, rows: 10)
        #expect(again == first)
        #expect(renderer.cachedImage(cacheKey: "photo-1", columns: 20, rows: 10) == first)
        // Another size is another rendering.
        #expect(renderer.cachedImage(cacheKey: "photo-1", columns: 10, rows: 5) == nil)
    }

    @Test func cacheStaysWithinItsCountLimit() throws {
        var configuration = TerminalImageRenderer.Configuration()
        configuration.cacheCountLimit = 3
        let renderer = TerminalImageRenderer(
            graphics: TerminalGraphics(mode: .symbols, colors: .truecolor), configuration: configuration)
        let data = try ImageFixtures.jpeg(width: 64, height: 64)
        for index in 0..<5 {
            _ = try renderer.render(data, cacheKey: "k\(index)", columns: 8, rows: 4)
        }
        #expect(renderer.cachedCount == 3)
        #expect(renderer.cachedImage(cacheKey: "k0", columns: 8, rows: 4) == nil)
        #expect(renderer.cachedImage(cacheKey: "k4", columns: 8, rows: 4) != nil)
    }

    @Test func brokenBytesThrowTheDecodeReason() throws {
        let renderer = Self.renderer(.symbols)
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        #expect(throws: ImageDecodeError.truncated) {
            try renderer.render(Data(data.prefix(data.count / 2)), cacheKey: "t", columns: 20, rows: 10)
        }
        #expect(throws: ImageDecodeError.notAnImage) {
            try renderer.render(Data("<html>".utf8), cacheKey: "n", columns: 20, rows: 10)
        }
        #expect(renderer.cachedCount == 0)
    }

    @Test func noneModeDrawsNothing() throws {
        let renderer = TerminalImageRenderer(graphics: .none)
        let image = try renderer.render(try ImageFixtures.jpeg(width: 32, height: 32), cacheKey: "x", columns: 10, rows: 5)
        #expect(image.columns == 0)
        #expect(image.rows == 0)
        #expect(image.lines.isEmpty)
    }

    @Test func rendersInParallelFromBackgroundTasks() async throws {
        let renderer = Self.renderer(.symbols)
        let images = try (0..<12).map { try ImageFixtures.jpeg(width: 60 + $0 * 10, height: 60 + $0 * 10) }
        let rendered = try await withThrowingTaskGroup(of: RenderedImage.self) { group in
            for (index, data) in images.enumerated() {
                group.addTask { try renderer.render(data, cacheKey: "p\(index)", columns: 12, rows: 6) }
            }
            var all: [RenderedImage] = []
            for try await image in group { all.append(image) }
            return all
        }
        #expect(rendered.count == 12)
        #expect(rendered.allSatisfy { $0.lines.count == 6 && $0.lines.allSatisfy { RenderedText.width($0) == 12 } })
        #expect(renderer.cachedCount == 12)
    }

    @Test func fitKeepsAspectAndNeverExceedsTheBox() {
        for (width, height) in [(1, 1000), (1000, 1), (640, 480), (150, 150), (1024, 683)] {
            for (columns, rows) in [(1, 1), (10, 3), (38, 19), (200, 60)] {
                let fitted = TerminalImageRenderer.fit(
                    width: width, height: height, columns: columns, rows: rows, cellAspectRatio: 2)
                #expect(fitted.columns >= 1 && fitted.columns <= columns)
                #expect(fitted.rows >= 1 && fitted.rows <= rows)
            }
        }
    }
}
