import Foundation
import Testing
@testable import FlickrService

/// A photo's page address is built from the owner and id a server sent, so
/// only the characters Flickr's ids are made of may reach its path.
@Suite struct FlickrPageURLTests {
    /// The rule in words: ASCII letters and digits, "@", "_" and "-".
    private static func allowed(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy {
            ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "@_-".unicodeScalars.contains($0)
        }
    }

    @Test func ownersAndIDsOfFlickrsShapeMakeAPage() throws {
        let url = try #require(FlickrProvider.photoPageURL(owner: "12037949754@N01", photoID: "53279607047"))
        #expect(url.absoluteString == "https://www.flickr.com/photos/12037949754@N01/53279607047/")
        #expect(FlickrProvider.photoPageURL(owner: "the_path-alias", photoID: "1") != nil)
    }

    @Test func anythingElseMakesNoPage() {
        for hostile in ["", "..", "a/b", "a b", "a?b", "a#b", "a%2F", "٣", "Ａ", "é", "a\u{0}", "a\nb", "\u{202E}x", "a.b"] {
            #expect(FlickrProvider.photoPageURL(owner: hostile, photoID: "1") == nil, "owner \(hostile.debugDescription)")
            #expect(FlickrProvider.photoPageURL(owner: "1@N01", photoID: hostile) == nil, "id \(hostile.debugDescription)")
        }
    }

    /// Generated strings from a pool that mixes the allowed characters with
    /// their look-alikes: the byte check agrees with the rule in words.
    @Test func theCheckAgreesWithTheRuleOnGeneratedText() {
        var generator = SeededGenerator(seed: 0x5A6E)
        let pool: [Character] = ["a", "Z", "0", "9", "@", "_", "-", "/", ".", " ", "%", "٣", "Ａ", "é", "\u{0}", "\u{7F}", "ß", "𝟗", "\u{301}"]
        for index in 0..<ParserPropertyTests.cases {
            let text = String((0..<Int.random(in: 0...6, using: &generator)).map { _ in generator.pick(pool) })
            #expect(FlickrProvider.isPathSafe(text) == Self.allowed(text), "case \(index): \(text.debugDescription)")
        }
    }
}
