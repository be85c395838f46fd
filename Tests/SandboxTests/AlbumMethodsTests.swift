@testable import FlickrService
import Foundation
import Sandbox
import Testing

/// `flickr.photosets.getList` and `flickr.photosets.getPhotos` over loopback HTTP.
@Suite struct AlbumMethodsTests {
    @Test func getListNamesEveryAlbumWithItsCountsAndCover() async throws {
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let ana = catalog.wellKnownOwner
            let albums = catalog.albums(of: ana.nsid)
            #expect(albums.map(\.id).prefix(3) == [SandboxWellKnown.archiveAlbumID, SandboxWellKnown.favouritesAlbumID,
                                                   SandboxWellKnown.kittensAlbumID])
            let answers = try await server.answers("flickr.photosets.getList", [
                "user_id": ana.nsid, "primary_photo_extras": "url_q,media",
            ])
            let list = try #require(answers.element("photosets"))
            #expect(list.attributes["total"] == String(albums.count) && list.attributes["pages"] == "1")
            let sets = list.children(named: "photoset")
            let jsonSets = (answers.json["photosets"] as? [String: Any])?["photoset"] as? [[String: Any]] ?? []
            #expect(sets.compactMap { $0.attributes["id"] } == albums.map(\.id))
            #expect(jsonSets.compactMap { $0["id"] as? String } == albums.map(\.id))
            for (album, (element, json)) in zip(albums, zip(sets, jsonSets)) {
                let videos = album.photoIndexes.filter { catalog.photo(at: $0).isVideo }.count
                let primary = catalog.photo(at: album.primaryIndex)
                #expect(element.attributes["photos"] == String(album.photoIndexes.count - videos))
                #expect(element.attributes["videos"] == String(videos))
                #expect(json["photos"] as? Int == album.photoIndexes.count - videos && json["videos"] as? Int == videos)
                #expect(element.attributes["primary"] == primary.id && json["primary"] as? String == primary.id)
                #expect(element.attributes["secret"] == primary.secret && element.attributes["server"] == primary.server)
                #expect(element.children(named: "title").first?.text == album.title && content(json["title"]) == album.title)
                #expect(content(json["description"]) == album.description)
                let extras = element.children(named: "primary_photo_extras").first
                #expect(extras?.attributes["url_q"] == server.baseURL.absoluteString + primary.imagePath(.q))
                #expect((json["primary_photo_extras"] as? [String: Any])?["media"] as? String == primary.media)
            }

            let paged = try await server.answers("flickr.photosets.getList", ["user_id": ana.nsid, "per_page": "2", "page": "2"])
            #expect(paged.element("photosets")?.children(named: "photoset").compactMap { $0.attributes["id"] }
                == albums.dropFirst(2).prefix(2).map(\.id))
            #expect(paged.element("photosets")?.attributes["pages"] == String((albums.count + 1) / 2))
            expectFailure(try await server.answers("flickr.photosets.getList", ["user_id": "1234567@N00"]), code: 1, "User not found")
        }
    }

    @Test func getPhotosAnswersAPhotosetRootWithItsOwner() async throws {
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let album = try #require(catalog.album(id: SandboxWellKnown.favouritesAlbumID))
            let primary = catalog.photo(at: album.primaryIndex)
            let answers = try await server.answers("flickr.photosets.getPhotos", [
                "photoset_id": album.id, "user_id": album.owner, "per_page": "10", "extras": "media,owner_name,url_sq",
            ])
            let set = try #require(answers.element("photoset"))
            #expect(answers.element("photos") == nil)
            let attributes = set.attributes
            #expect(attributes["id"] == album.id && attributes["primary"] == primary.id)
            #expect(attributes["owner"] == album.owner && attributes["ownername"] == "Ana Souza")
            #expect(attributes["title"] == "Favourites" && attributes["page"] == "1")
            #expect(attributes["per_page"] == "10" && attributes["perpage"] == "10")
            #expect(attributes["total"] == String(album.photoIndexes.count))
            #expect(attributes["pages"] == String((album.photoIndexes.count + 9) / 10))
            let ids = answers.photoIDs("photoset")
            #expect(ids.xml == catalog.ids(album.photoIndexes.prefix(10)) && ids.json == ids.xml)
            for element in set.children(named: "photo") {
                #expect(element.attributes["owner"] == nil, "an album's photos carry no owner")
                #expect(element.attributes["isprimary"] == (element.attributes["id"] == primary.id ? "1" : "0"))
                #expect(element.attributes["ownername"] == "Ana Souza")
            }
            let json = try #require(answers.json["photoset"] as? [String: Any])
            #expect(json["id"] as? String == album.id && json["owner"] as? String == album.owner)
            #expect(json["ownername"] as? String == "Ana Souza" && json["title"] as? String == "Favourites")
            #expect(json["page"] as? Int == 1 && json["per_page"] as? Int == 10 && json["perpage"] as? Int == 10)
            #expect(json["total"] as? Int == album.photoIndexes.count)
            let first = try #require((json["photo"] as? [[String: Any]])?.first)
            #expect(first["owner"] == nil && first["isprimary"] as? String != nil)
        }
    }

    @Test func largeAlbumsPageCompletelyWithoutRepeats() async throws {
        try await withSandbox { $0.photoCount = 20_000 } _: { server, network in
            for id in SandboxWellKnown.largeAlbumIDs {
                let album = try #require(server.catalog.album(id: id))
                #expect(album.photoIndexes.count > 500, "\(id) has \(album.photoIndexes.count)")
                for perPage in [500, 137] {
                    var seen: [String] = []
                    var page = 1
                    var pages = 1
                    repeat {
                        let response = try await network.json(server.jsonCall("flickr.photosets.getPhotos", [
                            "photoset_id": id, "per_page": String(perPage), "page": String(page),
                        ]))
                        let set = try #require(response["photoset"] as? [String: Any])
                        pages = set["pages"] as? Int ?? 0
                        #expect(set["page"] as? Int == page && set["total"] as? Int == album.photoIndexes.count)
                        seen += (set["photo"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                        page += 1
                    } while page <= pages && page < 20
                    #expect(pages == (album.photoIndexes.count + perPage - 1) / perPage && pages > 1)
                    #expect(seen == server.catalog.ids(album.photoIndexes), "\(id) at \(perPage) a page")
                    #expect(Set(seen).count == seen.count)
                }
            }
            // Without per_page, an album comes 500 at a time.
            let first = try await network.json(server.jsonCall("flickr.photosets.getPhotos", [
                "photoset_id": SandboxWellKnown.archiveAlbumID,
            ]))
            #expect((first["photoset"] as? [String: Any])?["perpage"] as? Int == 500)
        }
    }

    @Test func unknownAlbumsAndOtherOwnersFail() async throws {
        try await withSandbox { server, _ in
            let other = try #require(server.catalog.people.dropFirst().first)
            for parameters in [["photoset_id": "12345678901234567890"], ["photoset_id": ""],
                               ["photoset_id": SandboxWellKnown.archiveAlbumID, "user_id": other.nsid]] {
                expectFailure(try await server.answers("flickr.photosets.getPhotos", parameters), code: 1, "Photoset not found")
            }
        }
    }

    @Test func otherOwnersHaveAlbumsOfTheirOwnPhotos() {
        let catalog = Catalog(photoCount: 3_000)
        let owners = catalog.people.filter { !catalog.albums(of: $0.nsid).isEmpty }
        #expect(owners.count > 10)
        var ids = Set<String>()
        for owner in owners {
            for album in catalog.albums(of: owner.nsid) {
                #expect(ids.insert(album.id).inserted, "album ids are unique")
                #expect(album.id.count == 17 && album.id.hasPrefix("72157"))
                #expect(album.photoIndexes.allSatisfy { catalog.photo(at: $0).owner == owner.nsid })
                #expect(album.photoIndexes.contains(album.primaryIndex))
            }
        }
        #expect(Catalog(photoCount: 3_000).albums(of: owners[0].nsid) == catalog.albums(of: owners[0].nsid))
    }
}
