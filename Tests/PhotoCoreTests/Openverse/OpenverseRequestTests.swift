import Foundation
import Testing
@testable import PhotoCore
@testable import Networking
@testable import OpenverseService

/// The URL of `GET /v1/images/` for each kind of search.
@Suite struct OpenverseRequestTests {
    private let base = URL(string: "https://api.openverse.org")!

    private func items(_ url: URL) -> [[String]] {
        (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { [$0.name, $0.value ?? ""] }
    }

    @Test func plainSearchSendsQueryPageAndPageSize() throws {
        let url = try OpenverseSearchRequest(query: "cat", page: 3, perPage: 20).url(base: base)
        #expect(url.absoluteString == "https://api.openverse.org/v1/images/?q=cat&page=3&page_size=20")
    }

    @Test func plusAndSpacesAndUnicodeAreEncoded() throws {
        let url = try OpenverseSearchRequest(query: "c++ & sea gulls é", page: 1, perPage: 5).url(base: base)
        let query = try #require(url.query(percentEncoded: true))
        #expect(query.hasPrefix("q=c%2B%2B%20%26%20sea%20gulls%20%C3%A9&"), "\(query)")
        #expect(items(url).first == ["q", "c++ & sea gulls é"])
    }

    @Test func everyFilterIsSentInItsAPIForm() throws {
        let filters = OpenverseFilters(
            licenses: [.by, .bySA, .cc0], licenseType: .commercial, category: .digitizedArtwork, aspectRatio: .tall,
            creator: nil, sources: ["flickr", " nasa "], extensions: ["jpg", "png"], mature: false)
        let url = try OpenverseSearchRequest(query: "birds", page: 2, perPage: 10, filters: filters).url(base: base)
        #expect(items(url) == [
            ["q", "birds"], ["page", "2"], ["page_size", "10"], ["license", "by,by-sa,cc0"],
            ["license_type", "commercial"], ["category", "digitized_artwork"], ["aspect_ratio", "tall"],
            ["source", "flickr,nasa"], ["extension", "jpg,png"], ["mature", "false"],
        ])
    }

    @Test func creatorSearchSendsNoQ() throws {
        let filters = OpenverseFilters(creator: "strogoscope/ photographer ? creator")
        let url = try OpenverseSearchRequest(query: "", page: 1, perPage: 20, filters: filters).url(base: base)
        #expect(items(url) == [["page", "1"], ["page_size", "20"], ["creator", "strogoscope/ photographer ? creator"]])
    }

    @Test func wordsAndACreatorTogetherAreRefused() throws {
        let request = OpenverseSearchRequest(query: "cat", filters: OpenverseFilters(creator: "strogoscope"))
        let error = try #require(throws: OpenverseError.self) { try request.url(base: base) }
        #expect(error.description.contains("not both"))
    }

    @Test func aBasePathIsKept() throws {
        let proxied = try #require(URL(string: "http://127.0.0.1:8080/openverse/"))
        let url = try OpenverseSearchRequest(query: "x", page: 1, perPage: 1).url(base: proxied)
        #expect(url.absoluteString == "http://127.0.0.1:8080/openverse/v1/images/?q=x&page=1&page_size=1")
    }

    @Test func anonymousPagesAreAtMostTwentyAndTheErrorSaysWhatToDo() throws {
        #expect(throws: Never.self) { try OpenverseSearchRequest(query: "x", perPage: 20).url(base: base) }
        let error = try #require(throws: OpenverseError.self) { try OpenverseSearchRequest(query: "x", perPage: 21).url(base: base) }
        #expect(error.description.contains("use --per-page 20 or set OPENVERSE_CLIENT_ID and OPENVERSE_CLIENT_SECRET"))
        #expect(throws: Never.self) { try OpenverseSearchRequest(query: "x", perPage: 500).url(base: base, authenticated: true) }
        #expect(throws: OpenverseError.self) { try OpenverseSearchRequest(query: "x", perPage: 501).url(base: base, authenticated: true) }
        #expect(throws: OpenverseError.self) { try OpenverseSearchRequest(query: "x", perPage: 0).url(base: base) }
    }

    @Test func badPagesQueriesAndAddressesAreRefusedBeforeSending() throws {
        #expect(throws: OpenverseError.self) { try OpenverseSearchRequest(query: "x", page: 0).url(base: base) }
        #expect(throws: OpenverseError.self) {
            try OpenverseSearchRequest(query: String(repeating: "a", count: 201)).url(base: base)
        }
        let ftp = try #require(URL(string: "ftp://api.openverse.org"))
        let error = try #require(throws: OpenverseError.self) { try OpenverseSearchRequest(query: "x").url(base: ftp) }
        #expect(error.description.contains("OPENVERSE_API_URL"))
    }

    @Test func displayNameNamesAnotherHost() {
        #expect(OpenverseProvider.displayName(for: base) == "Openverse")
        #expect(OpenverseProvider.displayName(for: URL(string: "http://127.0.0.1:9000")!) == "Openverse at 127.0.0.1")
    }

    @Test func tokenFormIsPercentEncoded() throws {
        let credentials = try OpenverseCredentials(clientID: "id one", clientSecret: "s+e&c=r/t")
        #expect(NetworkManager.formEncoded(credentials.tokenForm)
            == "client_id=id%20one&client_secret=s%2Be%26c%3Dr%2Ft&grant_type=client_credentials")
    }
}
