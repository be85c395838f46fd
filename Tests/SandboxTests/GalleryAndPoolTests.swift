@testable import FlickrService
import Foundation
import Sandbox
import Testing

/// Galleries and group pools, and the URL lookups that find them, over loopback HTTP.
@Suite struct GalleryAndPoolTests {
    @Test func lookupGalleryReadsAGalleryURL() async throws {
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let gallery = try #require(catalog.gallery(id: SandboxWellKnown.sunsetGalleryID))
            let ana = catalog.wellKnownOwner
            #expect(gallery.owner == ana.nsid && gallery.compoundID.hasSuffix("-" + gallery.id))
            for url in ["https://www.flickr.com/photos/anasouza/galleries/\(gallery.id)/",
                        "https://www.flickr.com/photos/\(ana.nsid)/galleries/\(gallery.id)"] {
                let answers = try await server.answers("flickr.urls.lookupGallery", ["url": url])
                let element = try #require(answers.element("gallery"), "\(url)")
                #expect(element.attributes["id"] == gallery.compoundID && element.attributes["gallery_id"] == gallery.id)
                #expect(element.attributes["owner"] == ana.nsid && element.attributes["username"] == "Ana Souza")
                #expect(element.attributes["url"] == "https://www.flickr.com/photos/anasouza/galleries/\(gallery.id)")
                #expect(element.attributes["count_total"] == String(gallery.photoIndexes.count))
                #expect(element.children(named: "title").first?.text == "Sunsets I love")
                let json = try #require(answers.json["gallery"] as? [String: Any])
                #expect(json["id"] as? String == gallery.compoundID && json["owner"] as? String == ana.nsid)
                #expect(content(json["title"]) == "Sunsets I love")
            }
            let other = try #require(catalog.people.dropFirst().first)
            for url in ["https://www.flickr.com/photos/anasouza/galleries/12345678901234567/",
                        "https://www.flickr.com/photos/\(other.nsid)/galleries/\(gallery.id)/", "https://www.flickr.com/"] {
                expectFailure(try await server.answers("flickr.urls.lookupGallery", ["url": url]), code: 1, "Invalid gallery ID")
            }
        }
    }

    @Test func galleryPhotosAreOtherPeoplesWithGalleryInfoOnRequest() async throws {
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let gallery = try #require(catalog.gallery(id: SandboxWellKnown.kittenGalleryID))
            #expect(gallery.photoIndexes.count > 5)
            #expect(gallery.photoIndexes.allSatisfy { catalog.photo(at: $0).owner != gallery.owner })
            for id in [gallery.id, gallery.compoundID] {
                let answers = try await server.answers("flickr.galleries.getPhotos", [
                    "gallery_id": id, "get_gallery_info": "1", "extras": "owner_name,url_q",
                ])
                let ids = answers.photoIDs("photos")
                #expect(ids.xml == catalog.ids(gallery.photoIndexes) && ids.json == ids.xml)
                let elements = answers.element("photos")?.children(named: "photo") ?? []
                #expect(elements.first?.attributes["is_primary"] == "1" && elements.last?.attributes["is_primary"] == "0")
                #expect(elements.allSatisfy { $0.attributes["has_comment"] == "0" && $0.attributes["owner"] != nil })
                #expect(answers.element("gallery")?.attributes["gallery_id"] == gallery.id)
                #expect((answers.json["gallery"] as? [String: Any])?["id"] as? String == gallery.compoundID)
                let first = ((answers.json["photos"] as? [String: Any])?["photo"] as? [[String: Any]])?.first
                #expect(first?["is_primary"] as? Int == 1 && first?["ownername"] as? String != nil)
            }
            let plain = try await server.answers("flickr.galleries.getPhotos", ["gallery_id": gallery.id, "per_page": "5"])
            #expect(plain.element("gallery") == nil && plain.json["gallery"] == nil)
            #expect(plain.photoIDs("photos").xml == catalog.ids(gallery.photoIndexes.prefix(5)))
            for id in ["12345678901234567890", "", "1-" + gallery.id] {
                expectFailure(try await server.answers("flickr.galleries.getPhotos", ["gallery_id": id]), code: 1, "Invalid gallery ID")
            }
        }
    }

    @Test func lookupGroupReadsGroupAndPoolURLs() async throws {
        try await withSandbox { server, _ in
            let group = try #require(server.catalog.wellKnownGroup)
            #expect(group.name == SandboxWellKnown.groupName && group.pathAlias == SandboxWellKnown.groupPathAlias)
            for url in ["https://www.flickr.com/groups/sunsetlovers/", "https://www.flickr.com/groups/sunsetlovers/pool/",
                        "https://flickr.com/groups/\(group.nsid)/pool"] {
                let answers = try await server.answers("flickr.urls.lookupGroup", ["url": url])
                #expect(answers.element("group")?.attributes["id"] == group.nsid, "\(url)")
                #expect(answers.element("group")?.children(named: "groupname").first?.text == "Sunset Lovers")
                let json = try #require(answers.json["group"] as? [String: Any])
                #expect(json["id"] as? String == group.nsid && content(json["groupname"]) == "Sunset Lovers")
            }
            let aliasless = try #require(server.catalog.groups.first { $0.pathAlias.isEmpty })
            let byNSID = try await server.answers("flickr.urls.lookupGroup", ["url": aliasless.url + "pool/"])
            #expect(byNSID.element("group")?.attributes["id"] == aliasless.nsid)
            for url in ["https://www.flickr.com/groups/doesnotexist/pool/", "https://www.flickr.com/photos/anasouza/"] {
                expectFailure(try await server.answers("flickr.urls.lookupGroup", ["url": url]), code: 1, "Group not found")
            }
        }
    }

    @Test func poolPhotosPageWithOwnerNamesAndDatesAdded() async throws {
        try await withSandbox { server, network in
            let catalog = server.catalog
            let group = try #require(catalog.wellKnownGroup)
            #expect(group.photoIndexes.count > 200)
            let answers = try await server.answers("flickr.groups.pools.getPhotos", [
                "group_id": group.nsid, "per_page": "50", "page": "3", "extras": "media,owner_name",
            ])
            let ids = answers.photoIDs("photos")
            #expect(ids.xml == catalog.ids(group.photoIndexes[100..<150]) && ids.json == ids.xml)
            let elements = answers.element("photos")?.children(named: "photo") ?? []
            for element in elements {
                let photo = try #require(catalog.photo(id: element.attributes["id"] ?? ""))
                #expect(element.attributes["ownername"] == photo.ownerName)
                #expect(element.attributes["dateadded"] == String(photo.poolDateAdded))
            }
            let added = elements.compactMap { $0.attributes["dateadded"].flatMap { Int($0) } }
            #expect(added == added.sorted(by: >), "the newest additions first")
            let json = try #require((answers.json["photos"] as? [String: Any])?["photo"] as? [[String: Any]])
            #expect(json.allSatisfy { $0["ownername"] is String && $0["dateadded"] is String })

            // Without the extra, a pool still names the owner.
            let bare = try await network.json(server.jsonCall("flickr.groups.pools.getPhotos", ["group_id": group.nsid]))
            #expect(photos(in: bare).count == 100 && photos(in: bare).allSatisfy { $0["ownername"] is String })
            #expect(envelope(bare)["total"] as? Int == group.photoIndexes.count)
            for id in ["31849566@N00", "sunsetlovers", ""] {
                expectFailure(try await server.answers("flickr.groups.pools.getPhotos", ["group_id": id]), code: 1, "Group not found")
            }
        }
    }
}
