import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// Every recorded Flickr response decodes to exactly what its answer key says.
@Suite struct RecordedResponseTests {
    @Test func everyRecordedBodyWithAKeyIsCovered() throws {
        let names = RecordedResponses.answerKeyNames
        #expect(names.count == 11)
        for name in names {
            let key = try RecordedResponses.answerKey(named: name)
            #expect(FileManager.default.fileExists(atPath: RecordedResponses.bodies.appendingPathComponent(key.bodyName).path),
                    "\(name) names a body that is not in Recorded/bodies")
        }
    }

    @Test(arguments: RecordedResponses.answerKeyNames)
    func recordedResponseMatchesItsAnswerKey(_ keyName: String) throws {
        let key = try RecordedResponses.answerKey(named: keyName)
        let body = try RecordedResponses.body(named: key.bodyName)

        if key.stat == "fail" {
            let code = try #require(key.code)
            #expect(throws: FlickrError.api(code: code, message: key.message ?? "")) {
                try FlickrResponseDecoder.decode(body)
            }
            return
        }

        let decoded = try FlickrResponseDecoder.decode(body)
        let page = decoded.page
        #expect(page.page == key.page)
        #expect(page.pages == key.pages)
        #expect(page.perPage == key.perpage)
        #expect(page.total == key.total)
        #expect(decoded.skippedPhotos == 0)

        let expected = key.photos ?? []
        try #require(page.photos.count == expected.count)
        for (photo, want) in zip(page.photos, expected) {
            #expect(photo.id == want.id)
            #expect(photo.owner == want.owner, "owner of \(want.id)")
            #expect(photo.server == want.server, "server of \(want.id)")
            #expect(photo.secret == want.secret, "secret of \(want.id)")
            #expect(photo.farm == want.farm, "farm of \(want.id)")
            #expect(photo.title == want.title, "title of \(want.id)")
            #expect(decodedURLs(of: photo) == want.urls, "url_* of \(want.id)")
        }
    }

    /// 09 is a `flickr.photos.getInfo` answer (one photo, no list): it must
    /// fail as "not a photo list", not crash or invent a page.
    @Test func getInfoJSONPWithCustomCallbackIsRejectedAsNotAPhotoList() throws {
        let body = try RecordedResponses.body(named: "09-photos.getInfo_JSONP-custom-callback_quot-entity_2009.jsonp")
        let error = try #require(throws: FlickrError.self) { try FlickrResponseDecoder.decode(body) }
        guard case .malformedResponse(let reason) = error else {
            Issue.record("expected malformedResponse, got \(error)")
            return
        }
        #expect(reason.contains("not a photo list"))
        #expect(reason.contains("photo, stat"))
    }

    @Test(arguments: [
        "11-1_flickr.urls.lookupUser.xml",
        "11-2_flickr.people.getInfo.xml",
        "11-4_flickr.photos.licenses.getInfo.xml",
    ])
    func recordedXMLWithoutAPhotoListIsRejected(_ name: String) throws {
        let body = try RecordedResponses.body(named: name)
        let error = try #require(throws: FlickrError.self) { try FlickrResponseDecoder.decode(body) }
        guard case .malformedResponse(let reason) = error else {
            Issue.record("expected malformedResponse, got \(error)")
            return
        }
        #expect(reason.contains("not a photo list"))
    }

    @Test func recordedSuccessfulXMLPassesTheStatusCheck() throws {
        let body = try RecordedResponses.body(named: "11-1_flickr.urls.lookupUser.xml")
        try FlickrResponseDecoder.checkSuccess(body)
    }

    @Test func recordedTitlesKeepTheirUnicode() throws {
        let body = try RecordedResponses.body(named: "04-1_flickr.photos.getRecent.json")
        let page = try FlickrResponseDecoder.decodePhotoPage(body)
        let korean = try #require(page.photos.first { $0.id == "40587426243" })
        #expect(korean.title.hasPrefix("즐거운\"강남오피\""))
        #expect(korean.title.contains("<ⓓⓓⓐⓚⓑⓐⓜ19.ⓒⓞⓜ>"))
    }

    @Test func recordedXMLTitlesAreUnescaped() throws {
        let body = try RecordedResponses.body(named: "11-3_flickr.people.getPublicPhotos.xml")
        let page = try FlickrResponseDecoder.decodePhotoPage(body)
        #expect(page.photos.contains { $0.title == "Day Out: Maritime Museum & Lifeboats" })
    }

    @Test func recordedMixedTypeDimensionsAreRead() throws {
        let body = try RecordedResponses.body(named: "01-1_flickr.photos.search.json")
        let photo = try #require(try FlickrResponseDecoder.decodePhotoPage(body).photos.first)
        #expect(photo.images[.square75]?.width == 75)
        #expect(photo.images[.square150]?.height == 150)
        #expect(photo.images[.small320]?.height == 240)
        #expect(photo.images[.small320]?.width == 320)
        #expect(photo.ownerName == "@janko-m")
        #expect(photo.dateTaken == "2012-09-04 14:09:30")
    }

    /// Every `url_*` the photo carries, `url_o` and the rest included, by key.
    private func decodedURLs(of photo: Photo) -> [String: String] {
        Dictionary(uniqueKeysWithValues: photo.renditions.map { ("url_\($0.label)", $0.url.absoluteString) })
    }
}
