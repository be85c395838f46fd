import Foundation
import Testing
@testable import FlickrKit

/// A search is parsed once into a value; every layer below takes it as is.
@Suite struct SearchQueryTests {
    @Test(arguments: ["", " ", " \n\t ", "\u{3000}"])
    func textWithoutWordsIsNoSearch(_ input: String) {
        #expect(SearchQuery(input) == nil)
    }

    @Test(arguments: [
        ("kittens", "kittens"),
        ("  red   car \n", "red car"),
        ("lighthouse\t-night", "lighthouse -night"),
        ("東京 タワー", "東京 タワー"),
    ])
    func wordsAreSeparatedBySingleSpaces(_ input: String, _ text: String) throws {
        #expect(try #require(SearchQuery(input)).text == text)
    }

    @Test func wordsFromTheCommandLineJoin() throws {
        #expect(try #require(SearchQuery(words: ["mountain", " lake "])).text == "mountain lake")
        #expect(SearchQuery(words: [" ", ""]) == nil)
    }

    @Test func headersQuoteTheText() throws {
        #expect(try #require(SearchQuery("red car")).description == "“red car”")
    }

    @Test func aSavedQueryRoundTrips() throws {
        let query = try #require(SearchQuery("red car"))
        let data = try JSONEncoder().encode(query)
        #expect(String(decoding: data, as: UTF8.self) == #"{"text":"red car"}"#)
        #expect(try JSONDecoder().decode(SearchQuery.self, from: data) == query)
    }

    /// Sessions saved when a search was a bare string still load.
    @Test func aBareStringFromAnOlderSessionLoads() throws {
        let decoded = try JSONDecoder().decode([SearchQuery].self, from: Data(#"["  old   words "]"#.utf8))
        #expect(decoded.map(\.text) == ["old words"])
    }

    @Test func anEmptySavedQueryIsRefused() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([SearchQuery].self, from: Data(#"[{"text":"  "}]"#.utf8)) }
    }
}
