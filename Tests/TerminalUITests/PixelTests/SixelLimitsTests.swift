import CChafa
import Testing
@testable import TerminalUI

@Suite("Sixel limits")
struct SixelLimitsTests {
    private static let renderer = TerminalImageRenderer(graphics: TerminalGraphics(mode: .sixels, colors: .truecolor))

    @Test func aThumbnailUsesAtMost256Colours() throws {
        let image = Self.renderer.render(PixelFixtures.noise(width: 220, height: 220), columns: 22, rows: 11)
        let sequence = try #require(image.escapeSequence)
        let registers = SixelRenderer.colorRegisters(in: sequence)
        #expect(!registers.isEmpty)
        #expect(registers.count <= 256)
        #expect(sequence.utf8.count <= TerminalImageRenderer.sixelByteBudget)
    }

    @Test func aLargeNoisyViewIsReducedUnderTheBudget() throws {
        // 118×45 cells at 10×20 px is 1180×900 pixels of noise: far over
        // 256 KiB at full size and 256 colours.
        let image = Self.renderer.render(PixelFixtures.noise(width: 1180, height: 900), columns: 118, rows: 45)
        let sequence = try #require(image.escapeSequence)
        #expect(sequence.hasPrefix("\u{1B}P"))
        #expect(sequence.utf8.count <= TerminalImageRenderer.sixelByteBudget)
        #expect(SixelRenderer.colorRegisters(in: sequence).count <= 256)
        #expect(image.columns == 118)
    }

    @Test func theLadderGoesToFewerPixelsThenFewerColours() {
        let attempts = SixelRenderer.attempts(cellPixelSize: .init(width: 10, height: 20))
        #expect(attempts.first == .init(colors: CHAFA_CANVAS_MODE_TRUECOLOR, cellPixelSize: .init(width: 10, height: 20)))
        let widths = attempts.map(\.cellPixelSize.width)
        #expect(widths.dropLast() == widths.dropLast().sorted(by: >)[...])
        #expect(attempts.last?.colors == CHAFA_CANVAS_MODE_INDEXED_16)
    }

    @Test func colourRegistersCountDefinitionsNotSelections() {
        #expect(SixelRenderer.colorRegisters(in: "\u{1B}Pq#0;2;0;0;0#1;2;100;0;0#0~#1~\u{1B}\\") == [0, 1])
    }
}
