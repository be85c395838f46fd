import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking

/// The provider's people, albums, galleries, pools and links over real
/// loopback HTTP, the server answering each method with what Flickr really
/// sent: the request's method and parameters are checked, and no error
/// text ever holds the API key.
@Suite struct FlickrCollectionProviderTests {
    private static let key = "0123456789abcdef0123456789abcdef"
    private let recorded = Recorded2025Tests()

    /// A body from `Recorded/flickr-2025` by its number.
    private func body(_ prefix: String) throws -> Data { try recorded.body(prefix).0 }

    /// A body from `Recorded/bodies` by name.
    private func older(_ name: String) throws -> Data { try RecordedResponses.body(named: name) }

    /// Runs `test` with a provider whose server answers each method with
    /// `answers[method]` (Flickr's "method not found" for the rest).
    private func withFlickr(
        _ answers: [String: Data],
        _ test: (FlickrProvider, LoopbackHTTPServer) async throws -> Void
    ) async throws {
        let replies = answers
        try await LoopbackHTTPServer.with({ request in
            let method = request.parameters["method"] ?? ""
            guard let body = replies[method] else {
                return .text(#"{"stat":"fail","code":112,"message":"Method \"\#(method)\" not found"}"#)
            }
            return .respond(headers: [("Content-Type", "text/xml; charset=utf-8")], body: body)
        }) { server in
            let network = NetworkManager()
            var policy = RetryPolicy.never
            policy.maxAttempts = 1
            let provider = FlickrProvider(apiKey: Self.key, endpoint: server.restURL, network: network, retryPolicy: policy)
            do {
                try await test(provider, server)
                await network.shutdown()
            } catch {
                await network.shutdown()
                throw error
            }
        }
    }

    private func methods(_ server: LoopbackHTTPServer) -> [String] {
        server.requests.map { $0.parameters["method"] ?? "" }
    }

    private func request(_ server: LoopbackHTTPServer, _ method: String) throws -> ReceivedRequest {
        try #require(server.requests.first { $0.parameters["method"] == method }, "no \(method) request")
    }

    /// The error `work` throws, checked to be a sentence without the key.
    private func sentence(_ work: () async throws -> Void) async throws -> String {
        let error = try await #require(throws: FlickrError.self) { try await work() }
        guard case .notFound(let text) = error else {
            Issue.record("not a not-found sentence: \(error)")
            return error.description
        }
        #expect(!text.contains(Self.key) && !error.description.contains(Self.key))
        return text
    }

    // MARK: - People

    @Test func aProfileURLIsLookedUpByURLThenDescribed() async throws {
        try await withFlickr([
            "flickr.urls.lookupUser": try older("11-1_flickr.urls.lookupUser.xml"),
            "flickr.people.getInfo": try older("11-2_flickr.people.getInfo.xml"),
        ]) { provider, server in
            let person = try await provider.person(named: "https://www.flickr.com/photos/george/")
            #expect(person == Person(id: "34427469121@N01", username: "George", realName: "George Oates", pathAlias: "george"))
            #expect(methods(server) == ["flickr.urls.lookupUser", "flickr.people.getInfo"], "a URL names an alias, not a username")
            #expect(try request(server, "flickr.urls.lookupUser").parameters["url"] == "https://www.flickr.com/photos/george/")
            #expect(try request(server, "flickr.people.getInfo").parameters["user_id"] == "34427469121@N01")
            #expect(server.requests.allSatisfy { $0.method == "GET" && $0.parameters["api_key"] == Self.key })

            _ = try await provider.person(named: "https://www.flickr.com/photos/george/")
            #expect(server.requests.count == 2, "remembered")
        }
    }

    @Test func aUsernameIsFoundByName() async throws {
        try await withFlickr([
            "flickr.people.findByUsername": try body("02-"),
            "flickr.people.getInfo": try body("03-"),
        ]) { provider, server in
            let person = try await provider.person(named: "  Flickr Foundation ")
            #expect(person.id == "197130754@N07" && person.pathAlias == "flickrfoundation")
            #expect(methods(server) == ["flickr.people.findByUsername", "flickr.people.getInfo"])
            #expect(try request(server, "flickr.people.findByUsername").parameters["username"] == "Flickr Foundation")
        }
    }

    @Test func aPathAliasFallsBackToItsPhotostreamURL() async throws {
        try await withFlickr([
            "flickr.people.findByUsername": try body("15-"),
            "flickr.urls.lookupUser": try body("02-"),
            "flickr.people.getInfo": try body("03-"),
        ]) { provider, server in
            let person = try await provider.person(named: "flickrfoundation")
            #expect(person.displayName == "Flickr Foundation" && person.id == "197130754@N07")
            #expect(methods(server) == ["flickr.people.findByUsername", "flickr.urls.lookupUser", "flickr.people.getInfo"])
            #expect(try request(server, "flickr.urls.lookupUser").parameters["url"] == "https://www.flickr.com/photos/flickrfoundation/")
        }
    }

    @Test func anUnknownNameIsASentence() async throws {
        try await withFlickr([
            "flickr.people.findByUsername": try body("15-"), "flickr.urls.lookupUser": try body("15-"),
        ]) { provider, _ in
            let text = try await sentence { _ = try await provider.person(named: "DefinitelyDoesNotExist") }
            #expect(text.hasPrefix("Flickr has no user “DefinitelyDoesNotExist”"))
        }
    }

    /// A link to another site, however much it looks like Flickr's, is
    /// refused in a sentence before anything is asked: it was sent to
    /// findByUsername as a name.
    @Test(arguments: [
        "https://www.flickr.com:443@evil.example/photos/anasouza/",
        "https://flickr.com.evil.example/photos/anasouza/",
        "http://evil.example/photos/anasouza/",
        "javascript:alert(1)//www.flickr.com/photos/anasouza/",
        "file:///etc/passwd",
    ])
    func aLinkToAnotherSiteIsNeverLookedUpAsAName(_ link: String) async throws {
        try await withFlickr([
            "flickr.people.findByUsername": try body("15-"), "flickr.urls.lookupUser": try body("15-"),
        ]) { provider, server in
            let error = try await #require(throws: FlickrError.self) { _ = try await provider.person(named: link) }
            #expect(error.description.contains("not a link to Flickr"))
            #expect(server.requests.isEmpty, "asked: \(methods(server))")
        }
    }

    @Test func aDeletedAccountIsASentence() async throws {
        try await withFlickr(["flickr.people.getInfo": try body("21-")]) { provider, server in
            let text = try await sentence { _ = try await provider.person(named: "48143042@N05") }
            #expect(text.contains("48143042@N05") && text.contains("deleted"))
            #expect(methods(server) == ["flickr.people.getInfo"], "an NSID needs no lookup")
        }
    }

    @Test func withoutPeopleGetInfoThePersonIsAsLookedUp() async throws {
        try await withFlickr(["flickr.urls.lookupUser": try body("02-")]) { provider, _ in
            let person = try await provider.person(named: "flickr.com/people/flickrfoundation")
            #expect(person == Person(id: "197130754@N07", username: "Flickr Foundation"))
        }
    }

    @Test func theUserFilterSearchesThePersonsNSID() async throws {
        try await withFlickr([
            "flickr.people.findByUsername": try body("15-"),
            "flickr.urls.lookupUser": try body("02-"),
            "flickr.people.getInfo": try body("03-"),
            "flickr.photos.search": try body("11-"),
        ]) { provider, server in
            let query = try #require(try SearchQuery.parse("sunset user:flickrfoundation"))
            let page = try await provider.search(query, page: 1, perPage: 10)
            #expect(page.photos.count == 10)
            #expect(try request(server, "flickr.photos.search").parameters["user_id"] == "197130754@N07")
        }
    }

    // MARK: - Photos of a collection

    @Test func aPhotostreamPagesThroughGetPublicPhotos() async throws {
        let key = try RecordedResponses.answerKey(named: "11-3_flickr.people.getPublicPhotos.expected.json")
        try await withFlickr(["flickr.people.getPublicPhotos": try older(key.bodyName)]) { provider, server in
            let george = Person(id: "34427469121@N01", username: "George", realName: "George Oates", pathAlias: "george")
            let page = try await provider.photos(in: .photostream(of: george), page: 2, perPage: 10)
            #expect(page.photos.map(\.id) == key.photos?.map(\.id))
            #expect(page.total == key.total)
            let sent = try request(server, "flickr.people.getPublicPhotos").parameters
            #expect(sent["user_id"] == george.id && sent["page"] == "2" && sent["per_page"] == "10")
            let extras = Set((sent["extras"] ?? "").split(separator: ",").map(String.init))
            #expect(extras == Set(FlickrProvider.extras + ["media"]), "the search's extras and media")
        }
    }

    @Test func anAlbumPagesThroughPhotosetsGetPhotos() async throws {
        let (data, expected) = try recorded.body("05-")
        let key = try #require(expected["photoset"] as? [String: Any])
        try await withFlickr(["flickr.photosets.getPhotos": data]) { provider, server in
            let owner = Person(id: "132051449@N06", username: "Jeong Vin, Yoon")
            let album = PhotoCollection(kind: .album, id: "72157677773252346", title: "포트폴리오 제작용", owner: owner)
            let page = try await provider.photos(in: album, page: 1, perPage: 10)
            #expect(page.photos.map(\.id) == key["ids"] as? [String])
            #expect(page.photos.allSatisfy { $0.owner == owner.id && $0.ownerName == "Jeong Vin, Yoon" })
            let sent = try request(server, "flickr.photosets.getPhotos").parameters
            #expect(sent["photoset_id"] == album.id && sent["user_id"] == owner.id)
            #expect(sent["extras"]?.split(separator: ",").contains("media") == true)
        }
    }

    @Test func aGalleryAndAPoolPageThroughTheirMethods() async throws {
        try await withFlickr([
            "flickr.galleries.getPhotos": try body("12-"), "flickr.groups.pools.getPhotos": try body("14-"),
        ]) { provider, server in
            let gallery = PhotoCollection(kind: .gallery, id: "196081879-72157720932863274", title: "Sunrise/Sunsets")
            #expect(try await provider.photos(in: gallery, page: 1, perPage: 10).total == 139)
            #expect(try request(server, "flickr.galleries.getPhotos").parameters["gallery_id"] == gallery.id)

            let pool = PhotoCollection(kind: .pool, id: "31849566@N00", title: "Slovenia")
            let page = try await provider.photos(in: pool, page: 3, perPage: 10)
            #expect(page.total == 44840 && page.photos.count == 10)
            let sent = try request(server, "flickr.groups.pools.getPhotos").parameters
            #expect(sent["group_id"] == pool.id && sent["page"] == "3")
        }
    }

    @Test func collectionsFlickrDoesNotHaveAreSentences() async throws {
        try await withFlickr([
            "flickr.people.getPublicPhotos": try body("16-"), "flickr.photosets.getPhotos": try body("20-"),
            "flickr.galleries.getPhotos": try body("18-"), "flickr.groups.pools.getPhotos": try body("19-"),
        ]) { provider, _ in
            let stream = try await sentence { _ = try await provider.photos(in: .photostream(of: Person(id: "1234567@N00", username: "")), page: 1, perPage: 10) }
            #expect(stream.hasPrefix("Flickr has no user “1234567@N00”"))
            let album = try await sentence { _ = try await provider.photos(in: PhotoCollection(kind: .album, id: "12345678901234567890", title: ""), page: 1, perPage: 10) }
            #expect(album.hasPrefix("Flickr has no album “12345678901234567890”"))
            let gallery = try await sentence { _ = try await provider.photos(in: PhotoCollection(kind: .gallery, id: "1-2", title: "Blue hour"), page: 1, perPage: 10) }
            #expect(gallery.hasPrefix("Flickr has no gallery “Blue hour”"))
            let pool = try await sentence { _ = try await provider.photos(in: PhotoCollection(kind: .pool, id: "1@N00", title: "doesnotexist"), page: 1, perPage: 10) }
            #expect(pool.hasPrefix("Flickr has no group “doesnotexist”"))
        }
    }

    @Test func pagingFollowsTheSearchsLimits() async throws {
        try await withFlickr([:]) { provider, server in
            let stream = PhotoCollection.photostream(of: Person(id: "1@N00", username: "a"))
            await #expect(throws: FlickrError.self) { try await provider.photos(in: stream, page: 1, perPage: 501) }
            await #expect(throws: FlickrError.self) { try await provider.photos(in: stream, page: 0, perPage: 10) }
            await #expect(throws: FlickrError.self) { try await provider.albums(of: Person(id: "1@N00", username: "a"), page: 1, perPage: 0) }
            #expect(server.requests.isEmpty)
        }
    }

    // MARK: - Albums

    @Test func albumsComeFromPhotosetsGetListWithCovers() async throws {
        let list = #"""
            {"photosets":{"page":1,"pages":1,"perpage":30,"total":1,"photoset":[{"id":"721","primary":"901","secret":"aa11",
            "server":"65535","farm":66,"count_photos":600,"count_videos":2,"title":{"_content":"Lisbon"},
            "primary_photo_extras":{"url_q":"https://live.staticflickr.com/65535/901_aa11_q.jpg","width_q":150,"height_q":150}}]},"stat":"ok"}
            """#
        try await withFlickr(["flickr.photosets.getList": Data(list.utf8)]) { provider, server in
            let ana = Person(id: "12345678@N00", username: "ana", pathAlias: "ana")
            let page = try await provider.albums(of: ana, page: 1, perPage: 30)
            #expect(page.albums.map(\.title) == ["Lisbon"] && page.albums.first?.photoCount == 600)
            #expect(page.albums.first?.cover?.rendition(labelled: "q") != nil)
            let sent = try request(server, "flickr.photosets.getList").parameters
            #expect(sent["user_id"] == ana.id && sent["per_page"] == "30")
            #expect(sent["primary_photo_extras"]?.split(separator: ",").contains("url_q") == true)
            #expect(provider.pageURL(for: try #require(page.albums.first).collection)?.absoluteString
                    == "https://www.flickr.com/photos/ana/albums/721/")
        }
    }

    // MARK: - Links

    @Test func aPastedPoolLinkIsLookedUpByURL() async throws {
        try await withFlickr(["flickr.urls.lookupGroup": try body("13-")]) { provider, server in
            guard case .link(let link) = provider.readLink("https://www.flickr.com/groups/slovenia/pool/") else {
                Issue.record("not read as a link")
                return
            }
            let target = try await provider.resolve(link)
            #expect(target == .collection(PhotoCollection(kind: .pool, id: "31849566@N00", title: "Slovenia")))
            #expect(try request(server, "flickr.urls.lookupGroup").parameters["url"] == "https://www.flickr.com/groups/slovenia/pool/")
        }
    }

    @Test func aPastedAlbumLinkIsTitledByItsFirstPage() async throws {
        try await withFlickr(["flickr.photosets.getPhotos": try body("05-")]) { provider, server in
            let target = try await provider.resolve(.album(id: "72157677773252346", owner: "spike_yun"))
            let owner = Person(id: "132051449@N06", username: "Jeong Vin, Yoon", pathAlias: "spike_yun")
            #expect(target == .collection(PhotoCollection(kind: .album, id: "72157677773252346", title: "포트폴리오 제작용", owner: owner)))
            let sent = try request(server, "flickr.photosets.getPhotos").parameters
            #expect(sent["per_page"] == "1" && sent["user_id"] == nil, "an alias is not a user_id")
            if case .collection(let album) = target {
                #expect(provider.pageURL(for: album)?.absoluteString == "https://www.flickr.com/photos/spike_yun/albums/72157677773252346/")
            }
        }
    }

    @Test func aPastedGalleryLinkIsLookedUpByURL() async throws {
        // `galleries.getPhotos` recorded the same `gallery` element lookupGallery answers with.
        try await withFlickr(["flickr.urls.lookupGallery": try body("12-")]) { provider, server in
            let url = try #require(URL(string: "https://www.flickr.com/photos/kuchpop/galleries/72157720932863274/"))
            let target = try await provider.resolve(.gallery(url))
            guard case .collection(let gallery) = target else {
                Issue.record("not a collection: \(target)")
                return
            }
            #expect(gallery.kind == .gallery && gallery.id == "196081879-72157720932863274" && gallery.title == "Sunrise/Sunsets")
            #expect(try request(server, "flickr.urls.lookupGallery").parameters["url"] == url.absoluteString)
            #expect(provider.pageURL(for: gallery) == url)
        }
    }

    @Test func aPastedPhotoLinkBecomesAPhotoFromGetInfo() async throws {
        try await withFlickr([
            "flickr.photos.getInfo": try older("09-photos.getInfo_JSONP-custom-callback_quot-entity_2009.jsonp"),
        ]) { provider, server in
            let target = try await provider.resolve(.photo(id: "3993716693"))
            guard case .photo(let photo) = target else {
                Issue.record("not a photo: \(target)")
                return
            }
            #expect(photo.id == "3993716693" && photo.owner == "22691397@N06" && photo.title == "pastel.charcoal.gesso.")
            #expect(photo.secret == "47cbc16ef4" && photo.server == "2557" && !photo.isVideo)
            #expect(provider.imageURL(for: photo, size: .square150) != nil, "its images can be built")
            #expect(try request(server, "flickr.photos.getInfo").parameters["photo_id"] == "3993716693")
        }
    }

    @Test func linksToWhatFlickrDoesNotHaveAreSentences() async throws {
        try await withFlickr([
            "flickr.photos.getInfo": try body("17-"), "flickr.urls.lookupGroup": try body("19-"),
            "flickr.urls.lookupUser": try body("15-"),
        ]) { provider, _ in
            let photo = try await sentence { _ = try await provider.resolve(.photo(id: "35366357641")) }
            #expect(photo == "Flickr has no photo “35366357641”, or it is private.")
            let group = try await sentence { _ = try await provider.resolve(.pool(group: "doesnotexist")) }
            #expect(group.hasPrefix("Flickr has no group “doesnotexist”"))
            let person = try await sentence { _ = try await provider.resolve(.person("DefinitelyDoesNotExist")) }
            #expect(person.hasPrefix("Flickr has no user “DefinitelyDoesNotExist”"))
        }
    }

    // MARK: - Videos and pages

    @Test func aVideosFileComesFromGetSizesAndAPhotoCostsNoCall() async throws {
        let sizes = #"""
            <?xml version="1.0" encoding="utf-8" ?>
            <rsp stat="ok"><sizes canblog="0" canprint="0" candownload="1">
            <size label="Small" width="240" height="135" source="https://live.staticflickr.com/1/7_a_m.jpg" url="https://www.flickr.com/photos/x/7/sizes/s/" media="photo" />
            <size label="Video Player" width="640" height="360" source="https://www.flickr.com/apps/video/stewart.swf?photo_id=7" url="https://www.flickr.com/photos/x/7/" media="video" />
            <size label="Site MP4" width="640" height="360" source="https://www.flickr.com/photos/x/7/play/site/a/" url="https://www.flickr.com/photos/x/7/" media="video" />
            <size label="HD MP4" width="1280" height="720" source="https://www.flickr.com/photos/x/7/play/hd/a/" url="https://www.flickr.com/photos/x/7/" media="video" />
            </sizes></rsp>
            """#
        try await withFlickr(["flickr.photos.getSizes": Data(sizes.utf8)]) { provider, server in
            var video = Photo(id: "7", owner: "1@N00", secret: "a", server: "1", title: "clip")
            let none = try await provider.videoURL(for: video)
            #expect(none == nil)
            #expect(server.requests.isEmpty, "a photo is not asked about")
            video.isVideo = true
            let file = try await provider.videoURL(for: video)
            #expect(file?.absoluteString == "https://www.flickr.com/photos/x/7/play/hd/a/")
            let sent = try request(server, "flickr.photos.getSizes")
            #expect(sent.parameters["photo_id"] == "7")
        }
    }

    @Test func pagesLinkToFlickr() async throws {
        try await withFlickr([:]) { provider, _ in
            let photo = Photo(id: "7", owner: "34427469121@N01", secret: "a", server: "1", title: "")
            #expect(provider.ownerPageURL(for: photo)?.absoluteString == "https://www.flickr.com/photos/34427469121@N01/")
            let george = Person(id: "34427469121@N01", username: "George", pathAlias: "george")
            #expect(provider.pageURL(for: .photostream(of: george))?.absoluteString == "https://www.flickr.com/photos/george/")
            #expect(provider.pageURL(for: PhotoCollection(kind: .pool, id: "31849566@N00", title: "Slovenia"))?.absoluteString
                    == "https://www.flickr.com/groups/31849566@N00/pool/")
            #expect(provider.pageURL(for: PhotoCollection(kind: .album, id: "1", title: "no owner")) == nil)
            let odd = Photo(id: "7", owner: "a/../b", secret: "a", server: "1", title: "")
            #expect(provider.ownerPageURL(for: odd) == nil, "an owner that would change the URL's meaning")
            #expect(provider.capabilities.collections.available != nil)
        }
    }
}
