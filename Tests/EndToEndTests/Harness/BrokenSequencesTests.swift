import Testing

/// The check the Ctrl-C-while-drawing test relies on: it passes whole
/// streams and names each kind of cut.
@Suite("Broken sequences")
struct BrokenSequencesTests {
    private func problems(_ text: String) -> [String] { brokenSequences(in: Array(text.utf8)) }

    @Test func wholeStreamsPass() {
        let stream = "\u{1B}[38;2;10;20;30m▀▄\u{1B}[0m\r\n\u{1B}[?2026h\u{1B}]8;;https://x\u{7}link\u{1B}]8;;\u{1B}\\"
            + "\u{1B}Pq#0;2;0;0;0~-\u{1B}\\\u{1B}_Ga=T,i=1;AAAA\u{1B}\\\u{1B}(B\u{1B}7 é 🐈"
        #expect(problems(stream).isEmpty, "\(problems(stream))")
    }

    @Test func aCSIJoinedToLaterTextIsCut() {
        let found = problems("\u{1B}[38;2;1\u{1B}[0m")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("CSI cut short at byte 0") == true, "\(found)")
    }

    @Test func aStringSequenceWithoutItsTerminatorIsCut() {
        #expect(problems("\u{1B}Pq#0;2;0\u{1B}[0m").first?.hasPrefix("string sequence cut short") == true)
        #expect(problems("\u{1B}_Ga=T;AA").first?.hasPrefix("string sequence cut short") == true)
    }

    @Test func aSplitCharacterIsCut() {
        let bytes: [UInt8] = [0x41, 0xE2, 0x96, 0x41]
        #expect(brokenSequences(in: bytes).first?.hasPrefix("UTF-8 character cut short at byte 1") == true)
    }

    @Test func anEscapeAtTheEndIsCut() {
        #expect(problems("text\u{1B}").first?.hasPrefix("ESC at the end at byte 4") == true)
    }
}
