import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// People, albums, galleries and pools as Flickr really answered them
/// (`Recorded/flickr-2025`, `Recorded/bodies/11-…`), read by the
/// collection decoder and compared with their answer keys.
@Suite struct FlickrCollectionDecoderTests {
    private let recorded = Recorded2025Tests()

    @Test func lookupUserGivesTheIdAndUsername() throws {
        let (data, expected) = try recorded.body("02-")
        let user = try #require(expected["user"] as? [String: Any])
        let person = try FlickrCollectionDecoder.decodeLookedUpUser(data)
        #expect(person.id == user["id"] as? String)
        #expect(person.username == user["username"] as? String)
    }

    @Test func peopleGetInfoGivesRealNameAndPathAlias() throws {
        let (data, expected) = try recorded.body("03-")
        let key = try #require(expected["person"] as? [String: Any])
        let person = try FlickrCollectionDecoder.decodePerson(data)
        #expect(person.id == key["nsid"] as? String)
        #expect(person.username == key["username"] as? String)
        #expect(person.realName == key["realname"] as? String)
        #expect(person.pathAlias == key["path_alias"] as? String)
    }

    @Test func anOlderProfileReadsTheSame() throws {
        let person = try FlickrCollectionDecoder.decodePerson(RecordedResponses.body(named: "11-2_flickr.people.getInfo.xml"))
        #expect(person == Person(id: "34427469121@N01", username: "George", realName: "George Oates", pathAlias: "george"))
        #expect(person.displayName == "George Oates")
    }

    @Test func anAlbumsPhotosComeFromPhotosetWithItsTitleAndOwner() throws {
        let (data, expected) = try recorded.body("05-")
        let key = try #require(expected["photoset"] as? [String: Any])
        let decoded = try FlickrCollectionDecoder.decodePage(data, listKey: "photoset")
        #expect(decoded.title == key["title"] as? String)
        #expect(decoded.title == "포트폴리오 제작용")
        #expect(decoded.owner?.id == key["owner"] as? String)
        #expect(decoded.owner?.username == key["ownername"] as? String)
        let page = decoded.page.page
        #expect(page.photos.map(\.id) == key["ids"] as? [String])
        #expect(page.total == key["total"] as? Int)
        #expect(page.pages == key["pages"] as? Int)
        #expect(page.perPage == key["perpage"] as? Int)
        // Album photos carry no owner of their own: the list's is theirs.
        let photos = try #require(key["photos"] as? [[String: Any]])
        #expect(page.photos.map(\.owner) == photos.map { $0["owner"] as? String ?? "" })
        #expect(page.photos.map(\.title) == photos.map { $0["title"] as? String ?? "" })
        #expect(page.photos.contains { $0.title.isEmpty }, "one photo has an empty title")
        #expect(page.photos.allSatisfy { !$0.isVideo })
    }

    @Test(arguments: ["04-", "12-", "14-"])
    func streamsGalleriesAndPoolsKeepOrderOwnersAndSizes(_ prefix: String) throws {
        let (data, expected) = try recorded.body(prefix)
        let key = try #require(expected["photos"] as? [String: Any])
        let decoded = try FlickrCollectionDecoder.decodePage(data)
        let page = decoded.page.page
        #expect(page.photos.map(\.id) == key["ids"] as? [String])
        #expect(page.total == key["total"] as? Int)
        #expect(page.pages == key["pages"] as? Int)
        let photos = try #require(key["photos"] as? [[String: Any]])
        for (photo, want) in zip(page.photos, photos) {
            #expect(photo.owner == want["owner"] as? String)
            #expect(photo.title == want["title"] as? String)
            #expect(photo.isVideo == (want["media"] as? String == "video"))
            let urls = try #require(want["url_extras"] as? [String: String])
            #expect(Set(photo.renditions.map { "url_" + $0.label }) == Set(urls.keys), "\(photo.id)")
            for rendition in photo.renditions {
                #expect(rendition.url.absoluteString == urls["url_" + rendition.label])
            }
        }
    }

    @Test func anOlderPhotostreamReadsItsAnswerKey() throws {
        let key = try RecordedResponses.answerKey(named: "11-3_flickr.people.getPublicPhotos.expected.json")
        let page = try FlickrCollectionDecoder.decodePage(RecordedResponses.body(named: key.bodyName)).page.page
        #expect(page.photos.map(\.id) == key.photos?.map(\.id))
        #expect(page.total == key.total)
        #expect(page.photos.map(\.title) == key.photos?.map(\.title))
    }

    @Test func galleriesGetPhotosNamesItsGallery() throws {
        let (data, expected) = try recorded.body("12-")
        let key = try #require(expected["gallery"] as? [String: Any])
        let gallery = try FlickrCollectionDecoder.decodeGallery(data)
        #expect(gallery.kind == .gallery)
        #expect(gallery.id == key["id"] as? String)
        #expect(gallery.title == key["title"] as? String)
        #expect(gallery.owner?.id == key["owner"] as? String)
        #expect(gallery.owner?.username == key["username"] as? String)
        #expect(gallery.owner?.pathAlias == "kuchpop", "from the gallery's URL")
    }

    @Test func lookupGroupGivesThePool() throws {
        let (data, expected) = try recorded.body("13-")
        let key = try #require(expected["group"] as? [String: Any])
        let pool = try FlickrCollectionDecoder.decodeGroup(data)
        #expect(pool == PhotoCollection(kind: .pool, id: try #require(key["id"] as? String), title: try #require(key["groupname"] as? String)))
        #expect(pool.description == "pool of Slovenia")
    }

    @Test(arguments: ["15-", "16-", "18-", "19-", "20-", "21-"])
    func failuresKeepFlickrsCodeAndMessage(_ prefix: String) throws {
        let (data, expected) = try recorded.body(prefix)
        let code = try #require(expected["code"] as? Int)
        let message = try #require(expected["message"] as? String)
        let error = try #require(throws: FlickrError.self) { try FlickrCollectionDecoder.decodePage(data) }
        #expect(error == .api(code: code, message: message))
        #expect(throws: FlickrError.api(code: code, message: message)) { try FlickrCollectionDecoder.decodePerson(data) }
    }

    @Test func photosetsGetListGivesCountsAndCovers() throws {
        let owner = Person(id: "12345678@N00", username: "ana")
        let body = #"""
            {"photosets":{"page":1,"pages":3,"perpage":2,"total":"5","photoset":[
            {"id":"72157600000000001","owner":"12345678@N00","primary":"901","secret":"aa11","server":"65535","farm":66,
             "count_photos":"512","count_videos":3,"title":{"_content":"Lisbon"},"description":{"_content":""},
             "primary_photo_extras":{"url_q":"https://live.staticflickr.com/65535/901_aa11_q.jpg","width_q":150,"height_q":150,"media":"photo"}},
            {"id":"72157600000000002","owner":"12345678@N00","primary":"902","secret":"bb22","server":"65535","farm":66,
             "photos":7,"videos":"0","title":{"_content":""}}]},"stat":"ok"}
            """#
        let page = try FlickrCollectionDecoder.decodeAlbums(Data(body.utf8), owner: owner)
        #expect((page.page, page.pages, page.total) == (1, 3, 5))
        #expect(page.albums.map(\.id) == ["72157600000000001", "72157600000000002"])
        #expect(page.albums.map(\.title) == ["Lisbon", ""])
        #expect(page.albums.map(\.photoCount) == [512, 7])
        #expect(page.albums.map(\.videoCount) == [3, 0])
        let cover = try #require(page.albums[0].cover)
        #expect(cover.id == "901" && cover.secret == "aa11" && cover.owner == owner.id)
        #expect(cover.rendition(labelled: "q")?.url.absoluteString == "https://live.staticflickr.com/65535/901_aa11_q.jpg")
        #expect(page.albums[1].cover?.id == "902", "a cover without extras still has its keys")
        #expect(page.albums[0].collection == PhotoCollection(kind: .album, id: "72157600000000001", title: "Lisbon", owner: owner))
    }

    @Test func theXMLFormOfGetListReadsTheSame() throws {
        let body = #"""
            <?xml version="1.0" encoding="utf-8" ?>
            <rsp stat="ok"><photosets page="1" pages="1" perpage="500" total="1">
            <photoset id="721" primary="901" secret="aa11" server="65535" farm="66" count_photos="4" count_videos="1">
            <title>Blue &amp; gold</title><description /><primary_photo_extras url_q="https://live.staticflickr.com/65535/901_aa11_q.jpg" width_q="150" height_q="150" />
            </photoset></photosets></rsp>
            """#
        let page = try FlickrCollectionDecoder.decodeAlbums(Data(body.utf8), owner: Person(id: "1@N00", username: "a"))
        #expect(page.albums.map(\.title) == ["Blue & gold"])
        #expect(page.albums.first?.videoCount == 1)
        #expect(page.albums.first?.cover?.renditions.count == 1)
    }

    @Test func aVideoIsMarkedAndItsOriginalFileChosen() throws {
        let list = #"""
            {"photos":{"page":1,"pages":1,"perpage":2,"total":2,"photo":[
            {"id":"1","owner":"1@N00","secret":"a","server":"1","title":"clip","media":"video"},
            {"id":"2","owner":"1@N00","secret":"b","server":"1","title":"still","media":"photo"}]},"stat":"ok"}
            """#
        let photos = try FlickrCollectionDecoder.decodePage(Data(list.utf8)).page.page.photos
        #expect(photos.map(\.isVideo) == [true, false])

        let sizes = #"""
            {"sizes":{"size":[
            {"label":"Large Square","width":150,"height":150,"source":"https://live.staticflickr.com/1/1_a_q.jpg","media":"photo"},
            {"label":"Video Player","width":640,"height":360,"source":"https://www.flickr.com/apps/video/stewart.swf?photo_id=1","media":"video"},
            {"label":"Site MP4","width":640,"height":360,"source":"https://www.flickr.com/photos/x/1/play/site/a/","media":"video"},
            {"label":"HD MP4","width":"1280","height":"720","source":"https://www.flickr.com/photos/x/1/play/hd/a/","media":"video"},
            {"label":"Video Original","width":"1920","height":"1080","source":"https://www.flickr.com/photos/x/1/play/orig/c/","media":"video"}]},"stat":"ok"}
            """#
        #expect(try FlickrCollectionDecoder.decodeVideoURL(Data(sizes.utf8))?.absoluteString
                == "https://www.flickr.com/photos/x/1/play/orig/c/")
        let withoutOriginal = sizes.replacingOccurrences(of: "Video Original", with: "Mobile MP4")
            .replacingOccurrences(of: #""1920","height":"1080""#, with: #""320","height":"180""#)
        #expect(try FlickrCollectionDecoder.decodeVideoURL(Data(withoutOriginal.utf8))?.absoluteString
                == "https://www.flickr.com/photos/x/1/play/hd/a/", "the largest file")
        let stillOnly = #"{"sizes":{"size":[{"label":"Small","width":240,"height":160,"source":"https://live.staticflickr.com/1/1_a_m.jpg","media":"photo"}]},"stat":"ok"}"#
        #expect(try FlickrCollectionDecoder.decodeVideoURL(Data(stillOnly.utf8)) == nil)
    }

    @Test func getInfoBecomesAPhotoWithKeysToBuildItsImages() throws {
        let body = #"""
            {"photo":{"id":"53637883806","secret":"ff06bb5c65","server":"65535","farm":66,"media":"video","license":"4",
            "originalsecret":"7917d6e9a2","originalformat":"mp4",
            "owner":{"nsid":"34427469121@N01","username":"George","realname":"George Oates","path_alias":"george"},
            "title":{"_content":"Guess where"},"description":{"_content":""},"dates":{"posted":"1712509720","taken":"2024-04-07 16:09:01"},
            "tags":{"tag":[]},"urls":{"url":[{"type":"photopage","_content":"https://www.flickr.com/photos/george/53637883806/"}]}},"stat":"ok"}
            """#
        let photo = try FlickrCollectionDecoder.decodeInfoPhoto(Data(body.utf8))
        #expect(photo.id == "53637883806" && photo.owner == "34427469121@N01" && photo.ownerName == "George")
        #expect(photo.title == "Guess where" && photo.dateTaken == "2024-04-07 16:09:01")
        #expect(photo.flickr == FlickrPhotoKeys(secret: "ff06bb5c65", server: "65535", farm: 66, originalSecret: "7917d6e9a2", originalFormat: "mp4"))
        #expect(photo.isVideo)
        #expect(photo.credit?.license?.shortName == "CC BY 2.0")
        #expect(photo.credit?.pageURL?.absoluteString == "https://www.flickr.com/photos/george/53637883806/")
    }

    @Test func aPrivateOrMissingPhotoKeepsFlickrsUnescapedMessage() throws {
        let (data, expected) = try recorded.body("17-")
        let message = try #require(expected["message"] as? String)
        #expect(throws: FlickrError.api(code: 1, message: message)) { try FlickrCollectionDecoder.decodeInfoPhoto(data) }
    }
}
