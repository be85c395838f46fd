import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking

/// Requests built by `FlickrProvider`, read back parameter by parameter, and
/// the URLs it derives for images and photo pages.
@Suite struct FlickrRequestTests {
    /// Building requests needs a provider, which needs a manager; this one is
    /// never used to send anything and lives for the whole test run (an
    /// HTTPClient must be shut down before it is released).
    static let idleNetwork = NetworkManager()

    private let provider = FlickrProvider(apiKey: "k3y", network: FlickrRequestTests.idleNetwork)

    /// Every size the app may show, with dimensions, plus owner name, date
    /// taken and the original's dimensions (for the aspect ratio).
    static let extras = "url_q,url_t,url_s,url_n,url_w,url_m,url_z,url_c,url_l,url_h,url_k,owner_name,date_taken,date_upload,o_dims,license,path_alias,tags"

    private func parameters(_ url: URL) throws -> [String: String] {
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let items = try #require(components.queryItems)
        var result: [String: String] = [:]
        for item in items {
            #expect(result[item.name] == nil, "\(item.name) appears twice")
            result[item.name] = item.value
        }
        return result
    }

    @Test func searchRequestCarriesEveryParameter() throws {
        let url = try provider.searchRequestURL(.typed("kittens"), page: 2, perPage: 30)
        #expect(url.scheme == "https")
        #expect(url.host == "api.flickr.com")
        #expect(url.path == "/services/rest/" || url.path == "/services/rest")
        #expect(try parameters(url) == [
            "method": "flickr.photos.search",
            "api_key": "k3y",
            "format": "json",
            "nojsoncallback": "1",
            "text": "kittens",
            "sort": "relevance",
            "safe_search": "1",
            "content_type": "1",
            "media": "photos",
            "extras": FlickrRequestTests.extras,
            "page": "2",
            "per_page": "30",
        ])
    }

    @Test func recentRequestCarriesEveryParameter() throws {
        let url = try provider.recentRequestURL(page: 1, perPage: 100)
        #expect(try parameters(url) == [
            "method": "flickr.photos.getRecent",
            "api_key": "k3y",
            "format": "json",
            "nojsoncallback": "1",
            "extras": FlickrRequestTests.extras,
            "page": "1",
            "per_page": "100",
        ])
    }

    @Test func echoRequestNamesTheMethod() throws {
        let url = try provider.requestURL(method: "flickr.test.echo", parameters: [])
        #expect(try parameters(url)["method"] == "flickr.test.echo")
    }

    @Test func multiWordQueryIsPercentEncoded() throws {
        let url = try provider.searchRequestURL(.typed("red car"), page: 1, perPage: 10)
        let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        #expect(query.contains("text=red%20car"))
        #expect(try parameters(url)["text"] == "red car")
    }

    @Test func nonASCIIQueryIsPercentEncodedAsUTF8() throws {
        let url = try provider.searchRequestURL(.typed("gâteau 猫"), page: 1, perPage: 10)
        let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        #expect(query.contains("text=g%C3%A2teau%20%E7%8C%AB"))
        #expect(try parameters(url)["text"] == "gâteau 猫")
    }

    /// `+` would reach a form decoder as a space, `&` and `=` would split the
    /// query; all three must arrive as themselves.
    @Test func reservedCharactersInQuerySurviveTheRoundTrip() throws {
        let url = try provider.searchRequestURL(.typed("c++ & r=2 #1 100%"), page: 1, perPage: 10)
        let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        let text = try #require(query.split(separator: "&").first { $0.hasPrefix("text=") })
        #expect(!text.contains("+"))
        #expect(!text.dropFirst(5).contains("="))
        #expect(try parameters(url)["text"] == "c++ & r=2 #1 100%")
    }

    @Test func queryIsTrimmed() throws {
        #expect(try parameters(provider.searchRequestURL(.typed("  beach \n"), page: 1, perPage: 10))["text"] == "beach")
    }

    @Test func endpointPathAndPortAreKept() throws {
        let endpoint = try #require(URL(string: "http://127.0.0.1:8123/services/rest/"))
        let local = FlickrProvider(apiKey: "k", endpoint: endpoint, network: Self.idleNetwork)
        let url = try local.searchRequestURL(.typed("sunset"), page: 1, perPage: 5)
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:8123/services/rest/?"))
    }

    @Test(arguments: [0, -1, 501])
    func perPageOutsideOneToFiveHundredIsRefused(_ perPage: Int) throws {
        let error = try #require(throws: FlickrError.self) { try provider.searchRequestURL(.typed("x"), page: 1, perPage: perPage) }
        #expect(error.description == "Photos per page must be between 1 and 500 (got \(perPage)).")
        #expect(throws: FlickrError.self) { try provider.recentRequestURL(page: 1, perPage: perPage) }
    }

    @Test func perPageLimitsAreAccepted() throws {
        _ = try provider.searchRequestURL(.typed("x"), page: 1, perPage: 1)
        _ = try provider.searchRequestURL(.typed("x"), page: 1, perPage: 500)
    }

    @Test(arguments: [0, -3])
    func pageBelowOneIsRefused(_ page: Int) throws {
        let error = try #require(throws: FlickrError.self) { try provider.searchRequestURL(.typed("x"), page: page, perPage: 10) }
        #expect(error.description == "The page number must be 1 or more (got \(page)).")
    }

    /// Validation happens before the network is touched: an endpoint where
    /// nothing could answer still gives the validation error.
    @Test func invalidSearchFailsWithoutSending() async throws {
        let nowhere = FlickrProvider(apiKey: "k", endpoint: try #require(URL(string: "http://127.0.0.1:1/")), network: Self.idleNetwork)
        await #expect(throws: FlickrError.invalidRequest("Photos per page must be between 1 and 500 (got 0).")) {
            try await nowhere.search(.typed("x"), page: 1, perPage: 0)
        }
    }

    @Test func maxResultsIsFlickrsCap() {
        #expect(provider.maxResults == 4_000)
        #expect(provider.lastServedPage(pages: 900, perPage: 30) == 134)
    }

    // MARK: - Image and page URLs

    private let photo = Photo(id: "53624890009", owner: "105731165@N07", secret: "5cd918efcd", server: "65535", farm: 66, title: "x")

    @Test func imageURLPrefersTheURLFlickrSent() throws {
        var sent = photo
        let url = try #require(URL(string: "https://elsewhere.test/q.jpg"))
        sent.images[.square150] = PhotoImage(url: url, width: 150, height: 150)
        #expect(provider.imageURL(for: sent, size: .square150) == url)
    }

    @Test func imageURLIsBuiltFromServerIdAndSecret() {
        #expect(provider.imageURL(for: photo, size: .square150)?.absoluteString
                == "https://live.staticflickr.com/65535/53624890009_5cd918efcd_q.jpg")
        #expect(provider.imageURL(for: photo, size: .large1024)?.absoluteString
                == "https://live.staticflickr.com/65535/53624890009_5cd918efcd_b.jpg")
    }

    @Test func imageURLOfThe500SizeHasNoSuffix() {
        #expect(provider.imageURL(for: photo, size: .medium500)?.absoluteString
                == "https://live.staticflickr.com/65535/53624890009_5cd918efcd.jpg")
    }

    @Test func imageURLUsesTheConfiguredImageHost() throws {
        let local = FlickrProvider(apiKey: "k", imageHost: URL(string: "http://127.0.0.1:8123"), network: Self.idleNetwork)
        #expect(local.imageURL(for: photo, size: .square75)?.absoluteString
                == "http://127.0.0.1:8123/65535/53624890009_5cd918efcd_s.jpg")
    }

    @Test func imageURLRefusesPathCharactersFromTheServer() {
        var hostile = photo
        hostile.server = "../../etc"
        #expect(provider.imageURL(for: hostile, size: .square150) == nil)
    }

    @Test func photoPageURLUsesOwnerAndId() {
        #expect(provider.photoPageURL(for: photo)?.absoluteString
                == "https://www.flickr.com/photos/105731165@N07/53624890009/")
    }

    @Test func photoPageURLNeedsAnOwner() {
        var ownerless = photo
        ownerless.owner = ""
        #expect(provider.photoPageURL(for: ownerless) == nil)
    }
}
