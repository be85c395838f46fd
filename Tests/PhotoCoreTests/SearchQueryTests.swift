import Foundation
import Testing
@testable import PhotoCore

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
        #expect(try #require(try SearchQuery.parse(words: ["mountain", " lake "])).text == "mountain lake")
        #expect(try SearchQuery.parse(words: [" ", ""]) == nil)
    }

    @Test func headersQuoteTheTextAndNameTheFilters() throws {
        #expect(try #require(SearchQuery("red car")).description == "“red car”")
        let filtered = try #require(try SearchQuery.parse("lighthouse license:cc0,pdm sort:newest"))
        #expect(filtered.description == "“lighthouse” · CC0, PDM · newest")
        #expect(filtered.typed == "lighthouse license:cc0,pdm sort:newest")
    }

    @Test func filtersRoundTripThroughTheSessionFile() throws {
        let query = try #require(try SearchQuery.parse("harbour taken:2020..2022 user:ana tag:a,b tags:all near:51.5,-0.12,5km safe:off"))
        let decoded = try JSONDecoder().decode(SearchQuery.self, from: try JSONEncoder().encode(query))
        #expect(decoded == query)
        #expect(decoded.filters.taken?.description == "2020..2022")
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
