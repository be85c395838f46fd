import Foundation
import ImageCodecs
@testable import TerminalUI
import Testing

/// Fewer bytes to the terminal, the same screen: a grid page of symbols
/// written with REP (for terminals that carry it out) is read through a
/// small terminal model and compared, cell by cell, with the page the
/// writer without REP (the app's writer before REP) produces.
@Suite("Rendered bytes")
struct RenderedBytesTests {
    /// Pictures with the kinds of areas photos have: flat (a wall, a sky),
    /// a gradient, and hard edges.
    static func pictures() throws -> [GridPageRenderer.Picture] {
        let shapes: [(width: Int, height: Int)] = [(320, 240), (240, 320), (320, 213), (300, 300), (320, 180), (200, 300)]
        return try shapes.enumerated().map { index, shape in
            let data = index.isMultiple(of: 2)
                ? try ImageFixtures.jpeg(width: shape.width, height: shape.height)
                : try Self.flatPicture(width: shape.width, height: shape.height, seed: index)
            return GridPageRenderer.Picture(
                data: data, cacheKey: "picture-\(index)",
                aspectRatio: Double(shape.width) / Double(shape.height), title: "picture \(index)")
        }
    }

    /// Bands of flat colour with a dark disc, as a PNG (exact colours): long
    /// runs of one symbol, as walls and skies give.
    static func flatPicture(width: Int, height: Int, seed: Int) throws -> Data {
        let rgb = (0..<(width * height)).flatMap { pixel -> [UInt8] in
            let x = pixel % width, y = pixel / width
            let dx = x - width / 2, dy = y - height / 2
            if dx * dx + dy * dy < (min(width, height) / 4) * (min(width, height) / 4) { return [20, 20, 30] }
            let band = (y * 4 / height + seed) % 4
            return [[90, 160, 220], [200, 190, 120], [60, 120, 60], [180, 180, 180]][band]
        }
        return Data(try #require(KittyPNG.encode(rgb: rgb, width: width, height: height)))
    }

    static func page(
        repeats: Bool, pictures: [GridPageRenderer.Picture], columns: Int = 120, rows: Int = 50
    ) async -> String {
        let graphics = TerminalGraphics(mode: .symbols, colors: .truecolor, repeatsCharacters: repeats)
        let layout = GridLayout(terminalColumns: columns, terminalRows: rows, graphics: graphics)
        return await GridPageRenderer.render(
            pictures, layout: layout, renderer: TerminalImageRenderer(graphics: graphics), width: 1)
    }

    static func screen(_ text: String, columns: Int = 120) -> RenderScreenModel {
        var model = RenderScreenModel(columns: columns)
        model.feed(text)
        return model
    }

    @Test func aPageWithRepeatsIsTheSameScreen() async throws {
        let pictures = try Self.pictures()
        let before = Self.screen(await Self.page(repeats: false, pictures: pictures))
        let after = Self.screen(await Self.page(repeats: true, pictures: pictures))
        #expect(before.notUnderstood.isEmpty)
        #expect(before.overflows == 0)
        // Six pictures of about 38 x 17 cells, and their labels.
        #expect(before.cellCount > 6 * 30 * 12)
        #expect(after == before)
    }

    /// chafa draws a flat area as spaces on a background (1 byte a cell)
    /// and an edge as runs of one block (3 bytes a cell): REP shortens both.
    @Test func flatAreasCostFewerBytesWithRepeats() async throws {
        let pictures = try Self.pictures().enumerated().filter { !$0.offset.isMultiple(of: 2) }.map(\.element)
        let plain = await Self.page(repeats: false, pictures: pictures)
        let repeated = await Self.page(repeats: true, pictures: pictures)
        #expect(Self.screen(repeated) == Self.screen(plain))
        #expect(repeated.utf8.count * 10 < plain.utf8.count * 9, "\(repeated.utf8.count) bytes vs \(plain.utf8.count)")
    }

    @Test func withoutRepeatsNoRepIsWritten() async throws {
        let plain = await Self.page(repeats: false, pictures: try Self.pictures())
        #expect(RenderedText.sgrSequences(plain).count > 0)
        #expect(!Self.containsRep(plain))
    }

    static func containsRep(_ text: String) -> Bool {
        text.utf8.split(separator: 0x1B).contains { part in
            guard part.first == UInt8(ascii: "[") else { return false }
            let body = part.dropFirst().prefix { !(0x40...0x7E).contains($0) }
            return part.dropFirst(body.count + 1).first == UInt8(ascii: "b")
        }
    }

    @Test(arguments: [
        "", "abc", "aaaa", "aaaaaaaaaaaa", "▀▀▀▀▀▀▀▀", "▀▀", "x▄▄▄▄▄y     z",
        "\u{1B}[38;2;1;2;3m▀▀▀▀▀\u{1B}[48;2;4;5;6m▀▀▀▀▀\u{1B}[0m",
        "  \u{1B}[0m        \u{1B}[7m██████████", "\t\t\t\t\t\t\t\t", "é é ééééééé",
    ])
    func compressingKeepsWhatTheTerminalPrints(_ line: String) {
        let compressed = CharacterRepeat.compress(line)
        #expect(CharacterRepeat.expand(compressed) == line)
        #expect(compressed.utf8.count <= line.utf8.count)
        #expect(Self.screen(compressed) == Self.screen(line))
    }

    @Test func runsAreCutWhereRepSavesBytesAndNeverAcrossAnEscape() {
        #expect(CharacterRepeat.compress("▀▀▀▀▀▀▀▀") == "▀\u{1B}[7b")
        // Two more blocks cost 6 bytes; REP for 2 costs 4.
        #expect(CharacterRepeat.compress("▀▀▀") == "▀\u{1B}[2b")
        #expect(CharacterRepeat.compress("▀▀") == "▀▀")
        // Spaces are one byte: REP pays from six on.
        #expect(CharacterRepeat.compress("     ") == "     ")
        #expect(CharacterRepeat.compress("       ") == " \u{1B}[6b")
        #expect(CharacterRepeat.compress("▀▀▀\u{1B}[0m▀▀▀") == "▀\u{1B}[2b\u{1B}[0m▀\u{1B}[2b")
        // A control character is not graphic: REP would mean nothing after it.
        #expect(CharacterRepeat.compress("\t\t\t\t\t\t\t\t") == "\t\t\t\t\t\t\t\t")
    }

    @Test func repRowsSurviveTheDiskCache() {
        let image = RenderedImage(
            columns: 10, rows: 2, mode: .symbols,
            content: .symbols(["\u{1B}[38;2;1;2;3m▀\u{1B}[9b\u{1B}[0m", "\u{1B}[48;2;3;2;1m \u{1B}[9b\u{1B}[0m"]))
        let data = RenderDiskCache.encode(image)
        #expect(data.flatMap(RenderDiskCache.decode) == image)
        #expect(!RenderDiskCache.isColouredText("▀\u{1B}[2;3b"))
        #expect(!RenderDiskCache.isColouredText("▀\u{1B}[2J"))
    }

    @Test func aRenderedImageIsKeptApartFromTheSameImageWithoutRepeats() throws {
        let graphics = TerminalGraphics(mode: .symbols, colors: .truecolor)
        var repeating = graphics
        repeating.repeatsCharacters = true
        let plain = RenderCache.Key(cacheKey: "a", columns: 10, rows: 5, graphics: graphics)
        let repeated = RenderCache.Key(cacheKey: "a", columns: 10, rows: 5, graphics: repeating)
        #expect(plain != repeated)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plainDisk = RenderDiskCache(directory: directory, sizeLimit: 1 << 20, graphics: graphics, workFactor: 0.2)
        let repeatedDisk = RenderDiskCache(directory: directory, sizeLimit: 1 << 20, graphics: repeating, workFactor: 0.2)
        #expect(plainDisk.key(cacheKey: "a", columns: 10, rows: 5) != repeatedDisk.key(cacheKey: "a", columns: 10, rows: 5))
    }

    @Test func clippingARowWithRepCountsTheRepeatedCells() {
        let graphics = TerminalGraphics(mode: .symbols, colors: .truecolor, repeatsCharacters: true)
        let wide = RenderedImage(
            columns: 12, rows: 1, mode: .symbols, content: .symbols(["\u{1B}[38;2;1;2;3m▀\u{1B}[11b\u{1B}[0m"]))
        guard case .text(let lines, _) = GridComposer.block(for: .image(wide), columns: 8, rows: 1, graphics: graphics)
        else { Issue.record("symbols should give text"); return }
        let screen = Self.screen(lines[0])
        #expect(screen.trimmedRows.first?.count == 8)
        #expect(screen.overflows == 0)
    }

    @Test(arguments: [
        ("XTerm(379)", true), ("kitty(0.26.5)", true), ("tmux 3.3a", false), ("foot(1.13.1)", true),
        ("WezTerm 20240203-110809-5046fc22", true), ("st(0.9)", false), ("", false),
    ])
    func repeatsFollowWhatTheTerminalSaysItIs(name: String, repeats: Bool) {
        var probe = TerminalProbeResult()
        probe.answered = true
        probe.deviceAttributes = [62]
        probe.terminalName = name.isEmpty ? nil : name
        let graphics = TerminalGraphics.detect(
            requested: .symbols, environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], isTTY: true,
            probe: probe)
        #expect(graphics.repeatsCharacters == repeats)
    }

    @Test func vteSaysSoInItsVariableAndAnUnansweredProbeMeansNoRepeats() {
        let vte = TerminalGraphics.detect(
            requested: .symbols, environment: ["TERM": "xterm-256color", "VTE_VERSION": "7200"], isTTY: true)
        #expect(vte.repeatsCharacters)
        let unknown = TerminalGraphics.detect(
            requested: .symbols, environment: ["TERM": "xterm-256color"], isTTY: true, probe: TerminalProbeResult())
        #expect(!unknown.repeatsCharacters)
    }

    /// tmux 3.3a drew rows of REP runs too short and too long in xterm
    /// (Scripts/real-terminals), whatever the terminal around it can do.
    @Test(arguments: [
        ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "VTE_VERSION": "7200"],
        ["TERM": "screen-256color", "STY": "1.pts-0", "VTE_VERSION": "7200"],
        ["TERM": "xterm-256color", "TMUX": "/tmp/tmux-0/default,1,0"],
    ])
    func insideAMultiplexerNothingIsRepeated(environment: [String: String]) {
        var probe = TerminalProbeResult()
        probe.answered = true
        probe.terminalName = "XTerm(379)"
        let graphics = TerminalGraphics.detect(requested: .symbols, environment: environment, isTTY: true, probe: probe)
        #expect(!graphics.repeatsCharacters)
    }
}
