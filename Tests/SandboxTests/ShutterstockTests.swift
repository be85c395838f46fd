import PhotoCore
import Foundation
import Sandbox
import Testing

/// `GET /v2/images/search` and `POST /v2/oauth/access_token` over the catalog.
@Suite struct ShutterstockTests {
    static let basic = "Basic " + Data("key:secret".utf8).base64EncodedString()

    private func search(_ server: SandboxServer, _ query: [(String, String)], authorization: String? = basic) async throws -> HTTPAnswer {
        var components = URLComponents(url: server.baseURL.appendingPathComponent("v2/images/search"), resolvingAgainstBaseURL: false)
        components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        let url = try #require(components?.url)
        return try await http(.GET, url, headers: authorization.map { [("Authorization", $0)] } ?? [])
    }

    @Test func searchAnswersShutterstocksCurrentShape() async throws {
        try await withSandbox { server, network in
            let answer = try await search(server, [("query", "kittens"), ("per_page", "3")])
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "content-type") == "application/json; charset=utf8")
            #expect(answer.text.hasPrefix("{\"total_count\":"))
            let response = try answer.json()
            #expect(response["total_count"] as? Int == server.catalog.search(text: "kittens").count)
            #expect(response["page"] as? Int == 1)
            #expect(response["per_page"] as? Int == 3)
            let searchID = try #require(response["search_id"] as? String)
            #expect(searchID.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/) != nil)
            let data = try #require(response["data"] as? [[String: Any]])
            #expect(data.count == 3)
            for item in data {
                let id = try #require(item["id"] as? String)
                let photo = try #require(server.catalog.photo(id: id))
                #expect(item["description"] as? String == photo.title)
                #expect(item["media_type"] as? String == "image")
                #expect(item["image_type"] as? String == "photo")
                #expect((item["contributor"] as? [String: Any])?["id"] as? String == String(photo.owner.prefix { $0 != "@" }))
                let aspect = try #require(item["aspect"] as? Double)
                #expect(abs(aspect - Double(photo.originalWidth) / Double(photo.originalHeight)) < 0.001)
                let assets = try #require(item["assets"] as? [String: Any])
                for name in ["preview", "small_thumb", "large_thumb", "huge_thumb", "preview_1000", "preview_1500"] {
                    let asset = try #require(assets[name] as? [String: Any], "\(name)")
                    let url = try #require((asset["url"] as? String).flatMap(URL.init(string:)))
                    #expect(url.absoluteString.hasPrefix(server.baseURL.absoluteString))
                    let body = try await network.get(url).body
                    let dimensions = try #require(jpegDimensions(body), "\(name)")
                    #expect(dimensions.width == asset["width"] as? Int, "\(name)")
                    #expect(dimensions.height == asset["height"] as? Int, "\(name)")
                }
                #expect((assets["huge_thumb"] as? [String: Any])?["height"] as? Int == 260)
                let longest = (assets["preview"] as? [String: Any]).map { max($0["width"] as? Int ?? 0, $0["height"] as? Int ?? 0) }
                #expect(longest == 450)
            }
        }
    }

    @Test func resultsEqualTheFlickrSearchForTheSameQuery() async throws {
        try await withSandbox { server, network in
            for (query, page) in [("beach", 1), ("beach", 3), ("sunset sea", 1), ("kittens -cat", 2)] {
                let shutterstock = try await search(server, [("query", query), ("page", String(page)), ("per_page", "25")]).json()
                let flickr = try await network.json(server.jsonCall("flickr.photos.search", [
                    "text": query, "page": String(page), "per_page": "25",
                ]))
                let items = shutterstock["data"] as? [[String: Any]] ?? []
                let flickrPhotos = photos(in: flickr)
                #expect(!items.isEmpty)
                #expect(items.compactMap { $0["id"] as? String } == flickrPhotos.compactMap { $0["id"] as? String }, "\(query)")
                #expect(items.compactMap { $0["description"] as? String } == flickrPhotos.compactMap { $0["title"] as? String })
                #expect(shutterstock["total_count"] as? Int == envelope(flickr)["total"] as? Int)
            }
        }
    }

    @Test func pagingDefaultsTo20AndRejectsPerPageAbove500() async throws {
        try await withSandbox { server, _ in
            let first = try await search(server, [("query", "sunset")]).json()
            #expect(first["per_page"] as? Int == 20)
            #expect((first["data"] as? [Any])?.count == 20)
            let all = server.catalog.search(text: "sunset")
            let second = try await search(server, [("query", "sunset"), ("page", "2"), ("per_page", "7")]).json()
            let ids = (second["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(ids == all[7..<14].map { server.catalog.photo(at: $0).id })
            let tooMany = try await search(server, [("query", "sunset"), ("per_page", "501")])
            #expect(tooMany.status == 400)
            #expect(try tooMany.json()["message"] as? String == "Validation failed")
            #expect(try await search(server, [("query", "sunset"), ("per_page", "500")]).status == 200)
        }
    }

    @Test func sortViewSafeAndRepeatedParametersAreUnderstood() async throws {
        try await withSandbox { server, _ in
            func ids(_ parameters: [(String, String)]) async throws -> [String] {
                let response = try await search(server, parameters + [("per_page", "30")]).json()
                return (response["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            }
            let newest = server.catalog.search(text: "beach").prefix(30).map { server.catalog.photo(at: $0).id }
            #expect(try await ids([("query", "beach")]) == newest)
            #expect(try await ids([("query", "beach"), ("sort", "newest")]) == newest)
            let relevance = server.catalog.search(text: "beach", sort: .relevance).prefix(30).map { server.catalog.photo(at: $0).id }
            #expect(try await ids([("query", "beach"), ("sort", "relevance")]) == relevance)
            let random = try await ids([("query", "beach"), ("sort", "random")])
            #expect(random != newest)
            #expect(try await ids([("query", "beach"), ("sort", "random")]) == random)
            #expect(try await ids([("query", "beach"), ("image_type", "photo"), ("image_type", "vector"), ("safe", "true")]) == newest)
            #expect(try await ids([("query", "beach"), ("image_type", "vector"), ("image_type", "illustration")]).isEmpty)
            #expect(try await search(server, [("query", "beach"), ("sort", "loudest")]).status == 400)

            let full = try await search(server, [("query", "beach"), ("view", "full"), ("per_page", "1")]).json()
            let item = try #require((full["data"] as? [[String: Any]])?.first)
            let photo = try #require(server.catalog.photo(id: item["id"] as? String ?? ""))
            #expect(item["keywords"] as? [String] == photo.tags)
            #expect((item["assets"] as? [String: Any])?["huge_jpg"] != nil)
            let minimal = try await search(server, [("query", "beach"), ("per_page", "1")]).json()
            #expect((minimal["data"] as? [[String: Any]])?.first?["keywords"] == nil)
        }
    }

    @Test func missingOrBadCredentialsGet401() async throws {
        try await withSandbox { $0.shutterstockCredentials = ShutterstockClientCredentials(clientID: "key", clientSecret: "secret") } _: { server, _ in
            let wrongBasic = "Basic " + Data("key:nope".utf8).base64EncodedString()
            for authorization in [nil, "", "Bearer ", "Bearer v2/forged", wrongBasic, "Basic !!!", "Digest x"] as [String?] {
                let answer = try await search(server, [("query", "beach")], authorization: authorization)
                #expect(answer.status == 401, "\(authorization ?? "none")")
                let message = try answer.json()["message"] as? String
                #expect(message?.isEmpty == false)
            }
            #expect(try await search(server, [("query", "beach")]).status == 200)
        }
    }

    @Test func clientCredentialsBuyABearerToken() async throws {
        try await withSandbox { $0.shutterstockCredentials = ShutterstockClientCredentials(clientID: "key", clientSecret: "secret") } _: { server, _ in
            let tokenURL = server.baseURL.appendingPathComponent("v2/oauth/access_token")
            let answer = try await http(.POST, tokenURL, form: [
                ("client_id", "key"), ("client_secret", "secret"), ("grant_type", "client_credentials"),
            ])
            #expect(answer.status == 200)
            let body = try answer.json()
            #expect(body["token_type"] as? String == "Bearer")
            let token = try #require(body["access_token"] as? String)
            #expect(token.hasPrefix("v2/"))
            #expect(try await search(server, [("query", "beach")], authorization: "Bearer \(token)").status == 200)

            let refused = try await http(.POST, tokenURL, form: [
                ("client_id", "key"), ("client_secret", "wrong"), ("grant_type", "client_credentials"),
            ])
            #expect(refused.status == 401)
            let badGrant = try await http(.POST, tokenURL, form: [("client_id", "key"), ("client_secret", "secret")])
            #expect(badGrant.status == 400)
        }
    }

    @Test func anyNonEmptyCredentialsPassWhenNoneAreConfigured() async throws {
        try await withSandbox { server, _ in
            #expect(try await search(server, [("query", "owl")], authorization: "Bearer anything").status == 200)
            #expect(try await search(server, [("query", "owl")], authorization: "Basic " + Data("a:b".utf8).base64EncodedString()).status == 200)
            #expect(try await search(server, [("query", "owl")], authorization: "Basic " + Data("a:".utf8).base64EncodedString()).status == 401)
            let unknown = try await http(.GET, server.baseURL.appendingPathComponent("v2/testcake"), headers: [("Authorization", "Bearer x")])
            #expect(unknown.status == 404)
            #expect(unknown.text == #"{"message":"Not Found","code":"INTERNAL"}"#)
        }
    }

    @Test func faultsAndCountersCoverTheShutterstockRoutes() async throws {
        try await withSandbox({ configuration in
            configuration.faults.kind = .apiError
            configuration.faults.rate = 1
            configuration.faults.scope = .rest
        }) { server, network in
            let answer = try await search(server, [("query", "beach")])
            #expect(answer.status == 503)
            #expect(try answer.json()["message"] as? String == "Service Unavailable")
            let image = server.baseURL.absoluteString + "/image-photo/x-450w-\(server.catalog.photo(at: 0).id).jpg"
            #expect(await network.status(try #require(URL(string: image))) == 200)
            try await settled(server)
            let stats = server.stats()
            #expect(stats.restRequests == 1 && stats.imageRequests == 1 && stats.faultsInjected == 1)
        }
    }
}
