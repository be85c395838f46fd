import Foundation
@testable import Sandbox
import Testing

/// Openverse's filters and limits, and its token endpoint.
@Suite struct OpenverseFilterTests {
    /// Every result of a query (with a token, so one page of 500 holds them).
    private func all(_ server: SandboxServer, _ query: [(String, String)], token: String) async throws -> [[String: Any]] {
        let answer = try await http(.GET, server.openverse(query + [("page_size", "500")]), headers: [("Authorization", "Bearer \(token)")])
        #expect(answer.status == 200, "\(answer.text)")
        return results(try answer.json())
    }

    @Test func filtersNarrowTheCatalogsMatches() async throws {
        // 2,000 photos: every match of "beach" fits one page of 500.
        try await withSandbox({ $0.photoCount = 2_000 }) { server, _ in
            let token = try await server.openverseToken()
            let catalog = server.catalog
            let everything = openverseExpected(catalog, text: "beach")
            #expect(everything.count > 200 && everything.count <= 500)
            func count(_ include: (CatalogPhoto) -> Bool) -> Int { everything.filter(include).count }

            let cc0 = try await all(server, [("q", "beach"), ("license", "cc0,PDM")], token: token)
            #expect(cc0.count == count { [9, 10].contains($0.license) } && !cc0.isEmpty)
            #expect(Set(cc0.compactMap { $0["license"] as? String }) == ["cc0", "pdm"])

            let commercial = try await all(server, [("q", "beach"), ("license_type", "commercial")], token: token)
            #expect(commercial.count == count { [4, 5, 6, 9, 10, 11, 12, 13].contains($0.license) })
            let modification = try await all(server, [("q", "beach"), ("license_type", "commercial,modification")], token: token)
            #expect(modification.count == count { [4, 5, 9, 10, 11, 12].contains($0.license) })
            let allCC = try await all(server, [("q", "beach"), ("license_type", "all-cc"), ("license", "by,pdm")], token: token)
            #expect(allCC.count == count { [4, 11].contains($0.license) })

            let tall = try await all(server, [("q", "beach"), ("aspect_ratio", "tall")], token: token)
            #expect(tall.count == count { $0.originalHeight > $0.originalWidth } && !tall.isEmpty)
            #expect(tall.allSatisfy { ($0["height"] as? Int ?? 0) > ($0["width"] as? Int ?? 0) })
            let square = try await all(server, [("q", "beach"), ("aspect_ratio", "square,wide")], token: token)
            #expect(square.count == count { $0.originalHeight <= $0.originalWidth })

            for format in SandboxImageFormat.allCases {
                let found = try await all(server, [("q", "beach"), ("extension", format.rawValue)], token: token)
                #expect(found.count == count { $0.fileFormat == format } && !found.isEmpty, "\(format)")
                #expect(found.allSatisfy { $0["filetype"] as? String == format.rawValue })
            }

            let owner = try #require(everything.first).ownerName
            let byCreator = try await all(server, [("creator", owner)], token: token)
            #expect(!byCreator.isEmpty && byCreator.allSatisfy { $0["creator"] as? String == owner })
            #expect(byCreator.count == (0..<catalog.count).map(catalog.photo(at:))
                .filter { $0.ownerName == owner && openverseSlug($0.license) != nil }.count)

            #expect(try await all(server, [("q", "beach"), ("category", "photograph"), ("source", "flickr")], token: token).count == everything.count)
            #expect(try await all(server, [("q", "beach"), ("category", "illustration")], token: token).isEmpty)
            #expect(try await all(server, [("q", "beach"), ("source", "wikimedia")], token: token).isEmpty)
            #expect(try await all(server, [("q", "beach"), ("excluded_source", "flickr")], token: token).isEmpty)
            // Openverse drops sources it does not know, and then filters on none.
            #expect(try await all(server, [("q", "beach"), ("source", "nowhere")], token: token).count == everything.count)
        }
    }

    @Test func unknownFilterValuesAreFieldErrors() async throws {
        try await withSandbox { server, _ in
            let cases: [((String, String), String, String)] = [
                (("license", "by,gpl"), "license", "License 'gpl' does not exist."),
                (("license_type", "everything"), "license_type", "License type 'everything' does not exist."),
                (("category", "painting"), "category", "Invalid category: painting. Available options: photograph, illustration, digitized_artwork"),
                (("aspect_ratio", "round"), "aspect_ratio", "Invalid aspect_ratio: round. Available options: square, tall, wide"),
                (("page", "x"), "page", "A valid integer is required."),
                (("page", "0"), "page", "Ensure this value is greater than or equal to 1."),
                (("page", "21"), "page", "Ensure this value is less than or equal to 20."),
                (("page_size", "0"), "page_size", "Ensure this value is greater than or equal to 1."),
            ]
            for (parameter, field, message) in cases {
                let answer = try await http(.GET, server.openverse([("q", "cat"), parameter]))
                #expect(answer.status == 400, "\(parameter)")
                let detail = try answer.json()["detail"] as? [String: Any]
                #expect(detail?[field] as? [String] == [message], "\(answer.text)")
            }
            let both = try await http(.GET, server.openverse([("q", "cat"), ("source", "flickr"), ("excluded_source", "nasa")]))
            #expect(both.status == 400)
        }
    }

    @Test func anonymousCallersGetTwentyPagesOfAtMost240Results() async throws {
        try await withSandbox { server, _ in
            let expected = openverseExpected(server.catalog, text: "kittens")
            #expect(expected.count > 240)
            let large = try await http(.GET, server.openverse([("q", "kittens"), ("page_size", "21")]))
            #expect(large.status == 401)
            #expect(try large.json()["detail"] as? String == "Ensure this value is less than or equal to 20.")

            let last = try await http(.GET, server.openverse([("q", "kittens"), ("page", "12")])).json()
            #expect(last["result_count"] as? Int == 240 && last["page_count"] as? Int == 12)
            #expect(results(last).count == 20)
            #expect((results(last).last?["foreign_landing_url"] as? String)?.hasSuffix("/" + expected[239].id) == true)
            let beyond = try await http(.GET, server.openverse([("q", "kittens"), ("page", "13")]))
            #expect(beyond.status == 400)
            #expect(try beyond.json()["detail"] as? String == "Invalid page.")

            // Smaller pages reach deeper, but never past page 20.
            let small = try await http(.GET, server.openverse([("q", "kittens"), ("page_size", "5"), ("page", "20")])).json()
            #expect(small["page_count"] as? Int == 20 && small["result_count"] as? Int == 240)
            #expect((results(small).first?["foreign_landing_url"] as? String)?.hasSuffix("/" + expected[95].id) == true)
        }
    }

    @Test func aTokenAllowsPagesOf500AndTheFullCount() async throws {
        try await withSandbox { server, _ in
            let token = try await server.openverseToken()
            let expected = openverseExpected(server.catalog, text: "kittens")
            let page = try await http(.GET, server.openverse([("q", "kittens"), ("page_size", "500"), ("page", "2")]),
                                      headers: [("Authorization", "Bearer \(token)")])
            #expect(page.status == 200)
            let response = try page.json()
            #expect(response["result_count"] as? Int == min(10_000, expected.count))
            #expect(response["page_count"] as? Int == min(20, (expected.count + 499) / 500))
            #expect(results(response).count == min(500, expected.count - 500))
            let tooLarge = try await http(.GET, server.openverse([("q", "kittens"), ("page_size", "501")]),
                                          headers: [("Authorization", "Bearer \(token)")])
            #expect(tooLarge.status == 400)
            #expect((try tooLarge.json()["detail"] as? [String: Any])?["page_size"] as? [String] == ["Ensure this value is less than or equal to 500."])
            let unknown = try await http(.GET, server.openverse([("q", "kittens")]), headers: [("Authorization", "Bearer nonsense")])
            #expect(unknown.status == 401)
            #expect(try unknown.json()["detail"] as? String == "Invalid token.")
        }
    }

    @Test func tokenEndpointIssuesBearerTokens() async throws {
        try await withSandbox { server, _ in
            let url = server.openverse(path: "v1/auth_tokens/token/")
            let answer = try await http(.POST, url, form: [("client_id", "a"), ("client_secret", "b"), ("grant_type", "client_credentials")])
            #expect(answer.status == 200)
            let body = try answer.json()
            #expect((body["access_token"] as? String)?.count == 30)
            #expect(body["scope"] as? String == "read write groups")
            #expect(body["expires_in"] as? Int == 36_000)
            #expect(body["token_type"] as? String == "Bearer")
            let second = try await server.openverseToken(clientID: "a", clientSecret: "b")
            #expect(second != body["access_token"] as? String, "tokens are random")

            let wrongGrant = try await http(.POST, url, form: [("client_id", "a"), ("client_secret", "b"), ("grant_type", "password")])
            #expect(wrongGrant.status == 400)
            #expect(try wrongGrant.json()["error"] as? String == "unsupported_grant_type")
            let noGrant = try await http(.POST, url, form: [("client_id", "a"), ("client_secret", "b")])
            #expect(noGrant.status == 400)
            #expect(try noGrant.json()["error"] as? String == "invalid_request")
            let noSecret = try await http(.POST, url, form: [("client_id", "a"), ("grant_type", "client_credentials")])
            #expect(noSecret.status == 401)
            #expect(try noSecret.json()["error"] as? String == "invalid_client")
            let get = try await http(.GET, url)
            #expect(get.status == 405)
        }
    }

    @Test func configuredCredentialsRestrictTheTokenEndpoint() async throws {
        try await withSandbox({ $0.openverseCredentials = OpenverseClientCredentials(clientID: "app", clientSecret: "s3cret") }) { server, _ in
            // Credentials in the query, as Openverse's Python client sends them.
            let wrong = try await http(.POST, server.openverse([("client_id", "app"), ("client_secret", "guess"), ("grant_type", "client_credentials")],
                                                               path: "v1/auth_tokens/token/"))
            #expect(wrong.status == 401)
            let token = try await server.openverseToken(clientID: "app", clientSecret: "s3cret")
            let search = try await http(.GET, server.openverse([("q", "cat"), ("page_size", "50")]), headers: [("Authorization", "Bearer \(token)")])
            #expect(search.status == 200)
            // The secret never reaches the request log.
            #expect(!server.requestLog().contains { $0.path.contains("s3cret") || $0.path.contains("guess") })
        }
    }
}

/// Tokens end: one past its lifetime is refused like one never issued.
@Suite struct OpenverseTokenLifetimeTests {
    @Test func tokensAreValidUntilTheyExpire() async throws {
        let lasting = OpenverseTokens()
        let token = lasting.issue()
        #expect(lasting.isValid(token))
        #expect(!lasting.isValid(token + "x"))
        #expect(!lasting.isValid(""))
        let brief = OpenverseTokens(lifetime: .milliseconds(1))
        let expiring = brief.issue()
        try await Task.sleep(for: .milliseconds(20))
        #expect(!brief.isValid(expiring))
    }
}
