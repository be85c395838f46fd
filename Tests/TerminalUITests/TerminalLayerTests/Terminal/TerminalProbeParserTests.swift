import Testing
@testable import TerminalUI

@Suite("Terminal probe answers")
struct TerminalProbeParserTests {
    static let id = TerminalProbe.kittyQueryID
    /// What kitty answers to the start-up queries, DA1 last.
    static let kittyAnswers = "\u{1B}[?2026;2$y" + "\u{1B}P>|kitty(0.35.2)\u{1B}\\" + "\u{1B}[6;20;10t"
        + "\u{1B}[4;1000;1200t" + "\u{1B}_Gi=\(id);OK\u{1B}\\" + "\u{1B}[?62;c"

    private static func parse(_ text: String, tmux: Bool = false) -> TerminalProbeParser {
        var parser = TerminalProbeParser(kittyQueryID: id, waitsForKittyAfterAttributes: tmux)
        parser.feed(Array(text.utf8))
        return parser
    }

    @Test func kittysAnswersInOneRead() {
        let parser = Self.parse(Self.kittyAnswers)
        #expect(parser.isComplete)
        let result = parser.result
        #expect(result.answered)
        #expect(result.kittyGraphics)
        #expect(result.synchronizedOutput)
        #expect(!result.sixels)
        #expect(result.cellPixelSize == .init(width: 10, height: 20))
        #expect(result.windowPixelSize == .init(width: 1200, height: 1000))
        #expect(result.terminalName == "kitty(0.35.2)")
    }

    @Test func answersSplitAtEveryByteGiveTheSameResult() {
        var parser = TerminalProbeParser(kittyQueryID: Self.id)
        for byte in Self.kittyAnswers.utf8 {
            #expect(!parser.isComplete)
            parser.feed([byte])
        }
        #expect(parser.isComplete)
        #expect(parser.result == Self.parse(Self.kittyAnswers).result)
    }

    @Test func garbageAndTypedKeysBetweenAnswersAreSkipped() {
        let noisy = "ls\r" + "\u{1B}[?2026;1$y" + "\u{1B}O" + "x\u{7F}" + "\u{1B}[1;5A" + "\u{1B}]11;rgb:0/0/0\u{07}"
            + "\u{1B}[?2026" + "\u{1B}_Gi=\(Self.id);OK\u{1B}\\" + "\u{1B}[?64;4;22c"
        let parser = Self.parse(noisy)
        let result = parser.result
        // The keys among the answers are kept for the prompt.
        #expect(String(decoding: parser.typedAhead, as: UTF8.self) == "ls\r\u{1B}Ox\u{7F}\u{1B}[1;5A")
        #expect(result.answered)
        #expect(result.synchronizedOutput)
        #expect(result.kittyGraphics)
        #expect(result.sixels)
    }

    @Test func aTerminalThatKnowsNoneOfItAnswersOnlyDA1() {
        let parser = Self.parse("\u{1B}[?1;2c")
        #expect(parser.isComplete)
        #expect(parser.result.deviceAttributes == [1, 2])
        #expect(!parser.result.kittyGraphics)
        #expect(!parser.result.synchronizedOutput)
        #expect(parser.result.cellPixelSize == nil)
    }

    @Test(arguments: [(0, false), (1, true), (2, true), (3, true), (4, false)])
    func synchronizedOutputNeedsAKnownMode(value: Int, supported: Bool) {
        #expect(Self.parse("\u{1B}[?2026;\(value)$y\u{1B}[?62c").result.synchronizedOutput == supported)
    }

    @Test func anotherModesReportIsNotTakenForSynchronizedOutput() {
        #expect(!Self.parse("\u{1B}[?2004;1$y\u{1B}[?62c").result.synchronizedOutput)
    }

    @Test func kittyErrorsAndOtherIdsAreNotSupport() {
        #expect(!Self.parse("\u{1B}_Gi=\(Self.id);EINVAL:bad\u{1B}\\\u{1B}[?62c").result.kittyGraphics)
        #expect(!Self.parse("\u{1B}_Gi=99;OK\u{1B}\\\u{1B}[?62c").result.kittyGraphics)
    }

    @Test func insideTmuxKittysAnswerMayFollowDA1() {
        var parser = TerminalProbeParser(kittyQueryID: Self.id, waitsForKittyAfterAttributes: true)
        parser.feed(Array("\u{1B}[?1;2;4c".utf8))
        #expect(parser.result.answered)
        #expect(!parser.isComplete)
        parser.feed(Array("\u{1B}_Gi=\(Self.id);OK\u{1B}\\".utf8))
        #expect(parser.isComplete)
        #expect(parser.result.kittyGraphics)
        #expect(parser.result.sixels)
    }

    @Test func zeroSizesAreIgnored() {
        let result = Self.parse("\u{1B}[6;0;0t\u{1B}[4;0;0t\u{1B}[?62c").result
        #expect(result.cellPixelSize == nil)
        #expect(result.windowPixelSize == nil)
    }

    @Test func aRunawayStringIsDroppedAndLaterAnswersStillCount() {
        var parser = TerminalProbeParser(kittyQueryID: Self.id)
        parser.feed(Array("\u{1B}P".utf8) + Array(repeating: UInt8(ascii: "a"), count: 10_000))
        #expect(!parser.isComplete)
        parser.feed(Array("\u{1B}[?62;4c".utf8))
        #expect(parser.isComplete)
        #expect(parser.result.sixels)
    }

    @Test func theTerminalNameKeepsOnlyPrintableText() {
        let result = Self.parse("\u{1B}P>|evil\u{07}x\u{9B}31m\u{1B}\\\u{1B}[?62c").result
        #expect(result.terminalName?.allSatisfy { $0.isASCII && !$0.isNewline } == true)
        #expect(result.terminalName?.hasPrefix("evil") == true)
    }

    @Test func theQueryCarryingUnicodePlaceholdersIsAskedFirstAndAnsweredApart() throws {
        let queries = TerminalProbe.queries(insideTmux: false, asksKitty: true)
        let placeholder = try #require(queries.range(of: "i=\(TerminalProbe.placeholderQueryID),"))
        let plain = try #require(queries.range(of: "i=\(Self.id),"))
        #expect(placeholder.lowerBound < plain.lowerBound, "a missing placeholder answer is final once the plain one is in")
        #expect(queries.contains("U=1;"))

        let placeholders = TerminalProbe.placeholderQueryID
        var recent = TerminalProbeParser(kittyQueryID: Self.id, placeholderQueryID: placeholders)
        recent.feed(Array(("\u{1B}_Gi=\(placeholders);OK\u{1B}\\" + Self.kittyAnswers).utf8))
        #expect(recent.result.kittyGraphics && recent.result.kittyPlaceholders)
        // kitty 0.26.5 rejects `U=1` and answers only the plain query.
        var old = TerminalProbeParser(kittyQueryID: Self.id, placeholderQueryID: placeholders)
        old.feed(Array(Self.kittyAnswers.utf8))
        #expect(old.result.kittyGraphics && !old.result.kittyPlaceholders)
    }

    @Test func queriesEndWithDA1AndWrapKittyInsideTmux() {
        let plain = TerminalProbe.queries(insideTmux: false, asksKitty: true)
        #expect(plain.hasSuffix("\u{1B}[c"))
        #expect(plain.contains("\u{1B}[?2026$p"))
        #expect(plain.contains("\u{1B}[>0q"))
        #expect(plain.contains("\u{1B}[16t"))
        #expect(plain.contains("\u{1B}[14t"))
        #expect(plain.contains("\u{1B}_Gi=\(Self.id),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"))
        let tmux = TerminalProbe.queries(insideTmux: true, asksKitty: true)
        #expect(tmux.contains("\u{1B}Ptmux;\u{1B}\u{1B}_G"))
        #expect(!TerminalProbe.queries(insideTmux: true, asksKitty: false).contains("_G"))
    }
}
