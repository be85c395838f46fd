import Foundation
import Testing
@testable import PhotoCore
@testable import Networking
@testable import OpenverseService

/// Bodies no recording holds: what a proxy, a mirror or a broken server
/// might send. One bad field costs that field, one bad result that result,
/// never the page; a body that is no search answer says what it was.
@Suite struct OpenverseDecoderTests {
    private func decode(_ text: String) throws(OpenverseError) -> OpenverseSearchResults {
        try OpenverseResponseDecoder.decodeSearch(Data(text.utf8))
    }

    private static let uuid = "4bc43a04-ef46-4544-a0c1-63c63f56e276"

    @Test func numbersAsStringsAreRead() throws {
        let results = try decode(#"{"result_count":"240","page_count":"12","page_size":"20","page":"2","results":[{"id":"\#(Self.uuid)","width":"1024","height":"768","mature":"false"}]}"#)
        #expect(results.resultCount == 240 && results.pageCount == 12 && results.pageSize == 20 && results.page == 2)
        #expect(results.images.first?.width == 1024)
        #expect(results.images.first?.height == 768)
        #expect(results.images.first?.mature == false)
    }

    @Test func hugeNumbersAreClampedNotTrapped() throws {
        let results = try decode(#"{"result_count":9223372036854775808,"page_count":"99999999999999999999999","page_size":20,"page":1,"results":[{"id":"\#(Self.uuid)","width":1e300,"height":-5}]}"#)
        #expect(results.resultCount == Int.max)
        #expect(results.pageCount == Int.max)
        let image = try #require(results.images.first)
        #expect(image.width == Int.max)
        #expect(image.height == nil, "a negative height is not a size")
        #expect(results.skippedFields == 1)
        // Nothing downstream overflows either.
        let page = OpenverseProvider.page(from: results, authenticated: true)
        #expect(page.pages == Int.max && page.total == Int.max)
        #expect(OpenverseProvider.photo(from: image).aspectRatio == nil)
    }

    @Test func nullsAndMissingKeysAreMissingFields() throws {
        let results = try decode(#"{"result_count":1,"page_count":1,"page_size":20,"page":1,"results":[{"id":"\#(Self.uuid)","title":null,"creator":null,"url":null,"tags":null,"license":null}]}"#)
        let image = try #require(results.images.first)
        #expect(image.title == "")
        #expect(image.creator == nil && image.url == nil && image.license == nil && image.tags.isEmpty)
        #expect(results.skippedFields == 0, "null is absence, not a wrong type")
    }

    @Test func wrongTypesSkipTheFieldAndCountIt() throws {
        let results = try decode(#"{"result_count":1,"page_count":1,"page_size":20,"page":1,"results":[{"id":"\#(Self.uuid)","title":["not","text"],"creator":{"name":"x"},"url":"javascript:alert(1)","thumbnail":42,"width":true,"tags":"cat","license":"by","license_version":2.0}]}"#)
        let image = try #require(results.images.first)
        #expect(image.title == "" && image.creator == nil && image.url == nil && image.thumbnail == nil && image.width == nil)
        #expect(image.tags.isEmpty)
        #expect(image.licenseTerms?.shortName == "CC BY 2.0")
        #expect(results.skippedFields == 6)
    }

    @Test func resultsWithoutAnIdAreSkippedAndCounted() throws {
        let results = try decode(#"{"result_count":4,"page_count":1,"page_size":20,"page":1,"results":[{"title":"no id"},"garbage",null,{"id":"  "},{"id":"a/../b"},{"id":"\#(Self.uuid)","title":"kept"}]}"#)
        #expect(results.images.map(\.title) == ["kept"])
        #expect(results.skippedResults == 5)
    }

    @Test func missingCountsFallBackToThePage() throws {
        let results = try decode(#"{"results":[{"id":"\#(Self.uuid)"}]}"#)
        #expect(results.page == 1 && results.pageSize == 1 && results.resultCount == 1 && results.pageCount == 1)
        let empty = try decode(#"{"results":null,"page":"x"}"#)
        #expect(empty.images.isEmpty && empty.page == 1 && empty.pageCount == 0)
    }

    @Test(arguments: [
        ("", "empty"),
        ("   \n", "empty"),
        ("<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad gateway</h1></body></html>", "Bad gateway"),
        ("{\"result_count\": 3, \"results\": [", "not valid JSON"),
        ("\u{FF}\u{FE}garbage", "not valid JSON"),
        ("[1,2,3]", "a list, not an object"),
        ("{\"detail\": \"Not found.\"}", "“Not found.”"),
        ("{\"page\": 1}", "no `results` list"),
        ("{\"results\": {\"id\": 1}}", "`results` is an object"),
    ])
    func bodiesThatAreNoSearchAnswerSayWhatTheyWere(_ body: String, _ expected: String) throws {
        let error = try #require(throws: OpenverseError.self) { try decode(body) }
        guard case .malformedResponse = error else {
            Issue.record("expected .malformedResponse, got \(error)")
            return
        }
        #expect(error.description.contains(expected), "\(error.description)")
        #expect(error.description.hasPrefix("Openverse's answer could not be read"))
    }

    @Test func deeplyNestedGarbageIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        #expect(throws: OpenverseError.self) { try decode(#"{"results":"# + deep + "}") }
    }

    @Test func licenceShortNames() {
        #expect(LicenseTable.openverse(slug: "by", version: "2.0", url: nil)?.shortName == "CC BY 2.0")
        #expect(LicenseTable.openverse(slug: "by-nc-sa", version: "4.0", url: nil)?.shortName == "CC BY-NC-SA 4.0")
        #expect(LicenseTable.openverse(slug: "cc0", version: "1.0", url: nil)?.shortName == "CC0 1.0")
        #expect(LicenseTable.openverse(slug: "pdm", version: "1.0", url: nil)?.shortName == "PDM 1.0")
        #expect(LicenseTable.openverse(slug: "by", version: nil, url: nil)?.shortName == "CC BY 4.0", "Openverse's current version when none is sent")
        #expect(LicenseTable.openverse(slug: "", version: "1.0", url: nil) == nil)
    }

    @Test func singleImageDecodes() throws {
        let image = try OpenverseResponseDecoder.decodeImage(Data(#"{"id":"\#(Self.uuid)","title":"Pier","tags":[{"name":"sea"},{"accuracy":0.9},{"name":"pier"}]}"#.utf8))
        #expect(image.title == "Pier")
        #expect(image.tags == ["sea", "pier"])
        #expect(throws: OpenverseError.self) { try OpenverseResponseDecoder.decodeImage(Data(#"{"detail":"Not found."}"#.utf8)) }
    }
}
