@testable import FlickrService
import Foundation
import Sandbox
import Testing

/// The people methods over loopback HTTP, in XML, JSON and JSONP.
@Suite struct PeopleMethodsTests {
    @Test func theWellKnownOwnerIsFoundByUsernameAndByURL() async throws {
        try await withSandbox { server, _ in
            let ana = server.catalog.wellKnownOwner
            #expect(ana.username == SandboxWellKnown.username && ana.pathAlias == SandboxWellKnown.pathAlias)
            #expect(ana.realName == SandboxWellKnown.realName)

            let found = try await server.answers("flickr.people.findByUsername", ["username": "ana souza"])
            #expect(found.element("user")?.attributes["id"] == ana.nsid && found.element("user")?.attributes["nsid"] == ana.nsid)
            #expect(found.element("user")?.children(named: "username").first?.text == ana.username)
            let user = try #require(found.json["user"] as? [String: Any])
            #expect(user["nsid"] as? String == ana.nsid && content(user["username"]) == ana.username)

            for url in ["https://www.flickr.com/photos/anasouza/", "https://www.flickr.com/people/anasouza/",
                        "https://flickr.com/photos/\(ana.nsid)/", "https://www.flickr.com/photos/anasouza/albums/1"] {
                let looked = try await server.answers("flickr.urls.lookupUser", ["url": url])
                #expect(looked.element("user")?.attributes["id"] == ana.nsid, "\(url)")
                #expect(looked.element("user")?.attributes["nsid"] == nil, "lookupUser's user has no nsid")
                #expect(looked.element("user")?.children(named: "username").first?.text == ana.username)
                let jsonUser = try #require(looked.json["user"] as? [String: Any])
                #expect(jsonUser["id"] as? String == ana.nsid && content(jsonUser["username"]) == ana.username)
            }
            for url in ["https://www.flickr.com/photos/DefinitelyDoesNotExist", "https://example.com/photos/anasouza/", "nope"] {
                expectFailure(try await server.answers("flickr.urls.lookupUser", ["url": url]), code: 1, "User not found")
            }
            expectFailure(try await server.answers("flickr.people.findByUsername", ["username": "nobody at all"]),
                          code: 1, "User not found")
        }
    }

    @Test func getInfoDescribesThePersonAndCountsTheirPhotos() async throws {
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let ana = catalog.wellKnownOwner
            let stream = catalog.photostream(of: ana.nsid).map(catalog.photo(at:))
            let answers = try await server.answers("flickr.people.getInfo", ["user_id": ana.nsid])
            let person = try #require(answers.element("person"))
            #expect(person.attributes["id"] == ana.nsid && person.attributes["nsid"] == ana.nsid)
            #expect(person.attributes["path_alias"] == "anasouza")
            #expect(person.children(named: "username").first?.text == "Ana Souza")
            #expect(person.children(named: "realname").first?.text == "Ana Paula Souza")
            #expect(person.children(named: "photosurl").first?.text == "https://www.flickr.com/photos/anasouza/")
            #expect(person.children(named: "profileurl").first?.text == "https://www.flickr.com/people/anasouza/")
            let photos = try #require(person.children(named: "photos").first)
            #expect(photos.children(named: "count").first?.text == String(stream.count))
            #expect(photos.children(named: "firstdate").first?.text == stream.last.map { String($0.dateUpload) })
            #expect(photos.children(named: "firstdatetaken").first?.text == stream.map(\.dateTaken).min())

            let json = try #require(answers.json["person"] as? [String: Any])
            #expect(json["nsid"] as? String == ana.nsid && json["path_alias"] as? String == "anasouza")
            #expect(content(json["realname"]) == "Ana Paula Souza" && content(json["username"]) == "Ana Souza")
            #expect(((json["photos"] as? [String: Any])?["count"] as? [String: Any])?["_content"] as? Int == stream.count)

            // Some people gave no real name: an empty element, an empty `_content`.
            let nameless = try #require(catalog.people.first { $0.realName.isEmpty })
            let other = try await server.answers("flickr.people.getInfo", ["user_id": nameless.nsid])
            #expect(other.element("person")?.children(named: "realname").first?.text == "")
            #expect(content((other.json["person"] as? [String: Any])?["realname"]) == "")

            expectFailure(try await server.answers("flickr.people.getInfo", ["user_id": "1234567@N00"]), code: 1, "User not found")
        }
    }

    @Test func publicPhotosComeNewestFirstWithTheExtrasSearchHas() async throws {
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let ana = catalog.wellKnownOwner
            let stream = catalog.photostream(of: ana.nsid)
            #expect(stream.count > 100)
            let answers = try await server.answers("flickr.people.getPublicPhotos", [
                "user_id": ana.nsid, "per_page": "40", "page": "2",
                "extras": "media,url_q,url_o,owner_name,realname,license,date_taken,date_upload,path_alias",
            ])
            let ids = answers.photoIDs("photos")
            #expect(ids.xml == catalog.ids(stream[40..<80]) && ids.json == ids.xml)
            let envelope = try #require(answers.element("photos"))
            #expect(envelope.attributes["page"] == "2" && envelope.attributes["perpage"] == "40")
            #expect(envelope.attributes["total"] == String(stream.count))
            #expect(envelope.attributes["pages"] == String((stream.count + 39) / 40))

            let entries = (answers.json["photos"] as? [String: Any])?["photo"] as? [[String: Any]] ?? []
            let uploads = entries.compactMap { ($0["dateupload"] as? String).flatMap { Int($0) } }
            #expect(uploads.count == 40 && uploads == uploads.sorted(by: >), "newest upload first")
            for (entry, element) in zip(entries, envelope.children(named: "photo")) {
                let photo = try #require(catalog.photo(id: entry["id"] as? String ?? ""))
                #expect(photo.owner == ana.nsid)
                #expect(entry["media"] as? String == photo.media && element.attributes["media"] == photo.media)
                #expect(entry["ownername"] as? String == "Ana Souza" && entry["realname"] as? String == "Ana Paula Souza")
                #expect(entry["pathalias"] as? String == "anasouza")
                #expect(entry["license"] as? String == String(photo.license) && entry["datetaken"] as? String == photo.dateTaken)
                #expect(entry["url_q"] as? String == server.baseURL.absoluteString + photo.imagePath(.q))
                #expect(element.attributes["url_o"] == server.baseURL.absoluteString + photo.imagePath(.o))
            }
        }
    }

    @Test func publicPhotosPageThroughTheWholeStreamOnce() async throws {
        try await withSandbox { server, network in
            let ana = server.catalog.wellKnownOwner
            let stream = server.catalog.photostream(of: ana.nsid)
            var seen: [String] = []
            var page = 1
            var pages = 1
            repeat {
                let response = try await network.json(server.jsonCall("flickr.people.getPublicPhotos", [
                    "user_id": ana.nsid, "per_page": "45", "page": String(page),
                ]))
                pages = envelope(response)["pages"] as? Int ?? 0
                seen += photos(in: response).compactMap { $0["id"] as? String }
                page += 1
            } while page <= pages && page < 50
            #expect(pages == (stream.count + 44) / 45)
            #expect(seen == server.catalog.ids(stream) && Set(seen).count == seen.count)
            // Past the last page: no photos, the same totals.
            let beyond = try await network.json(server.jsonCall("flickr.people.getPublicPhotos", [
                "user_id": ana.nsid, "per_page": "45", "page": String(pages + 1),
            ]))
            #expect(photos(in: beyond).isEmpty && envelope(beyond)["total"] as? Int == stream.count)
        }
    }

    @Test func publicPhotosOfAnUnknownUserFail() async throws {
        try await withSandbox { server, _ in
            for id in ["1234567@N00", "anasouza", ""] {
                expectFailure(try await server.answers("flickr.people.getPublicPhotos", ["user_id": id]), code: 1, "User not found")
            }
        }
    }
}
