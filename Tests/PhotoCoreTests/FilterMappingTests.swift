import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking
@testable import ShutterstockService

/// Each provider's mapping of the filters, read back from the request.
@Suite struct FilterMappingTests {
    static let idleNetwork = NetworkManager()

    private func query(_ text: String) throws -> SearchQuery {
        try #require(try SearchQuery.parse(text))
    }

    private func flickrParameters(_ text: String, userID: String? = nil) throws -> [String: String] {
        let provider = FlickrProvider(apiKey: "k", network: Self.idleNetwork)
        let url = try provider.searchRequestURL(try query(text), page: 1, perPage: 10, userID: userID)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    @Test func flickrTakesLicenceIdsFromTheTable() throws {
        #expect(try flickrParameters("x license:by")["license"] == "4,11")
        #expect(try flickrParameters("x license:cc0,pdm")["license"] == "9,10")
        #expect(try flickrParameters("x license:cc")["license"] == "1,2,3,4,5,6,9,11,12,13,14,15,16")
        #expect(try flickrParameters("x license:commercial")["license"] == "4,5,6,7,8,9,10,11,12,13")
    }

    @Test(arguments: [
        ("relevant", "relevance"), ("interesting", "interestingness-desc"), ("newest", "date-posted-desc"),
        ("oldest", "date-posted-asc"), ("taken-newest", "date-taken-desc"), ("taken-oldest", "date-taken-asc"),
    ])
    func flickrSorts(_ sort: String, _ flickr: String) throws {
        #expect(try flickrParameters("x sort:\(sort)")["sort"] == flickr)
    }

    @Test func flickrDatesPlacesTagsAndSafety() throws {
        let parameters = try flickrParameters(
            "taken:2020..2022 uploaded:2024-01 tag:red,blue tags:all near:48.85,2.35,3km safe:off type:illustration",
            userID: "12345678@N00")
        #expect(parameters["text"] == nil, "filters alone send no text")
        #expect(parameters["min_taken_date"] == "2020-01-01 00:00:00")
        #expect(parameters["max_taken_date"] == "2022-12-31 23:59:59")
        #expect(parameters["min_upload_date"] == "1704067200")
        #expect(parameters["max_upload_date"] == "1706745599")
        #expect(parameters["tags"] == "red,blue" && parameters["tag_mode"] == "all")
        #expect(parameters["lat"] == "48.85" && parameters["lon"] == "2.35" && parameters["radius"] == "3")
        #expect(parameters["radius_units"] == "km")
        #expect(parameters["safe_search"] == "3" && parameters["content_type"] == "3")
        #expect(parameters["user_id"] == "12345678@N00")
        #expect(try flickrParameters("x bbox:-1,50,2,52")["bbox"] == "-1,50,2,52")
    }

    @Test func flickrRefusesWhatItCannotDo() throws {
        let provider = FlickrProvider(apiKey: "k", network: Self.idleNetwork)
        let orientation = try #require(throws: FlickrError.self) {
            try provider.searchRequestURL(try query("x orientation:square"), page: 1, perPage: 10)
        }
        #expect(orientation.description.contains("Flickr cannot filter by orientation:; it supports license:"))
        let vector = try #require(throws: FlickrError.self) {
            try provider.searchRequestURL(try query("x type:vector"), page: 1, perPage: 10)
        }
        #expect(vector.description == "Flickr has no vector images; it has type:photo and type:illustration.")
    }

    @Test(arguments: [("12345678@N00", true), ("35034347371@N01", true), ("ana", false), ("12@N", false), ("@N00", false)])
    func nsidsAreRecognised(_ text: String, _ isNSID: Bool) {
        #expect(FlickrProvider.isNSID(text) == isNSID)
    }

    private func shutterstockPairs(_ text: String) throws -> [String: String] {
        let provider = ShutterstockProvider(credentials: try .token("t"), network: Self.idleNetwork)
        let request = try provider.searchRequest(try query(text), page: 1, perPage: 20)
        return Dictionary(request.parameters.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func shutterstockMapsItsFilters() throws {
        let pairs = try shutterstockPairs("forest sort:newest uploaded:2023..2024-06 user:12345 type:vector orientation:portrait safe:off")
        #expect(pairs["sort"] == "newest")
        #expect(pairs["added_date_start"] == "2023-01-01" && pairs["added_date_end"] == "2024-06-30")
        #expect(pairs["contributor"] == "12345")
        #expect(pairs["image_type"] == "vector" && pairs["orientation"] == "vertical" && pairs["safe"] == "false")
        #expect(try shutterstockPairs("x sort:interesting")["sort"] == "popular")
    }

    @Test(arguments: [
        ("x license:cc0", "Shutterstock cannot filter by license:; it supports sort:, uploaded:, user:, type:, orientation: and safe:."),
        ("x orientation:square", "Shutterstock cannot filter square images"),
        ("x sort:oldest", "Shutterstock cannot sort by oldest"),
        ("x near:1,2", "Shutterstock cannot filter by near:"),
    ])
    func shutterstockRefusesWhatItCannotDo(_ text: String, _ message: String) throws {
        let provider = ShutterstockProvider(credentials: try .token("t"), network: Self.idleNetwork)
        let error = try #require(throws: ShutterstockError.self) { try provider.searchRequest(try query(text), page: 1, perPage: 20) }
        #expect(error.description.contains(message), "\(error.description)")
    }
}
