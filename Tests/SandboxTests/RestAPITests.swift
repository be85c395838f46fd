@testable import PhotoCore
@testable import FlickrService
import Foundation
import Sandbox
import Testing

@Suite struct RestAPITests {
    @Test func searchAnswersFlickrJSONWithRequestedExtras() async throws {
        try await withSandbox { server, network in
            let response = try await network.json(server.jsonCall("flickr.photos.search", [
                "text": "kittens", "per_page": "10",
                "extras": "url_q,url_z,url_l,owner_name,date_taken,date_upload,description,tags",
            ]))
            #expect(response["stat"] as? String == "ok")
            let page = envelope(response)
            #expect(page["page"] as? Int == 1)
            #expect(page["perpage"] as? Int == 10)
            let total = try #require(page["total"] as? Int)
            #expect(total == server.catalog.search(text: "kittens").count)
            #expect(page["pages"] as? Int == (total + 9) / 10)
            let list = photos(in: response)
            #expect(list.count == 10)
            let first = try #require(list.first)
            let id = try #require(first["id"] as? String)
            let photo = try #require(server.catalog.photo(id: id))
            #expect(first["owner"] as? String == photo.owner)
            #expect(first["secret"] as? String == photo.secret)
            #expect(first["server"] as? String == photo.server)
            #expect(first["farm"] as? Int == photo.farm)
            #expect(first["title"] as? String == photo.title)
            #expect(first["ownername"] as? String == photo.ownerName)
            #expect(first["datetaken"] as? String == photo.dateTaken)
            #expect(first["dateupload"] as? String == String(photo.dateUpload))
            #expect((first["description"] as? [String: Any])?["_content"] as? String == photo.description)
            #expect(first["tags"] as? String == photo.tags.joined(separator: " "))
            #expect(first["url_q"] as? String == server.baseURL.absoluteString + photo.imagePath(.q))
            #expect(first["width_q"] as? Int == 150 && first["height_q"] as? Int == 150)
            let large = photo.dimensions(.l)
            #expect((first["url_l"] as? String)?.hasSuffix("_b.jpg") == true)
            #expect(first["width_l"] as? Int == large.width && first["height_l"] as? Int == large.height)
            #expect(first["url_m"] == nil)
        }
    }

    @Test func pagesFollowPerPageAndDatePostedOrder() async throws {
        try await withSandbox { server, network in
            let expected = server.catalog.search(text: "beach")
            let response = try await network.json(server.jsonCall("flickr.photos.search", [
                "text": "beach", "per_page": "37", "page": "2",
            ]))
            #expect(envelope(response)["pages"] as? Int == (expected.count + 36) / 37)
            #expect(envelope(response)["page"] as? Int == 2)
            let ids = photos(in: response).compactMap { $0["id"] as? String }
            #expect(ids == expected[37..<74].map { server.catalog.photo(at: $0).id })
        }
    }

    @Test func perPageDefaultsTo100AndIsClampedTo1Through500() async throws {
        try await withSandbox { $0.photoCount = 20_000 } _: { server, network in
            for (asked, served) in [(nil, 100), ("1000", 500), ("0", 1), ("abc", 100)] as [(String?, Int)] {
                var parameters = ["text": "sunset"]
                parameters["per_page"] = asked
                let response = try await network.json(server.jsonCall("flickr.photos.search", parameters))
                #expect(envelope(response)["perpage"] as? Int == served)
                #expect(photos(in: response).count == served)
            }
        }
    }

    @Test func pagesPastThe4000ResultCapRepeatPageOne() async throws {
        try await withSandbox { $0.photoCount = 20_000 } _: { server, network in
            func ids(page: Int) async throws -> [String] {
                let response = try await network.json(server.jsonCall("flickr.photos.search", [
                    "text": "kittens", "per_page": "500", "page": String(page),
                ]))
                #expect((envelope(response)["total"] as? Int ?? 0) > 4_000)
                return photos(in: response).compactMap { $0["id"] as? String }
            }
            let first = try await ids(page: 1)
            let last = try await ids(page: 8)
            #expect(last.count == 500 && Set(last).isDisjoint(with: first))
            #expect(try await ids(page: 9) == first)
            #expect(try await ids(page: 12) == first)
        }
    }

    @Test func sortOrdersAreHonoured() async throws {
        try await withSandbox { server, network in
            for sort in SearchSort.allCases {
                let response = try await network.json(server.jsonCall("flickr.photos.search", [
                    "text": "sunset beach", "sort": sort.rawValue, "per_page": "20",
                ]))
                let ids = photos(in: response).compactMap { $0["id"] as? String }
                let expected = server.catalog.search(text: "sunset beach", sort: sort).prefix(20)
                #expect(ids == expected.map { server.catalog.photo(at: $0).id }, "\(sort)")
            }
        }
    }

    @Test func getRecentListsNewestUploadsFirst() async throws {
        try await withSandbox { server, network in
            let response = try await network.json(server.jsonCall("flickr.photos.getRecent", ["per_page": "5"]))
            let ids = photos(in: response).compactMap { $0["id"] as? String }
            #expect(ids == (0..<5).map { server.catalog.photo(at: $0).id })
            #expect(envelope(response)["total"] as? Int == server.catalog.count)
        }
    }

    @Test func echoReturnsParametersExceptTheKey() async throws {
        try await withSandbox { server, network in
            let response = try await network.json(server.jsonCall("flickr.test.echo", ["foo": "bar baz"]))
            #expect(response["stat"] as? String == "ok")
            #expect((response["foo"] as? [String: Any])?["_content"] as? String == "bar baz")
            #expect((response["method"] as? [String: Any])?["_content"] as? String == "flickr.test.echo")
            #expect(response["api_key"] == nil)
        }
    }

    @Test func jsonWithoutNoJSONCallbackIsJSONPAndCallbackCanBeRenamed() async throws {
        try await withSandbox { server, network in
            let plain = try await network.text(server.rest([
                "method": "flickr.test.echo", "api_key": "k", "format": "json",
            ]))
            #expect(plain.hasPrefix("jsonFlickrApi({") && plain.hasSuffix("})"))
            let renamed = try await network.text(server.rest([
                "method": "flickr.test.echo", "api_key": "k", "format": "json", "jsoncallback": "handle_it",
            ]))
            #expect(renamed.hasPrefix("handle_it({") && renamed.hasSuffix("})"))
        }
    }

    @Test func restFormatAndNoFormatAnswerFlickrXML() async throws {
        try await withSandbox { server, network in
            for format in ["rest", nil] as [String?] {
                var parameters = ["method": "flickr.photos.search", "api_key": "k", "text": "red car", "per_page": "3"]
                parameters["format"] = format
                let xml = try await network.text(server.rest(parameters))
                let root = try FlickrXMLReader.parse(Data(xml.utf8))
                #expect(root.name == "rsp" && root.attributes["stat"] == "ok")
                let photosElement = try #require(root.children(named: "photos").first)
                let total = server.catalog.search(text: "red car").count
                #expect(photosElement.attributes["total"] == String(total))
                #expect(photosElement.attributes["perpage"] == "3")
                let photoElements = photosElement.children(named: "photo")
                #expect(photoElements.count == min(3, total))
                let id = try #require(photoElements.first?.attributes["id"])
                #expect(photoElements.first?.attributes["title"] == server.catalog.photo(id: id)?.title)
            }
        }
    }

    @Test func xmlFailureIsAnErrElement() async throws {
        try await withSandbox { server, network in
            let xml = try await network.text(server.rest(["method": "flickr.test.echo"]))
            let root = try FlickrXMLReader.parse(Data(xml.utf8))
            #expect(root.attributes["stat"] == "fail")
            let error = try #require(root.children(named: "err").first)
            #expect(error.attributes["code"] == "100")
            #expect(error.attributes["msg"] == "Invalid API Key (Key has invalid format)")
        }
    }

    @Test func missingOrEmptyKeyFailsWithCode100() async throws {
        try await withSandbox { server, network in
            for key in [nil, ""] as [String?] {
                var parameters = ["method": "flickr.photos.search", "text": "kittens", "format": "json", "nojsoncallback": "1"]
                parameters["api_key"] = key
                let response = try await network.json(server.rest(parameters))
                #expect(response["stat"] as? String == "fail")
                #expect(response["code"] as? Int == 100)
                #expect(response["message"] as? String == "Invalid API Key (Key has invalid format)")
            }
        }
    }

    @Test func requiredKeyRejectsOtherKeys() async throws {
        try await withSandbox { $0.requiredAPIKey = "right" } _: { server, network in
            let wrong = try await network.json(server.jsonCall("flickr.test.echo", ["api_key": "wrong"]))
            #expect(wrong["code"] as? Int == 100)
            let right = try await network.json(server.jsonCall("flickr.test.echo", ["api_key": "right"]))
            #expect(right["stat"] as? String == "ok")
        }
    }

    @Test func keyInOAuthHeaderIsAccepted() async throws {
        try await withSandbox { server, network in
            let url = server.rest(["method": "flickr.test.echo", "format": "json", "nojsoncallback": "1"])
            let body = try await network.text(url, headers: [
                ("Authorization", "OAuth oauth_consumer_key=\"abc123\", oauth_nonce=\"n\""),
            ])
            #expect(body.contains("\"stat\":\"ok\""))
        }
    }

    @Test func searchWithoutParametersFailsWithCode3() async throws {
        try await withSandbox { server, network in
            let response = try await network.json(server.jsonCall("flickr.photos.search"))
            #expect(response["stat"] as? String == "fail")
            #expect(response["code"] as? Int == 3)
            #expect(response["message"] as? String
                == "Parameterless searches have been disabled. Please use flickr.photos.getRecent instead.")
        }
    }

    @Test func unknownFormatFailsWithCode111() async throws {
        try await withSandbox { server, network in
            let xml = try await network.text(server.rest(["method": "flickr.test.echo", "api_key": "k", "format": "yaml"]))
            #expect(xml.contains("<err code=\"111\" msg=\"Format &quot;yaml&quot; not found\""))
        }
    }

    @Test func unknownMethodFailsWithCode112() async throws {
        try await withSandbox { server, network in
            let response = try await network.json(server.jsonCall("flickr.photos.nope"))
            #expect(response["code"] as? Int == 112)
            #expect(response["message"] as? String == "Method \"flickr.photos.nope\" not found")
        }
    }

    @Test func hostileTitlesSurviveJSONEscaping() async throws {
        try await withSandbox { $0.photoCount = 20_000 } _: { server, network in
            let catalog = server.catalog
            let hostile = try #require((0..<catalog.count).map(catalog.photo(at:)).first { $0.title.contains("\u{1B}") })
            let body = try await network.get(server.jsonCall("flickr.photos.getRecent", [
                "per_page": "500", "page": String(hostile.index / 500 + 1),
            ])).body
            #expect(!body.contains(0x1B))
            let response = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let match = photos(in: response).first { $0["id"] as? String == hostile.id }
            #expect(match?["title"] as? String == hostile.title)
        }
    }
}
