@testable import PhotoCore
@testable import FlickrService
import Foundation
import Sandbox
import Testing

@Suite struct FlickrMethodsTests {
    @Test func getInfoAnswersThePhotosDetailsInJSON() async throws {
        try await withSandbox { server, network in
            let photo = try #require((0..<100).map(server.catalog.photo(at:)).first { !$0.tags.isEmpty && !$0.description.isEmpty })
            let response = try await network.json(server.jsonCall("flickr.photos.getInfo", ["photo_id": photo.id]))
            #expect(response["stat"] as? String == "ok")
            let info = try #require(response["photo"] as? [String: Any])
            #expect(info["id"] as? String == photo.id)
            #expect(info["secret"] as? String == photo.secret)
            #expect(info["server"] as? String == photo.server)
            #expect(info["farm"] as? Int == photo.farm)
            #expect(info["originalsecret"] as? String == photo.originalSecret)
            #expect(info["originalformat"] as? String == "jpg")
            #expect(info["license"] as? String == String(photo.license))
            #expect(info["views"] as? String == String(photo.views))
            #expect(info["dateuploaded"] as? String == String(photo.dateUpload))
            let owner = try #require(info["owner"] as? [String: Any])
            #expect(owner["nsid"] as? String == photo.owner)
            #expect(owner["username"] as? String == photo.ownerName)
            #expect(owner["realname"] as? String == photo.ownerRealName)
            #expect((info["title"] as? [String: Any])?["_content"] as? String == photo.title)
            #expect((info["description"] as? [String: Any])?["_content"] as? String == photo.description)
            let dates = try #require(info["dates"] as? [String: Any])
            #expect(dates["posted"] as? String == String(photo.dateUpload))
            #expect(dates["taken"] as? String == photo.dateTaken)
            let tags = try #require((info["tags"] as? [String: Any])?["tag"] as? [[String: Any]])
            #expect(tags.compactMap { $0["_content"] as? String } == photo.tags)
            #expect(tags.compactMap { $0["raw"] as? String } == photo.tags)
            let urls = try #require((info["urls"] as? [String: Any])?["url"] as? [[String: Any]])
            #expect(urls.first?["type"] as? String == "photopage")
            #expect(urls.first?["_content"] as? String == "https://www.flickr.com/photos/\(photo.owner)/\(photo.id)/")
        }
    }

    @Test func getInfoInXMLHasOwnerTitleDatesAndURLs() async throws {
        try await withSandbox { server, network in
            let photo = server.catalog.photo(at: 7)
            let xml = try await network.text(server.rest(["method": "flickr.photos.getInfo", "api_key": "k", "photo_id": photo.id]))
            let root = try FlickrXMLReader.parse(Data(xml.utf8))
            #expect(root.attributes["stat"] == "ok")
            let element = try #require(root.children(named: "photo").first)
            #expect(element.attributes["id"] == photo.id)
            #expect(element.attributes["originalsecret"] == photo.originalSecret)
            #expect(element.children(named: "owner").first?.attributes["nsid"] == photo.owner)
            #expect(element.children(named: "owner").first?.attributes["username"] == photo.ownerName)
            #expect(element.children(named: "title").first?.text == photo.title)
            #expect(element.children(named: "dates").first?.attributes["taken"] == photo.dateTaken)
            let tags = element.children(named: "tags").first?.children(named: "tag").map(\.text)
            #expect(tags == photo.tags)
            let url = element.children(named: "urls").first?.children(named: "url").first
            #expect(url?.attributes["type"] == "photopage")
        }
    }

    @Test func getSizesListsEverySizeWithServedSources() async throws {
        try await withSandbox { server, network in
            let photo = try #require((0..<200).map(server.catalog.photo(at:)).first { $0.originalWidth >= 2048 && !$0.isVideo })
            let response = try await network.json(server.jsonCall("flickr.photos.getSizes", ["photo_id": photo.id]))
            let sizes = try #require((response["sizes"] as? [String: Any])?["size"] as? [[String: Any]])
            #expect(sizes.compactMap { $0["label"] as? String } == [
                "Square", "Large Square", "Thumbnail", "Small", "Small 320", "Small 400", "Medium", "Medium 640",
                "Medium 800", "Large", "Large 1600", "Large 2048", "Original",
            ])
            for (entry, size) in zip(sizes, SandboxImageSize.allCases) {
                let source = try #require((entry["source"] as? String).flatMap(URL.init(string:)))
                let body = try await network.get(source).body
                let dimensions = try #require(jpegDimensions(body))
                #expect(dimensions.width == entry["width"] as? Int, "\(size)")
                #expect(dimensions.height == entry["height"] as? Int, "\(size)")
                #expect(entry["media"] as? String == "photo")
                #expect((entry["url"] as? String)?.hasPrefix("https://www.flickr.com/photos/") == true)
            }
            // Large 1600, Large 2048 and the original have secrets of their own.
            let original = try #require(sizes.last?["source"] as? String)
            #expect(original.hasSuffix("/\(photo.id)_\(photo.originalSecret)_o.jpg"))
            #expect((sizes[10]["source"] as? String)?.contains("_\(photo.secret1600)_h.jpg") == true)
            #expect(sizes[11]["width"] as? Int == photo.dimensions(.k).width)
        }
    }

    @Test func largeSizesNeedTheirOwnSecrets() async throws {
        try await withSandbox { server, network in
            let photo = try #require((0..<200).map(server.catalog.photo(at:)).first { $0.hasSize(.h) })
            let guessed = "\(server.baseURL.absoluteString)/\(photo.server)/\(photo.id)_\(photo.secret)_h.jpg"
            #expect(await network.status(try #require(URL(string: guessed))) == 404)
            #expect(await network.status(server.imageURL(photo, .h)) == 200)
        }
    }

    @Test func smallOriginalsLackTheLargerSizes() async throws {
        try await withSandbox { server, network in
            let small = try #require((0..<server.catalog.count).map(server.catalog.photo(at:))
                .first { max($0.originalWidth, $0.originalHeight) < 800 })
            let response = try await network.json(server.jsonCall("flickr.photos.getSizes", ["photo_id": small.id]))
            let labels = ((response["sizes"] as? [String: Any])?["size"] as? [[String: Any]])?.compactMap { $0["label"] as? String }
            #expect(labels?.contains("Medium 640") == true)
            #expect(labels?.contains("Medium 800") == false)
            #expect(labels?.contains("Large") == false)
            #expect(labels == small.sizeList.map(\.label) && labels?.contains("Original") == true)
            #expect(await network.status(server.imageURL(small, .l)) == 404)

            let search = try await network.json(server.jsonCall("flickr.photos.getRecent", [
                "per_page": "500", "page": String(small.index / 500 + 1), "extras": "url_z,url_l",
            ]))
            let entry = try #require(photos(in: search).first { $0["id"] as? String == small.id })
            #expect(entry["url_z"] != nil)
            #expect(entry["url_l"] == nil && entry["width_l"] == nil)
        }
    }

    @Test func searchExtrasCoverViewsLicenseDimensionsAndLargeURLs() async throws {
        try await withSandbox { server, network in
            let response = try await network.json(server.jsonCall("flickr.photos.search", [
                "text": "beach", "per_page": "20",
                "extras": "url_sq,url_t,url_s,url_n,url_w,url_m,url_c,url_h,url_k,url_o,views,license,o_dims,original_format,media,last_update",
            ]))
            for entry in photos(in: response) {
                let photo = try #require(server.catalog.photo(id: entry["id"] as? String ?? ""))
                #expect(entry["views"] as? String == String(photo.views))
                #expect(entry["license"] as? String == String(photo.license))
                #expect(entry["o_width"] as? String == String(photo.originalWidth))
                #expect(entry["o_height"] as? String == String(photo.originalHeight))
                #expect(entry["originalsecret"] as? String == photo.originalSecret)
                #expect(entry["media"] as? String == (photo.isVideo ? "video" : "photo"))
                #expect(entry["url_o"] as? String == server.baseURL.absoluteString + photo.imagePath(.o))
                #expect(entry["width_o"] as? Int == photo.originalWidth)
                for size in ["sq", "t", "s", "n", "w", "m"] { #expect(entry["url_\(size)"] is String, "\(size)") }
                #expect((entry["url_k"] != nil) == photo.hasSize(.k))
            }
        }
    }

    @Test func unknownPhotoFailsWithCode1() async throws {
        try await withSandbox { server, network in
            for method in ["flickr.photos.getInfo", "flickr.photos.getSizes"] {
                for id in ["12345", "not-a-number", ""] {
                    let response = try await network.json(server.jsonCall(method, ["photo_id": id]))
                    #expect(response["stat"] as? String == "fail")
                    #expect(response["code"] as? Int == 1)
                    #expect(response["message"] as? String == "Photo not found")
                }
            }
        }
    }
}
