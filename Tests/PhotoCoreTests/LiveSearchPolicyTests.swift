import PhotoCore
import Testing

@Suite struct LiveSearchPolicyTests {
    private let tight = LiveSearchPolicy(delay: .milliseconds(800), minimumDelay: .milliseconds(800), shortestPartialWord: 3)

    @Test func thePauseIsTheChosenOneButNeverUnderTheMinimum() {
        #expect(LiveSearchPolicy.standard.pause(chosen: nil) == .milliseconds(300))
        #expect(LiveSearchPolicy.standard.pause(chosen: .milliseconds(120)) == .milliseconds(120))
        #expect(tight.pause(chosen: nil) == .milliseconds(800))
        #expect(tight.pause(chosen: .milliseconds(300)) == .milliseconds(800))
        #expect(tight.pause(chosen: .seconds(2)) == .seconds(2))
    }

    @Test(arguments: [
        ("k", false, false), ("  k", false, false), ("ki", true, false), ("kit", true, true),
        ("kittens sn", true, false), ("kittens sno", true, true), ("kittens s ", true, true), ("ca ", true, true),
    ])
    func shortTextAndShortPartialWordsWait(text: String, standard: Bool, tightAllows: Bool) {
        #expect(LiveSearchPolicy.standard.allows(text) == standard, "standard, \(text.debugDescription)")
        #expect(tight.allows(text) == tightAllows, "tight, \(text.debugDescription)")
    }
}
