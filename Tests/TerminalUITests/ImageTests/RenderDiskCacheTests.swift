import Foundation
import ImageCodecs
import Platform
@testable import TerminalUI
import Testing
import TestSupport

/// Renderings kept on disk: the next run (a new renderer on the same
/// folder) draws them without decoding, only for the same picture, box and
/// terminal, and never serves a damaged or unsafe file.
@Suite("RenderDiskCache")
struct RenderDiskCacheTests {
    private static func renderer(
        _ folder: TemporaryDirectory, _ mode: ImageMode = .symbols, _ colors: ColorDepth = .truecolor
    ) -> TerminalImageRenderer {
        var configuration = TerminalImageRenderer.Configuration()
        configuration.diskCacheDirectory = folder.url
        return TerminalImageRenderer(graphics: TerminalGraphics(mode: mode, colors: colors), configuration: configuration)
    }

    /// Bytes that are no image: only a rendering from disk can draw them.
    private static let notAnImage = Data("<html>not a picture</html>".utf8)

    private static func files(in folder: TemporaryDirectory) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == RenderDiskCache.kind.fileExtension }
    }

    @Test(arguments: [ImageMode.symbols, .sixels])
    func theNextRunDrawsFromDiskWithoutDecoding(mode: ImageMode) async throws {
        let folder = try TemporaryDirectory()
        let first = Self.renderer(folder, mode)
        let drawn = try first.render(try ImageFixtures.jpeg(width: 150, height: 100), cacheKey: "https://x/1.jpg", columns: 30, rows: 12)
        await first.flushDiskCache()
        #expect(try Self.files(in: folder).count == 1)

        let next = Self.renderer(folder, mode)
        let again = try next.render(Self.notAnImage, cacheKey: "https://x/1.jpg", columns: 30, rows: 12)
        #expect(again == drawn)
        // Without the disk cache the same bytes cannot be drawn at all.
        #expect(throws: ImageDecodeError.self) {
            try TerminalImageRenderer(graphics: TerminalGraphics(mode: mode, colors: .truecolor))
                .render(Self.notAnImage, cacheKey: "https://x/1.jpg", columns: 30, rows: 12)
        }
    }

    @Test func anotherBoxOrTerminalIsNotServedTheStoredRendering() async throws {
        let folder = try TemporaryDirectory()
        let first = Self.renderer(folder)
        _ = try first.render(try ImageFixtures.jpeg(width: 150, height: 100), cacheKey: "k", columns: 30, rows: 12)
        await first.flushDiskCache()

        #expect(throws: ImageDecodeError.self) {
            try Self.renderer(folder).render(Self.notAnImage, cacheKey: "k", columns: 31, rows: 12)
        }
        #expect(throws: ImageDecodeError.self) {
            try Self.renderer(folder, .symbols, .indexed256).render(Self.notAnImage, cacheKey: "k", columns: 30, rows: 12)
        }
        #expect(throws: ImageDecodeError.self) {
            try Self.renderer(folder).render(Self.notAnImage, cacheKey: "other", columns: 30, rows: 12)
        }
    }

    @Test func aDamagedFileIsDrawnAgainFromTheImage() async throws {
        let folder = try TemporaryDirectory()
        let jpeg = try ImageFixtures.jpeg(width: 150, height: 100)
        let first = Self.renderer(folder)
        let drawn = try first.render(jpeg, cacheKey: "k", columns: 30, rows: 12)
        await first.flushDiskCache()
        let file = try #require(try Self.files(in: folder).first)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 5] ^= 0x20
        try bytes.write(to: file)

        let next = Self.renderer(folder)
        #expect(throws: ImageDecodeError.self) { try next.render(Self.notAnImage, cacheKey: "k", columns: 30, rows: 12) }
        #expect(try Self.renderer(folder).render(jpeg, cacheKey: "k", columns: 30, rows: 12) == drawn)
    }

    /// A whole, checksummed entry that would send the terminal a title
    /// change (OSC) or a cursor move is refused like a damaged one.
    @Test(arguments: [
        "\u{1B}]0;pwned\u{07}\u{1B}[0m", "\u{1B}[2J", "ab\u{1B}[10Acd", "\u{1B}P0q#0\u{1B}\\",
    ])
    func aPlantedEscapeSequenceIsNeverServed(line: String) throws {
        let folder = try TemporaryDirectory()
        let graphics = TerminalGraphics(mode: .symbols, colors: .truecolor)
        let configuration = TerminalImageRenderer.Configuration()
        let cache = RenderDiskCache(directory: folder.url, sizeLimit: 1 << 20, graphics: graphics, workFactor: configuration.workFactor)
        let key = cache.key(cacheKey: "k", columns: 3, rows: 2)
        func plant(_ second: String) throws {
            let body = "symbols 3 2\n\u{1B}[38;2;1;2;3m\u{2580}\u{2580}\u{2580}\u{1B}[0m\n" + second
            try RenderDiskCache.entry.encode(key: key, data: Data(body.utf8)).write(to: cache.store.fileURL(for: key))
        }
        // The same entry with a plain coloured row is served...
        try plant("\u{1B}[48;5;17m   \u{1B}[0m")
        #expect(cache.image(cacheKey: "k", columns: 3, rows: 2)?.lines.count == 2)
        // ...and with the planted sequence it is not.
        try plant(line)
        #expect(cache.image(cacheKey: "k", columns: 3, rows: 2) == nil)
    }

    @Test func sixelsMustBeOneDeviceControlString() {
        #expect(RenderDiskCache.isSixel("\u{1B}P0;1;0q\"1;1;10;20#0;2;0;0;0#0~~-\u{1B}\\"))
        #expect(!RenderDiskCache.isSixel("\u{1B}P0;1;0q#0~~\u{1B}\\\u{1B}]0;x\u{07}\u{1B}\\"))
        #expect(!RenderDiskCache.isSixel("\u{1B}P0;1;0q#0~~"))
    }

    @Test func kittyPicturesAreNotKept() async throws {
        let folder = try TemporaryDirectory()
        let renderer = Self.renderer(folder, .kitty)
        _ = try renderer.render(try ImageFixtures.jpeg(width: 150, height: 100), cacheKey: "k", columns: 30, rows: 12)
        await renderer.flushDiskCache()
        let files = FileManager.default.fileExists(atPath: folder.url.path) ? try Self.files(in: folder) : []
        #expect(files.isEmpty)
    }
}
