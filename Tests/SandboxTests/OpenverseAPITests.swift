import PhotoCore
import Foundation
import Sandbox
import Testing

/// `GET /v1/images/` over the catalog, in Openverse's wire format.
@Suite struct OpenverseAPITests {
    @Test func searchAnswersOpenversesShape() async throws {
        try await withSandbox { server, _ in
            let answer = try await http(.GET, server.openverse([("q", "kittens")]))
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "content-type") == "application/json")
            #expect(answer.text.hasPrefix("{\"result_count\":"))
            #expect(!answer.text.contains("\\/"), "DRF does not escape slashes")
            let response = try answer.json()
            let expected = openverseExpected(server.catalog, text: "kittens")
            #expect(response["result_count"] as? Int == min(240, expected.count))
            #expect(response["page_count"] as? Int == min(240, expected.count) / 20)
            #expect(response["page_size"] as? Int == 20)
            #expect(response["page"] as? Int == 1)
            #expect((response["warnings"] as? [Any])?.isEmpty == true)
            let items = results(response)
            #expect(items.count == 20)
            let keys = ["id", "title", "indexed_on", "foreign_landing_url", "url", "creator", "creator_url", "license",
                        "license_version", "license_url", "provider", "source", "category", "filesize", "filetype", "tags",
                        "attribution", "fields_matched", "mature", "height", "width", "thumbnail", "detail_url",
                        "related_url", "unstable__sensitivity"]
            // Members in the order of Openverse's 2024 recordings (first result of the raw text).
            let firstResult = try #require(answer.text.range(of: "\"results\":[{")).upperBound
            let text = answer.text[firstResult...]
            let positions = keys.map { text.range(of: "\"\($0)\":")?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil })
            #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
            for (item, photo) in zip(items, expected) {
                #expect(Set(item.keys) == Set(keys))
                let id = try #require(item["id"] as? String)
                #expect(id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
                #expect(item["title"] as? String == photo.title)
                #expect(item["creator"] as? String == photo.ownerName)
                #expect(item["creator_url"] as? String == "https://www.flickr.com/photos/\(photo.owner)")
                #expect(item["foreign_landing_url"] as? String == "https://www.flickr.com/photos/\(photo.owner)/\(photo.id)")
                #expect(item["license"] as? String == openverseSlug(photo.license))
                #expect(item["license_version"] as? String == ([11, 12, 13, 14, 15, 16].contains(photo.license) ? "4.0"
                    : [9, 10].contains(photo.license) ? "1.0" : "2.0"))
                #expect(item["filetype"] as? String == photo.fileFormat.rawValue)
                #expect(item["provider"] as? String == "flickr" && item["source"] as? String == "flickr")
                #expect(item["category"] as? String == "photograph")
                #expect(item["mature"] as? Bool == false)
                #expect((item["unstable__sensitivity"] as? [Any])?.isEmpty == true)
                #expect((item["tags"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == photo.tags)
                #expect((item["tags"] as? [[String: Any]])?.allSatisfy { $0["accuracy"] is NSNull } == true)
                #expect(item["thumbnail"] as? String == server.baseURL.absoluteString + "/v1/images/\(id)/thumb/")
                #expect(item["detail_url"] as? String == server.baseURL.absoluteString + "/v1/images/\(id)/")
                #expect((item["url"] as? String)?.hasPrefix(server.baseURL.absoluteString) == true)
                #expect((item["url"] as? String)?.hasSuffix(".\(photo.fileFormat.rawValue)") == true)
                let longest = max(item["width"] as? Int ?? 0, item["height"] as? Int ?? 0)
                #expect(longest == min(1024, max(photo.originalWidth, photo.originalHeight)))
                #expect((item["fields_matched"] as? [String])?.isEmpty == false)
                let indexed = try #require(item["indexed_on"] as? String)
                #expect(indexed.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/) != nil)
            }
        }
    }

    @Test func attributionFollowsOpenversesSentence() async throws {
        try await withSandbox { server, _ in
            var seen: Set<String> = []
            for page in 1...12 {
                let items = results(try await http(.GET, server.openverse([("q", "sunset"), ("page", String(page))])).json())
                for item in items {
                    let title = item["title"] as? String ?? ""
                    let creator = item["creator"] as? String ?? ""
                    let license = item["license"] as? String ?? ""
                    let version = item["license_version"] as? String ?? ""
                    let url = item["license_url"] as? String ?? ""
                    let work = title.isEmpty ? "This work" : "\"\(title)\""
                    let expected: String
                    switch license {
                    case "cc0": expected = "\(work) by \(creator) is marked with CC0 \(version). To view the terms, visit \(url)."
                    case "pdm": expected = "\(work) by \(creator) is marked with Public Domain Mark \(version). To view the terms, visit \(url)."
                    default: expected = "\(work) by \(creator) is licensed under CC \(license.uppercased()) \(version). To view a copy of this license, visit \(url)."
                    }
                    #expect(item["attribution"] as? String == expected)
                    seen.insert(license)
                    if title.isEmpty { seen.insert("untitled") }
                }
            }
            #expect(seen.isSuperset(of: ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd", "cc0", "pdm", "untitled"]))
        }
    }

    @Test func resultsAreTheFlickrSearchLessClosedLicences() async throws {
        try await withSandbox({ $0.photoCount = 3_000 }) { server, network in
            let token = try await server.openverseToken()
            for query in ["beach", "sunset sea", "kittens -cat"] {
                let openverse = results(try await http(.GET, server.openverse([("q", query), ("page_size", "500")]),
                                                       headers: [("Authorization", "Bearer \(token)")]).json())
                let flickr = photos(in: try await network.json(server.jsonCall("flickr.photos.search", [
                    "text": query, "per_page": "500", "extras": "license",
                ])))
                let open = flickr.filter { openverseSlug(Int($0["license"] as? String ?? "") ?? 0) != nil }
                #expect(!openverse.isEmpty)
                #expect(open.count < flickr.count, "all rights reserved photos are left out")
                // Flickr's page of 500 holds fewer open photos than Openverse's: compare what both hold.
                let count = min(openverse.count, open.count)
                #expect(count >= 20)
                #expect(openverse.prefix(count).compactMap { ($0["foreign_landing_url"] as? String)?.split(separator: "/").last.map(String.init) }
                    == open.prefix(count).compactMap { $0["id"] as? String }, "\(query)")
                #expect(openverse.prefix(count).compactMap { $0["title"] as? String } == open.prefix(count).compactMap { $0["title"] as? String })
            }
        }
    }

    @Test func idsAreStableAndTheDetailRouteAnswersThem() async throws {
        try await withSandbox { server, _ in
            let first = results(try await http(.GET, server.openverse([("q", "beach")])).json())
            let again = results(try await http(.GET, server.openverse([("q", "beach")])).json())
            #expect(first.compactMap { $0["id"] as? String } == again.compactMap { $0["id"] as? String })
            #expect(Set(first.compactMap { $0["id"] as? String }).count == first.count)
            let item = try #require(first.first)
            let detail = try await http(.GET, try #require((item["detail_url"] as? String).flatMap(URL.init(string:))))
            #expect(detail.status == 200)
            #expect(try detail.json()["id"] as? String == item["id"] as? String)
            let missing = try await http(.GET, server.openverse(path: "v1/images/00000000-0000-4000-8000-000000000000/"))
            #expect(missing.status == 404)
            #expect(try missing.json()["detail"] as? String == "Not found.")
        }
    }

    @Test func pathWithoutTrailingSlashAndEmptyResults() async throws {
        try await withSandbox { server, _ in
            let bare = try await http(.GET, server.openverse([("q", "kittens")], path: "v1/images"))
            #expect(bare.status == 200)
            #expect(results(try bare.json()).count == 20)
            let none = try await http(.GET, server.openverse([("q", "querywithnoresults")])).json()
            #expect(none["result_count"] as? Int == 0 && none["page_count"] as? Int == 0 && none["page"] as? Int == 1)
            #expect(results(none).isEmpty)
            // No `q` lists the whole (openly licensed) catalog.
            let all = try await http(.GET, server.openverse()).json()
            #expect(all["result_count"] as? Int == 240)
        }
    }
}
