import Testing
@testable import TerminalUI

/// Cutting and padding to display columns, for aligned labels.
@Suite struct FitTests {
    @Test func textThatFitsIsUnchanged() {
        #expect(TextSanitizer.fit("kittens", columns: 7) == "kittens")
        #expect(TextSanitizer.fit("日本", columns: 4) == "日本")
    }

    @Test func longTextEndsInAnEllipsisAtTheWidth() {
        let result = TextSanitizer.fit("hello world", columns: 8)
        #expect(result == "hello w…")
        #expect(DisplayWidth.of(result) == 8)
    }

    @Test func wideCharactersAreCutWhole() {
        #expect(TextSanitizer.fit("日本語テキスト", columns: 7) == "日本語…")
        #expect(TextSanitizer.fit("日本語テキスト", columns: 6) == "日本…")
    }

    @Test func combiningSequencesAreNeverSplit() {
        let result = TextSanitizer.fit("e\u{301}e\u{301}e\u{301}e\u{301}", columns: 3)
        #expect(result == "e\u{301}e\u{301}…")
    }

    @Test func emojiSequenceIsDroppedWholeRatherThanSplit() {
        #expect(TextSanitizer.fit("ab👨‍👩‍👧‍👦cd", columns: 4) == "ab…")
        #expect(TextSanitizer.fit("ab👨‍👩‍👧‍👦cd", columns: 5) == "ab👨‍👩‍👧‍👦…")
    }

    @Test func flagsAreKeptInPairs() {
        #expect(TextSanitizer.fit("🇯🇵🇫🇷🇩🇪", columns: 5) == "🇯🇵🇫🇷…")
    }

    @Test func zeroOrNegativeColumnsGiveEmptyText() {
        #expect(TextSanitizer.fit("abc", columns: 0) == "")
        #expect(TextSanitizer.fit("abc", columns: -3) == "")
    }

    @Test func oneColumnHoldsOnlyTheEllipsis() {
        #expect(TextSanitizer.fit("abc", columns: 1) == "…")
        #expect(TextSanitizer.fit("日", columns: 1) == "…")
    }

    /// For every width, the result fits and is a cluster prefix of the text.
    @Test(arguments: ["plain title", "日本語のタイトル", "e\u{301}t\u{E9} \u{1F468}\u{200D}\u{1F469}", "🇯🇵🇫🇷a👍🏽b", "ｗｉｄｅ and narrow"])
    func resultAlwaysFitsAndIsAPrefix(text: String) {
        for columns in 0...30 {
            let result = TextSanitizer.fit(text, columns: columns)
            #expect(DisplayWidth.of(result) <= max(0, columns))
            let kept = result.hasSuffix("…") && result != text ? String(result.dropLast()) : result
            #expect(text.hasPrefix(kept))
            #expect(Array(text).starts(with: Array(kept)))
        }
    }

    @Test func padFillsToExactlyTheColumns() {
        #expect(TextSanitizer.pad("日本", toColumns: 6) == "日本  ")
        #expect(TextSanitizer.pad("ab", toColumns: 5, alignment: .right) == "   ab")
    }

    @Test func padCutsThenFillsTheGapLeftByAWideCharacter() {
        #expect(TextSanitizer.pad("日本語", toColumns: 4) == "日… ")
    }

    @Test(arguments: ["12 kittens on a sofa", "日本語のタイトル", "e\u{301}e\u{301}", "👨‍👩‍👧‍👦🇯🇵", ""])
    func paddedLabelsAlwaysHaveTheSameWidth(text: String) {
        for columns in 1...25 {
            #expect(DisplayWidth.of(TextSanitizer.pad(text, toColumns: columns)) == columns)
            #expect(DisplayWidth.of(TextSanitizer.pad(text, toColumns: columns, alignment: .right)) == columns)
        }
    }
}
