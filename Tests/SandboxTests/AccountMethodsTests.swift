import Foundation
import Networking
import Sandbox
import Testing

/// A signed-in person's side of the Flickr sandbox over real HTTP: their
/// non-public photos seen by them alone, favourites, licences and albums,
/// and Flickr's refusals for calls without the signature or permission.
@Suite(.timeLimit(.minutes(3))) struct AccountMethodsTests {
    private func ids(_ listing: [[String: Any]]) -> [String] { listing.compactMap { $0["id"] as? String } }

    @Test func signedOwnerSeesTheirPrivatePhotosAndNobodyElseDoes() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            let owner = server.catalog.wellKnownOwner
            #expect(user.nsid == owner.nsid)
            let mine = try await user.call("flickr.people.getPhotos", [("user_id", "me"), ("per_page", "500")])
            let hidden = listed(mine).filter { $0["ispublic"] as? Int == 0 }
            #expect(hidden.count == 6)
            // Flickr's flags as it gives them: private, friends, family, friends and family.
            let flags = Set(hidden.map { "\($0["isfriend"] as? Int ?? -1)\($0["isfamily"] as? Int ?? -1)" })
            #expect(flags == ["00", "10", "01", "11"])
            // Newest first, the non-public ones being the newest.
            #expect(Array(ids(listed(mine)).prefix(6)) == ids(hidden))

            let publicView = try await SignedInUser.call("flickr.people.getPhotos", [("user_id", owner.nsid), ("per_page", "500")],
                                                         server: server, signer: nil)
            let mineTotal = try #require((mine["photos"] as? [String: Any])?["total"] as? Int)
            #expect((publicView["photos"] as? [String: Any])?["total"] as? Int == mineTotal - 6)
            #expect(listed(publicView).allSatisfy { $0["ispublic"] as? Int == 1 })
            #expect(Set(ids(listed(publicView))).isDisjoint(with: ids(hidden)))

            let hiddenID = try #require(ids(hidden).first)
            let stranger = try await SignedInUser.call("flickr.photos.getInfo", [("photo_id", hiddenID)], server: server, signer: nil)
            #expect(failureCode(stranger) == 1 && stranger["message"] as? String == "Photo not found")
            let sizes = try await SignedInUser.call("flickr.photos.getSizes", [("photo_id", hiddenID)], server: server, signer: nil)
            #expect(failureCode(sizes) == 1)
            let info = try await user.call("flickr.photos.getInfo", [("photo_id", hiddenID)])
            let visibility = (info["photo"] as? [String: Any])?["visibility"] as? [String: Any]
            #expect(visibility?["ispublic"] as? Int == 0)

            // Searches and the recent list: unsigned never, signed by the owner yes.
            let title = try #require(hidden.first?["title"] as? String)
            let word = try #require(title.split(separator: " ").first.map(String.init))
            for (signer, expected) in [(nil, false), (user.signer, true)] as [(OAuthSigner?, Bool)] {
                let found = try await SignedInUser.call("flickr.photos.search", [("user_id", owner.nsid), ("per_page", "500")],
                                                        server: server, signer: signer)
                #expect(Set(ids(listed(found))).contains(hiddenID) == expected)
                let byText = try await SignedInUser.call("flickr.photos.search", [("text", word), ("per_page", "500")],
                                                         server: server, signer: signer)
                #expect(Set(ids(listed(byText))).contains(hiddenID) == expected, "\(word)")
                let recent = try await SignedInUser.call("flickr.photos.getRecent", [("per_page", "20")], server: server, signer: signer)
                #expect(Set(ids(listed(recent))).isDisjoint(with: ids(hidden)) != expected)
            }
        }
    }

    @Test func theFlagsComeInXMLAndJSONPToo() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            let xml = try await SignedInUser.raw("flickr.people.getPhotos", [("user_id", "me"), ("per_page", "3")], server: server,
                                                 signer: user.signer, format: []).text
            #expect(xml.contains("ispublic=\"0\" isfriend=\"0\" isfamily=\"0\""), "\(xml)")
            let jsonp = try await SignedInUser.raw("flickr.people.getPhotos", [("user_id", "me"), ("per_page", "3")], server: server,
                                                   signer: user.signer, format: [("format", "json")]).text
            #expect(jsonp.hasPrefix("jsonFlickrApi({\"photos\"") && jsonp.contains("\"ispublic\":0,\"isfriend\":0,\"isfamily\":0"))
        }
    }

    @Test func callsWithoutTheSignatureOrPermissionTheyNeedGetFlickrs99() async throws {
        try await withSandbox { server, _ in
            let anyPhoto = server.catalog.photo(at: 3).id
            for method in ["flickr.favorites.getList", "flickr.favorites.add", "flickr.photos.licenses.setLicense",
                           "flickr.photosets.create", "flickr.test.login"] {
                let answer = try await SignedInUser.call(method, [("photo_id", anyPhoto)], server: server, signer: nil)
                #expect(failureCode(answer) == 99, "\(method): \(answer)")
            }
            let reader = try await SignedInUser.signIn(server, perms: "read")
            #expect(failureCode(try await reader.call("flickr.favorites.getList")) == nil)
            let refused = try await reader.call("flickr.favorites.add", [("photo_id", anyPhoto)])
            #expect(failureCode(refused) == 99)
            #expect(refused["message"] as? String == "Insufficient permissions. Method requires write privileges; read granted.")
            // The same token with a forged signature is Flickr's 96, not a read.
            let forged = OAuthSigner(consumerKey: SignedInUser.consumerKey, consumerSecret: "not-the-secret")
            #expect(failureCode(try await SignedInUser.call("flickr.people.getPhotos", [("user_id", "me")], server: server,
                                                            signer: forged)) == 96)
        }
    }

    @Test func favouritesArePerPersonWithFlickrsErrors() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            let start = ids(listed(try await user.call("flickr.favorites.getList")))
            #expect(start.count == 12)
            let photo = try #require((0..<server.catalog.count).lazy.map(server.catalog.photo(at:))
                .first { $0.owner != user.nsid && !start.contains($0.id) })
            #expect(failureCode(try await user.call("flickr.favorites.add", [("photo_id", photo.id)])) == nil)
            let again = try await user.call("flickr.favorites.add", [("photo_id", photo.id)])
            #expect(failureCode(again) == 2 && again["message"] as? String == "Photo is already in favorites")
            #expect(ids(listed(try await user.call("flickr.favorites.getList"))) == [photo.id] + start)
            // Seen by others too: the public list of the same person, unsigned.
            let published = try await SignedInUser.call("flickr.favorites.getPublicList", [("user_id", user.nsid)], server: server,
                                                        signer: nil)
            #expect(ids(listed(published)).first == photo.id)
            // Another person has favourites of their own (none here).
            let other = try #require(server.catalog.person(nsid: photo.owner))
            #expect(listed(try await user.call("flickr.favorites.getList", [("user_id", other.nsid)])).isEmpty)

            #expect(failureCode(try await user.call("flickr.favorites.remove", [("photo_id", photo.id)])) == nil)
            let gone = try await user.call("flickr.favorites.remove", [("photo_id", photo.id)])
            #expect(failureCode(gone) == 1 && gone["message"] as? String == "Photo not in favorites")
            #expect(ids(listed(try await user.call("flickr.favorites.getList"))) == start)
            let missing = try await user.call("flickr.favorites.add", [("photo_id", "1")])
            #expect(failureCode(missing) == 1 && missing["message"] as? String == "Photo not found")
            let unknown = try await SignedInUser.call("flickr.favorites.getPublicList", [("user_id", "0@N00")], server: server, signer: nil)
            #expect(failureCode(unknown) == 1)
        }
    }

    @Test func theOwnerSetsLicencesByFlickrsIds() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            let mine = try #require(ids(listed(try await user.call("flickr.people.getPhotos", [("user_id", "me")]))).first)
            for licence in [11, 16, 9, 0] {
                #expect(failureCode(try await user.call("flickr.photos.licenses.setLicense",
                                                        [("photo_id", mine), ("license_id", String(licence))])) == nil)
                let info = try await user.call("flickr.photos.getInfo", [("photo_id", mine)])
                #expect((info["photo"] as? [String: Any])?["license"] as? String == String(licence))
            }
            let listing = try await user.call("flickr.people.getPhotos", [("user_id", "me"), ("extras", "license"), ("per_page", "1")])
            #expect(listed(listing).first?["license"] as? String == "0")
            let notFound = try await user.call("flickr.photos.licenses.setLicense", [("photo_id", mine), ("license_id", "17")])
            #expect(failureCode(notFound) == 2 && notFound["message"] as? String == "License not found")
            #expect(failureCode(try await user.call("flickr.photos.licenses.setLicense", [("photo_id", mine), ("license_id", "7")])) == 4)
            let others = try #require((0..<100).lazy.map(server.catalog.photo(at:)).first { $0.owner != user.nsid })
            #expect(failureCode(try await user.call("flickr.photos.licenses.setLicense",
                                                    [("photo_id", others.id), ("license_id", "11")])) == 1)
        }
    }

    @Test func albumsAreCreatedWithAPrimaryPhotoAndFilled() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            let mine = ids(listed(try await user.call("flickr.people.getPhotos", [("user_id", "me"), ("per_page", "3")])))
            #expect(mine.count == 3)
            let created = try await user.call("flickr.photosets.create", [("title", "Harbour <walks>"), ("primary_photo_id", mine[0])])
            let photoset = try #require(created["photoset"] as? [String: Any])
            let id = try #require(photoset["id"] as? String)
            #expect(id.hasPrefix("72157") && id.count == 17)
            #expect(photoset["url"] as? String == server.catalog.wellKnownOwner.photosURL + "sets/\(id)/")
            #expect(failureCode(try await user.call("flickr.photosets.addPhoto", [("photoset_id", id), ("photo_id", mine[1])])) == nil)
            let twice = try await user.call("flickr.photosets.addPhoto", [("photoset_id", id), ("photo_id", mine[1])])
            #expect(failureCode(twice) == 3 && twice["message"] as? String == "Photo already in set")
            // Listed first among the owner's albums, with its photos, which only the owner sees (they are private).
            let sets = try await user.call("flickr.photosets.getList", [("user_id", user.nsid)])
            let first = try #require(((sets["photosets"] as? [String: Any])?["photoset"] as? [[String: Any]])?.first)
            #expect(first["id"] as? String == id && first["photos"] as? Int == 2 && first["primary"] as? String == mine[0])
            #expect((first["title"] as? [String: Any])?["_content"] as? String == "Harbour <walks>")
            let inside = try await user.call("flickr.photosets.getPhotos", [("photoset_id", id)])
            let album = try #require(inside["photoset"] as? [String: Any])
            #expect((album["photo"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [mine[0], mine[1]])
            let stranger = try await SignedInUser.call("flickr.photosets.getPhotos", [("photoset_id", id)], server: server, signer: nil)
            #expect(((stranger["photoset"] as? [String: Any])?["photo"] as? [[String: Any]])?.isEmpty == true)
            #expect(failureCode(try await user.call("flickr.photosets.addPhoto", [("photoset_id", "72157000000000000"),
                                                                                  ("photo_id", mine[2])])) == 1)
            #expect(failureCode(try await user.call("flickr.photosets.create", [("primary_photo_id", mine[0])])) == 1)
            let others = try #require((0..<100).lazy.map(server.catalog.photo(at:)).first { $0.owner != user.nsid })
            #expect(failureCode(try await user.call("flickr.photosets.create", [("title", "x"), ("primary_photo_id", others.id)])) == 2)
            let xml = try await SignedInUser.raw("flickr.photosets.create", [("title", "t"), ("primary_photo_id", mine[0])],
                                                 server: server, signer: user.signer, format: []).text
            #expect(xml.contains("<photoset id=\"72157") && xml.contains("url=\"https://www.flickr.com/photos/"))
        }
    }
}
