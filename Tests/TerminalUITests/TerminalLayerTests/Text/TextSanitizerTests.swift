import Foundation
import Sandbox
import Testing
@testable import TerminalUI

/// Hostile titles must come out as one harmless line.
@Suite struct TextSanitizerTests {
    /// Scripts/fuzz's title target on the submitted tree: the cut at 40
    /// fell after 🐱 and a joiner kept for the regional indicator after it,
    /// so "…" followed the joiner and a second pass dropped it.
    @Test func sanitisingTheFuzzersFlagLineTwiceChangesNothing() throws {
        try Self.expectFuzzFindingSanitisesOnce("title-idempotent-1.txt")
    }

    /// The title target's check on a saved input: its first byte is the
    /// column count, the rest the text; sanitising the line again changes nothing.
    private static func expectFuzzFindingSanitisesOnce(_ name: String) throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzFindings/" + name)
        let text = String(decoding: try Data(contentsOf: file).dropFirst(), as: UTF8.self)
        let line = TextSanitizer.sanitize(text, maximumLength: 40)
        #expect(TextSanitizer.sanitize(line, maximumLength: 40) == line)
    }

    /// Found by `FUZZ_SECONDS=60 Scripts/fuzz`: a joiner after a run of
    /// tag characters that is no flag was kept (the cancel tag ends a
    /// flag), the run dropped, and a second pass dropped the joiner.
    @Test func sanitisingTheFuzzersStrayTagsLineTwiceChangesNothing() throws {
        try Self.expectFuzzFindingSanitisesOnce("title-idempotent-2.txt")
    }

    @Test func aJoinerAfterDroppedTagsIsDroppedToo() {
        let line = TextSanitizer.sanitize("pD\u{E0067}\u{E007F}\u{200D}\u{1F464}")
        #expect(line == "pD\u{1F464}")
        #expect(TextSanitizer.sanitize(line) == line)
    }

    /// The same in a few characters: a joiner kept before an emoji is not
    /// kept at the end of a cut line.
    @Test func aCutNeverEndsOnAJoiner() {
        let line = TextSanitizer.sanitize("abc\u{1F431}\u{200D}\u{1F1F5}\u{1F1F1}xyz", maximumLength: 5)
        #expect(line == "abc\u{1F431}…")
        #expect(TextSanitizer.sanitize(line, maximumLength: 5) == line)
    }

    @Test func zeroWidthAndTagCharactersAreRemoved() {
        let hidden = "a\u{200B}b\u{200C}c\u{200D}d\u{2060}e\u{FEFF}f\u{E0001}\u{E0069}\u{E0067}\u{E007F}g\u{180E}h"
        #expect(TextSanitizer.sanitize(hidden) == "abcdefgh")
        #expect(TextSanitizer.stripControls(hidden) == "abcdefgh")
    }

    /// The joiner and the tags stay where they build an emoji, and only there.
    @Test func invisibleCharactersStayOnlyInsideEmoji() {
        let scotland = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        let rainbowFlag = "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}"
        let technologist = "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}"
        #expect(TextSanitizer.sanitize(scotland + rainbowFlag + technologist) == scotland + rainbowFlag + technologist)
        // Tags hiding a word after a letter, after another flag, or without
        // the cancel tag; joiners at the ends or beside a digit.
        #expect(TextSanitizer.sanitize("x\u{E0068}\u{E0069}\u{E007F}y") == "xy")
        #expect(TextSanitizer.sanitize("\u{1F3F3}\u{E0068}\u{E0069}\u{E007F}") == "\u{1F3F3}")
        #expect(TextSanitizer.sanitize("\u{1F3F4}\u{E0068}\u{E0069}z") == "\u{1F3F4}z")
        #expect(TextSanitizer.sanitize("\u{1F3F4}\u{E0001}\u{E007F}") == "\u{1F3F4}")
        #expect(TextSanitizer.sanitize("\u{200D}\u{1F308}\u{200D}") == "\u{1F308}")
        #expect(TextSanitizer.sanitize("1\u{200D}\u{1F308}") == "1\u{1F308}")
        #expect(TextSanitizer.sanitize("a\u{202E}\u{2066}\u{200E}\u{061C}b") == "ab")
    }

    @Test func clearScreenSequenceIsRemoved() {
        #expect(TextSanitizer.sanitize("before\u{1B}[2J\u{1B}[Hafter") == "beforeafter")
    }

    @Test func clipboardOSC52WithBellIsRemovedWithItsPayload() {
        #expect(TextSanitizer.sanitize("cat\u{1B}]52;c;cm0gLXJmIH4=\u{07}photo") == "catphoto")
    }

    @Test func oscWithStringTerminatorIsRemovedWithItsPayload() {
        #expect(TextSanitizer.sanitize("a\u{1B}]0;owned window title\u{1B}\\b") == "ab")
    }

    @Test func hyperlinkOSC8IsRemovedButItsTextKept() {
        let link = "\u{1B}]8;;https://evil.example/\u{1B}\\click\u{1B}]8;;\u{1B}\\"
        #expect(TextSanitizer.sanitize(link) == "click")
    }

    @Test func eightBitCSIIsRemoved() {
        #expect(TextSanitizer.sanitize("a\u{9B}2Jb\u{9B}31mc") == "abc")
    }

    @Test func eightBitOSCIsRemovedUpToEightBitST() {
        #expect(TextSanitizer.sanitize("a\u{9D}52;c;ZXZpbA==\u{9C}b") == "ab")
    }

    @Test(arguments: ["P", "X", "^", "_"])
    func sevenBitControlStringsAreRemoved(introducer: String) {
        #expect(TextSanitizer.sanitize("a\u{1B}\(introducer)payload;1;2\u{1B}\\b") == "ab")
    }

    @Test(arguments: [0x90, 0x98, 0x9E, 0x9F] as [UInt32])
    func eightBitControlStringsAreRemoved(introducer: UInt32) {
        let start = String(Character(Unicode.Scalar(introducer)!))
        #expect(TextSanitizer.sanitize("a\(start)q\"1;1;10;10#0;2;0;0;0\u{9C}b") == "ab")
    }

    @Test func unterminatedOSCSwallowsTheRestOfTheText() {
        #expect(TextSanitizer.sanitize("title\u{1B}]52;c;AAAA never ends") == "title")
    }

    @Test func cancelCharacterEndsAControlString() {
        #expect(TextSanitizer.sanitize("\u{1B}]0;x\u{18}visible") == "visible")
    }

    @Test func shortEscapesAreRemoved() {
        // RIS (full reset), DECSC, charset designation, keypad mode.
        #expect(TextSanitizer.sanitize("a\u{1B}cb\u{1B}7c\u{1B}(0d\u{1B}=e") == "abcde")
    }

    @Test func malformedCSIStopsAtTheFirstInvalidCharacter() {
        #expect(TextSanitizer.sanitize("\u{1B}[12é") == "é")
    }

    @Test func loneEscapeAtTheEndIsDropped() {
        #expect(TextSanitizer.sanitize("abc\u{1B}") == "abc")
    }

    @Test func bidirectionalOverridesAndEmbeddingsAreRemoved() {
        let text = "abc\u{202A}1\u{202B}2\u{202C}3\u{202D}4\u{202E}fed"
        #expect(TextSanitizer.sanitize(text) == "abc1234fed")
    }

    @Test func bidirectionalIsolatesAndMarksAreRemoved() {
        let text = "x\u{2066}a\u{2067}b\u{2068}c\u{2069}y\u{200E}\u{200F}\u{061C}z"
        #expect(TextSanitizer.sanitize(text) == "xabcyz")
    }

    @Test func carriageReturnBecomesASpaceSoItCannotOverwriteTheLine() {
        #expect(TextSanitizer.sanitize("innocent\rEVIL") == "innocent EVIL")
    }

    @Test func backspacesAreRemoved() {
        #expect(TextSanitizer.sanitize("good\u{08}\u{08}\u{08}\u{08}bad") == "goodbad")
    }

    @Test func newlinesTabsAndRunsOfWhitespaceCollapseToOneSpace() {
        #expect(TextSanitizer.sanitize("a\n\n\tb  \u{0B}\u{0C}c\u{2028}d\u{00A0}\u{3000}e") == "a b c d e")
    }

    @Test func surroundingWhitespaceIsTrimmed() {
        #expect(TextSanitizer.sanitize(" \n\t title \r\n") == "title")
    }

    @Test func otherC0ControlsDELAndC1ControlsAreRemoved() {
        let text = "a\u{00}\u{01}\u{07}\u{0E}\u{0F}\u{1A}\u{7F}b\u{80}\u{8D}\u{9A}c"
        #expect(TextSanitizer.sanitize(text) == "abc")
    }

    @Test func nextLineC1BecomesASpace() {
        #expect(TextSanitizer.sanitize("a\u{85}b") == "a b")
    }

    @Test func printableUnicodeIsKeptExactly() {
        let text = "東京タワー e\u{301}té 👨‍👩‍👧‍👦 🇯🇵 👍🏽 ❤️ 1️⃣ नमस्ते עברית"
        #expect(TextSanitizer.sanitize(text) == text)
    }

    @Test func longTextIsCutToTheLimitWithAnEllipsis() {
        let result = TextSanitizer.sanitize(String(repeating: "abcdefghij", count: 100))
        #expect(result.count == TextSanitizer.defaultMaximumLength)
        #expect(result.hasSuffix("…"))
        #expect(result.hasPrefix("abcdefghij"))
    }

    @Test func textAtTheLimitIsNotCut() {
        let text = String(repeating: "x", count: TextSanitizer.defaultMaximumLength)
        #expect(TextSanitizer.sanitize(text) == text)
    }

    @Test func cutNeverSplitsAnEmojiSequence() {
        let text = String(repeating: "👨‍👩‍👧‍👦", count: 20)
        let result = TextSanitizer.sanitize(text, maximumLength: 5)
        #expect(result == String(repeating: "👨‍👩‍👧‍👦", count: 4) + "…")
    }

    @Test func emptyAndWhitespaceOnlyTextBecomeEmpty() {
        #expect(TextSanitizer.sanitize("") == "")
        #expect(TextSanitizer.sanitize(" \n\t\u{1B}[0m ") == "")
    }

    /// Whatever the mix, nothing that can drive a terminal survives.
    @Test func noControlScalarSurvivesAnyMixOfHostilePieces() {
        let pieces = [
            "\u{1B}", "[", "]", "52;c;", "\u{07}", "\u{9B}", "\u{9D}", "\u{9C}", "\u{90}", "\\", "P", "2J",
            "\u{202E}", "\u{2066}", "\r", "\n", "\u{08}", "\u{7F}", "\u{85}", "日", "e\u{301}", "👍🏽", "a", " ",
            "\u{18}", "\u{00}", "(", "0", "\u{200F}",
        ]
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            let length = generator.below(24)
            let text = (0..<length).map { _ in generator.pick(pieces) }.joined()
            let result = TextSanitizer.sanitize(text)
            #expect(!result.unicodeScalars.contains(where: Self.isForbidden), "\(text.debugDescription) → \(result.debugDescription)")
            #expect(!result.hasPrefix(" ") && !result.hasSuffix(" ") && !result.contains("  "))
        }
    }

    @Test func stripControlsKeepsLinesAndTabsButRemovesSequences() {
        let text = "row 1\t\u{1B}[31mred\u{1B}[0m\r\nrow 2 \u{1B}]52;c;eA==\u{07}\u{202E}end\n"
        #expect(TextSanitizer.stripControls(text) == "row 1\tred\nrow 2 end\n")
    }

    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }
}
