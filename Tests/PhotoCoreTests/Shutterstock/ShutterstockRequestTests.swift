import Foundation
import Testing
@testable import PhotoCore
@testable import ShutterstockService
@testable import Networking

/// Search URLs and headers, read back parameter by parameter.
@Suite struct ShutterstockRequestTests {
    /// Never sends anything; lives for the whole run (an HTTPClient must be
    /// shut down before it is released).
    static let idleNetwork = NetworkManager()

    private func provider(
        _ credentials: ShutterstockCredentials? = nil, base: URL = ShutterstockProvider.defaultBaseURL
    ) throws -> ShutterstockProvider {
        ShutterstockProvider(credentials: try credentials ?? .token("t0ken"), baseURL: base, network: Self.idleNetwork)
    }

    /// The query as (name, value) pairs in the order sent.
    private func pairs(_ url: URL) throws -> [[String]] {
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        return try #require(components.queryItems).map { [$0.name, $0.value ?? ""] }
    }

    @Test func searchAsksForPopularSafeMinimalResults() throws {
        let url = try provider().searchRequest(.typed("kittens"), page: 2, perPage: 30).url(base: ShutterstockProvider.defaultBaseURL)
        #expect(url.scheme == "https")
        #expect(url.host == "api.shutterstock.com")
        #expect(url.path == "/v2/images/search")
        #expect(try pairs(url) == [
            ["query", "kittens"], ["page", "2"], ["per_page", "30"], ["sort", "popular"],
            ["view", "minimal"], ["safe", "true"],
        ])
    }

    @Test func recentIsAnUnqueriedSearchByNewest() throws {
        let url = try provider().recentRequest(page: 1, perPage: 50).url(base: ShutterstockProvider.defaultBaseURL)
        #expect(try pairs(url) == [
            ["page", "1"], ["per_page", "50"], ["sort", "newest"], ["view", "minimal"], ["safe", "true"],
        ])
    }

    @Test func perPageDefaultsToTwenty() throws {
        let request = ShutterstockSearchRequest(query: "sea")
        #expect(request.perPage == 20)
        #expect(try pairs(request.url(base: ShutterstockProvider.defaultBaseURL)).contains(["per_page", "20"]))
    }

    @Test func arraysRepeatTheirParameter() throws {
        let request = ShutterstockSearchRequest(
            query: "hiking", perPage: 10, sort: .relevance, imageTypes: [.photo, .vector], orientation: .vertical, safe: false)
        let url = try request.url(base: ShutterstockProvider.defaultBaseURL)
        #expect(try pairs(url) == [
            ["query", "hiking"], ["page", "1"], ["per_page", "10"], ["sort", "relevance"],
            ["image_type", "photo"], ["image_type", "vector"], ["orientation", "vertical"],
            ["view", "minimal"], ["safe", "false"],
        ])
        #expect(url.query?.contains("image_type=photo&image_type=vector") == true)
    }

    @Test func excludedWordsUseShutterstocksNOT() throws {
        let url = try provider().searchRequest(.typed("  cat -dog  (red OR blue) - "), page: 1, perPage: 5).url(base: ShutterstockProvider.defaultBaseURL)
        #expect(try pairs(url).first == ["query", "cat NOT dog (red OR blue) -"])
    }

    @Test func plusSignsAndSpacesAreEncoded() throws {
        let url = try ShutterstockSearchRequest(query: "c++ code").url(base: ShutterstockProvider.defaultBaseURL)
        #expect(url.absoluteString.contains("query=c%2B%2B%20code"))
        #expect(try pairs(url).first == ["query", "c++ code"])
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v2/images/search"),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/v2/images/search"),
        ("https://proxy.example/shutterstock/", "https://proxy.example/shutterstock/v2/images/search"),
        ("https://proxy.example/shutterstock", "https://proxy.example/shutterstock/v2/images/search"),
    ])
    func baseURLKeepsItsPathPrefix(_ base: String, _ expected: String) throws {
        let url = try ShutterstockSearchRequest(query: "x").url(base: try #require(URL(string: base)))
        #expect(url.absoluteString.hasPrefix(expected + "?"))
    }

    @Test(arguments: ["ftp://api.shutterstock.com", "file:///tmp/search", "api.shutterstock.com"])
    func unusableBaseURLIsRefusedBeforeSending(_ base: String) throws {
        let error = try #require(throws: ShutterstockError.self) {
            try ShutterstockSearchRequest(query: "x").url(base: try #require(URL(string: base)))
        }
        #expect(error.description.contains("--api-url"))
    }

    @Test(arguments: [(1, 0), (1, 501), (0, 20), (-3, 20)])
    func outOfRangePagingIsRefused(_ page: Int, _ perPage: Int) throws {
        #expect(throws: ShutterstockError.self) {
            try ShutterstockSearchRequest(query: "x", page: page, perPage: perPage).url(base: ShutterstockProvider.defaultBaseURL)
        }
    }

    @Test func searchSortIsConfigurable() throws {
        let provider = ShutterstockProvider(
            credentials: try .token("t"), network: Self.idleNetwork, searchSort: .newest)
        #expect(try provider.searchRequest(.typed("x"), page: 1, perPage: 1).sort == .newest)
    }

    // MARK: - Headers

    @Test func tokenTravelsAsBearer() throws {
        let headers = try provider(.token("v2/abc.def")).headers
        #expect(headers.first { $0.0 == "Authorization" }?.1 == "Bearer v2/abc.def")
        #expect(headers.first { $0.0 == "Accept" }?.1 == "application/json")
    }

    @Test func keyAndSecretTravelAsBasic() throws {
        let headers = try provider(.key("my-key", secret: "my-secret")).headers
        // base64("my-key:my-secret"), worked out with `base64(1)`.
        #expect(headers.first { $0.0 == "Authorization" }?.1 == "Basic bXkta2V5Om15LXNlY3JldA==")
    }

    @Test func theCredentialsNeverEnterTheURL() throws {
        let url = try provider(.key("my-key", secret: "my-secret")).searchRequest(.typed("x"), page: 1, perPage: 1)
            .url(base: ShutterstockProvider.defaultBaseURL)
        #expect(!url.absoluteString.contains("my-key") && !url.absoluteString.contains("my-secret"))
    }

    // MARK: - Provider facts

    @Test func providerDescribesItself() throws {
        let provider = try provider()
        #expect(provider.displayName == "Shutterstock")
        #expect(provider.maxResults == nil)
        #expect(provider.lastServedPage(pages: 12_345, perPage: 20) == 12_345)
        let sandbox = ShutterstockProvider(credentials: try .token("t"), network: Self.idleNetwork, displayName: "sandbox")
        #expect(sandbox.displayName == "sandbox")
    }
}
