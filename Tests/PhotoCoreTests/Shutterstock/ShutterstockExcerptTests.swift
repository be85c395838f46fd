import Foundation
import Testing
@testable import PhotoCore
@testable import Networking
@testable import ShutterstockService

/// Excerpts of long server text redact only their start (redaction time
/// grows with the text), and never show part of a secret cut at that start's end.
@Suite struct ShutterstockExcerptTests {
    private let secret = "s3cr/et key"

    @Test func aSecretCutAtTheEndOfTheRedactedStartIsNotShown() {
        let limit = 200
        // Whitespace collapses, so the excerpt reaches as far as the cut.
        for offset in 0..<40 {
            let lead = String(repeating: " \n", count: (limit * 8) / 2 + offset * 3)
            let text = lead + secret + String(repeating: "x", count: 60_000)
            let excerpt = ResponseExcerpt.make(text, limit: limit, redacting: [secret])
            #expect(!excerpt.contains("s3c"), "offset \(offset): \(excerpt)")
            #expect(!excerpt.contains("et key"), "offset \(offset): \(excerpt)")
        }
    }

    @Test func longTextIsRedactedAndCut() {
        let text = "Error for \(secret): " + String(repeating: "details ", count: 8_000)
        let excerpt = ResponseExcerpt.make(text, limit: 80, redacting: [secret])
        #expect(excerpt.hasPrefix("Error for [redacted]: details"))
        #expect(excerpt.hasSuffix("…"))
        #expect(excerpt.count <= 81)
    }

    @Test func shortTextIsWhole() {
        let excerpt = ResponseExcerpt.make("bad key \(secret) given", limit: 80, redacting: [secret])
        #expect(excerpt == "bad key [redacted] given")
    }
}
