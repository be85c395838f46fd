import Testing
import TestSupport
@testable import TerminalUI

/// Widths as terminals draw them, per grapheme cluster.
@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("", 0), ("hello", 5), ("a b", 3),
        ("日本語", 6), ("ＡＢＣ", 6), ("한국어", 6), ("ひらがな", 8), ("a日b", 4), ("中文！", 6),
    ])
    func textWidth(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    /// Devanagari, Tamil, Bengali, Sinhala and Thai as xterm draws them:
    /// spacing vowel signs, each consonant of a conjunct and SARA AM take a column.
    @Test func scriptsMeasureAsXtermDrawsThem() {
        for sample in TerminalScreen.measuredWidths {
            #expect(DisplayWidth.of(sample.text) == sample.columns, "\(sample.text)")
        }
    }

    @Test func combiningMarksTakeNoColumns() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Z\u{324}\u{308}\u{301}\u{35C}") == 1)
        #expect(DisplayWidth.of("cafe\u{301}") == 4)
    }

    @Test func loneCombiningMarkTakesNoColumns() {
        #expect(DisplayWidth.of("\u{301}") == 0)
    }

    @Test func conjoiningHangulJamoFormOneWideSyllable() {
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2)
    }

    @Test func emojiZWJSequencesAreOneWideCluster() {
        #expect(DisplayWidth.of("👨‍👩‍👧‍👦") == 2)
        #expect(DisplayWidth.of("🏳️‍🌈") == 2)
        #expect(DisplayWidth.of("🧑🏽‍💻") == 2)
    }

    @Test func flagsAreOneWideClusterEach() {
        #expect(DisplayWidth.of("🇯🇵") == 2)
        #expect(DisplayWidth.of("🇯🇵🇫🇷🇩🇪") == 6)
    }

    @Test func skinToneModifierJoinsItsBase() {
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("☝🏽") == 2)
    }

    @Test func variationSelectorsChoosePresentation() {
        #expect(DisplayWidth.of("❤") == 1)
        #expect(DisplayWidth.of("❤️") == 2)
        #expect(DisplayWidth.of("⌚") == 2)
        #expect(DisplayWidth.of("⌚︎") == 1)
    }

    @Test func keycapSequenceIsOneWideCluster() {
        #expect(DisplayWidth.of("1️⃣") == 2)
    }

    @Test func invisibleScalarsTakeNoColumns() {
        #expect(DisplayWidth.of("\u{200D}") == 0)
        #expect(DisplayWidth.of("\u{200B}") == 0)
        #expect(DisplayWidth.of("\u{FE0F}") == 0)
        #expect(DisplayWidth.of("\u{2060}") == 0)
    }

    @Test func controlCharactersTakeNoColumns() {
        #expect(DisplayWidth.of("\u{1B}") == 0)
        #expect(DisplayWidth.of("\r\n") == 0)
        #expect(DisplayWidth.of("\u{85}") == 0)
        #expect(DisplayWidth.of("\u{7F}") == 0)
    }

    @Test func emojiPresentationCharactersAreWide() {
        #expect(DisplayWidth.of("🐱") == 2)
        #expect(DisplayWidth.of("🌅🏖") == 3)  // 🏖 defaults to text presentation
    }

    @Test func narrowSymbolsAndAccentedLatinAreOneColumn() {
        #expect(DisplayWidth.of("é") == 1)
        #expect(DisplayWidth.of("→") == 1)
        #expect(DisplayWidth.of("…") == 1)
        #expect(DisplayWidth.of("·") == 1)
    }

    @Test func widthIsTheSumOverClusters() {
        let text = "Ab日本e\u{301}👨‍👩‍👧‍👦🇯🇵!"
        let sum = text.reduce(0) { $0 + DisplayWidth.of($1) }
        #expect(DisplayWidth.of(text) == sum)
        #expect(sum == 2 + 4 + 1 + 2 + 2 + 1)
    }
}
