import Foundation
import Testing
@testable import PhotoCore
import FlickrService

/// Photos are saved in the session file: today's format round-trips, files
/// written before renditions existed still load, and broken ones fail with
/// an error rather than a half-read photo.
@Suite struct PhotoCodableTests {
    /// A page exactly as the previous version wrote it (`JSONEncoder`,
    /// sorted keys): Flickr keys at the top level and an `images` map.
    static let previousFormat = #"""
        {"page":1,"pages":3,"perPage":2,"photos":[{"dateTaken":"2024-03-02 18:11:05","farm":66,"id":"53624890009","images":{"l":{"height":683,"url":"https:\/\/live.staticflickr.com\/65535\/53624890009_5cd918efcd_b.jpg","width":1024},"q":{"height":150,"url":"https:\/\/live.staticflickr.com\/65535\/53624890009_5cd918efcd_q.jpg","width":150},"z":{"height":427,"url":"https:\/\/live.staticflickr.com\/65535\/53624890009_5cd918efcd_z.jpg","width":640}},"owner":"105731165@N07","ownerName":"jdoe","secret":"5cd918efcd","server":"65535","title":"Harbour at dusk"},{"id":"1","images":{},"owner":"o@N00","secret":"abc","server":"2","title":""}],"total":5}
        """#

    @Test func aSessionWrittenByThePreviousVersionLoads() throws {
        let page = try JSONDecoder().decode(PhotoPage.self, from: Data(Self.previousFormat.utf8))
        #expect(page.total == 5)
        let photo = try #require(page.photos.first)
        #expect(photo.id == "53624890009")
        #expect(photo.ownerName == "jdoe")
        #expect(photo.flickr == FlickrPhotoKeys(secret: "5cd918efcd", server: "65535", farm: 66))
        #expect(photo.renditions.map(\.label) == ["q", "z", "l"])
        #expect(photo.renditions.map(\.isCrop) == [true, false, false])
        #expect(photo.images[.medium640]?.width == 640)
        let ratio = try #require(photo.aspectRatio)
        #expect(abs(ratio - 1024.0 / 683.0) < 0.0001)

        let bare = page.photos[1]
        #expect(bare.renditions.isEmpty)
        #expect(bare.secret == "abc" && bare.server == "2" && bare.farm == nil)
    }

    @Test func todaysFormatRoundTrips() throws {
        let photo = try Photo(
            id: "9", owner: "c1", ownerName: "Contributor", title: "Ünïcode \u{1B}", dateTaken: nil,
            renditions: [
                PhotoRendition(label: "small_thumb", url: #require(URL(string: "https://thumb.example/s.jpg")), width: 100, height: 67),
                PhotoRendition(label: "q", url: #require(URL(string: "https://live.staticflickr.com/1/9_s_q.jpg")), width: 150, height: 150, isCrop: true),
                PhotoRendition(label: "o", url: #require(URL(string: "https://live.staticflickr.com/1/9_o_o.png"))),
            ],
            aspectRatio: 1.5,
            flickr: FlickrPhotoKeys(secret: "s", server: "1", farm: 2, originalSecret: "o", originalFormat: "png"))
        let page = PhotoPage(page: 2, pages: 9, perPage: 1, total: 9, photos: [photo, Photo(id: "x", owner: "", title: "")])
        let decoded = try JSONDecoder().decode(PhotoPage.self, from: JSONEncoder().encode(page))
        #expect(decoded == page)
    }

    @Test func todaysFormatDoesNotWriteTheOldKeys() throws {
        let photo = Photo(id: "1", owner: "o", secret: "abc", server: "2", title: "")
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(photo)) as? [String: Any])
        #expect(object["secret"] == nil && object["images"] == nil)
        #expect(Set(object.keys) == ["id", "owner", "title", "renditions", "providerKeys"])
    }

    /// A photo as the version before opaque provider keys wrote it: Flickr's
    /// keys in a `flickr` object, the farm a number.
    static let flickrObjectFormat = #"""
        {"id":"7","owner":"o@N00","title":"Pier","renditions":[],"flickr":{"secret":"s7","server":"65535","farm":66,"originalSecret":"o7","originalFormat":"png"}}
        """#

    @Test func aSessionWithAFlickrObjectLoadsIntoProviderKeys() throws {
        let photo = try JSONDecoder().decode(Photo.self, from: Data(Self.flickrObjectFormat.utf8))
        #expect(photo.providerKeys == ["secret": "s7", "server": "65535", "farm": "66", "originalSecret": "o7", "originalFormat": "png"])
        #expect(photo.flickr == FlickrPhotoKeys(secret: "s7", server: "65535", farm: 66, originalSecret: "o7", originalFormat: "png"))
    }

    @Test func providerKeysRoundTripUnderTheirOwnNames() throws {
        let photo = Photo(id: "5", owner: "c1", title: "", providerKeys: ["token": "a b/c", "farm": "3"])
        let data = try JSONEncoder().encode(photo)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["providerKeys"] as? [String: String] == ["token": "a b/c", "farm": "3"])
        #expect(object["flickr"] == nil && object["secret"] == nil)
        let decoded = try JSONDecoder().decode(Photo.self, from: data)
        #expect(decoded == photo)
        #expect(decoded.flickr == nil, "keys without a secret and server are not Flickr's")

        let flickr = Photo(id: "6", owner: "o", secret: "abc", server: "2", farm: 9, title: "")
        let again = try JSONDecoder().decode(Photo.self, from: JSONEncoder().encode(flickr))
        #expect(again.providerKeys == ["secret": "abc", "server": "2", "farm": "9"])
        #expect(again.flickr == FlickrPhotoKeys(secret: "abc", server: "2", farm: 9))
    }

    /// A licence as earlier versions saved it, its number under `flickrID`:
    /// the number survives (sidecars print it, unknown ids are renamed by it).
    @Test func aSavedLicenceKeepsItsNumberUnderTheOldName() throws {
        let json = #"{"kind":"other","shortName":"Licence 17","fullName":"Flickr licence 17","flickrID":17}"#
        let license = try JSONDecoder().decode(License.self, from: Data(json.utf8))
        #expect(license.providerID == 17 && license.kind == .other)
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(license)) as? [String: Any])
        #expect(object["providerID"] as? Int == 17 && object["flickrID"] == nil)
        #expect(try JSONDecoder().decode(License.self, from: JSONEncoder().encode(license)) == license)
    }

    @Test(arguments: [
        #"{"id":"1","owner":"o"}"#,
        #"{"id":"1","owner":"o","title":"","secret":"abc"}"#,
        #"{"id":"1","owner":"o","title":"","renditions":[{"label":"q"}]}"#,
        #"{"id":"1","owner":"o","title":"","images":{"q":{"url":42}}}"#,
        #"{"id":"1","owner":"o","title":"","providerKeys":{"secret":4}}"#,
        #"{"id":"1","owner":"o","title":"","flickr":{"secret":["s"]}}"#,
    ])
    func brokenPhotosFailToDecode(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Photo.self, from: Data(json.utf8)) }
    }
}
