import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// Leniency and failure messages of `FlickrResponseDecoder`, on small
/// hand-written bodies shaped like what Flickr sends.
@Suite struct FlickrResponseDecoderTests {
    private func decode(_ text: String) throws(FlickrError) -> FlickrResponseDecoder.DecodedPage {
        try FlickrResponseDecoder.decode(Data(text.utf8))
    }

    private func malformedReason(_ text: String) throws -> String {
        let error = try #require(throws: FlickrError.self) { try FlickrResponseDecoder.decode(Data(text.utf8)) }
        guard case .malformedResponse(let reason) = error else {
            Issue.record("expected malformedResponse, got \(error)")
            return ""
        }
        return reason
    }

    private static let onePhoto = #"{"id":"1","owner":"9@N00","secret":"abc","server":"7","farm":1,"title":"t"}"#

    @Test func countsAsStringsOrNumbersAreAccepted() throws {
        let page = try decode(#"{"photos":{"page":"2","pages":"3","perpage":"1","total":"3","photo":[\#(Self.onePhoto)]},"stat":"ok"}"#).page
        #expect(page.page == 2)
        #expect(page.pages == 3)
        #expect(page.perPage == 1)
        #expect(page.total == 3)
    }

    @Test func emptyTotalMeansZero() throws {
        let page = try decode(#"{"photos":{"page":1,"pages":0,"perpage":10,"total":"","photo":[]},"stat":"ok"}"#).page
        #expect(page.total == 0)
        #expect(page.photos.isEmpty)
    }

    /// Every count empty, photos present: the photos
    /// count, and the provider says which page they are.
    @Test func emptyCountsKeepThePhotos() throws {
        let body = #"{"photos":{"page":"","pages":"","perpage":"","total":"","photo":[\#(Self.onePhoto)]},"stat":"ok"}"#
        let decoded = try decode(body).page
        #expect(decoded.photos.count == 1)
        let page = FlickrProvider.filledIn(decoded, asked: 3)
        #expect(page.page == 3)
        #expect(page.pages == 3)
        #expect(page.total == 0)
    }

    @Test func farmAndDimensionsAsStringsAreAccepted() throws {
        let body = #"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"id":"1","owner":"9@N00","secret":"abc","server":"7","farm":"3","title":"t","url_q":"https://x.test/7/1_abc_q.jpg","height_q":"150","width_q":150}]},"stat":"ok"}"#
        let photo = try #require(try decode(body).page.photos.first)
        #expect(photo.farm == 3)
        #expect(photo.images[.square150] == PhotoImage(url: try #require(URL(string: "https://x.test/7/1_abc_q.jpg")), width: 150, height: 150))
    }

    @Test func missingExtrasLeaveOptionalFieldsEmpty() throws {
        let photo = try #require(try decode(#"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"id":"1","owner":"9@N00","secret":"abc","server":"7"}]},"stat":"ok"}"#).page.photos.first)
        #expect(photo.title == "")
        #expect(photo.farm == nil)
        #expect(photo.ownerName == nil)
        #expect(photo.dateTaken == nil)
        #expect(photo.images.isEmpty)
    }

    @Test func titleAsContentObjectIsRead() throws {
        let photo = try #require(try decode(#"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"id":"1","owner":"9@N00","secret":"abc","server":"7","title":{"_content":"Harbour"}}]},"stat":"ok"}"#).page.photos.first)
        #expect(photo.title == "Harbour")
    }

    @Test func unicodeEscapesAndSurrogatePairsDecode() throws {
        let photo = try #require(try decode(#"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"id":"1","owner":"9@N00","secret":"abc","server":"7","title":"Zim\u0105 \ud83d\udc31 \"cat\" 猫"}]},"stat":"ok"}"#).page.photos.first)
        #expect(photo.title == "Zimą 🐱 \"cat\" 猫")
    }

    @Test func photosWithoutIdSecretOrServerAreSkippedAndCounted() throws {
        let body = #"{"photos":{"page":1,"pages":1,"perpage":5,"total":5,"photo":[\#(Self.onePhoto),{"owner":"9@N00","secret":"abc","server":"7"},{"id":"3","owner":"9@N00","server":"7"},{"id":"4","owner":"9@N00","secret":"abc","server":""},"junk"]},"stat":"ok"}"#
        let decoded = try decode(body)
        #expect(decoded.page.photos.map(\.id) == ["1"])
        #expect(decoded.skippedPhotos == 4)
    }

    @Test func jsonpWithFlickrsCallbackIsUnwrapped() throws {
        let page = try decode(#"jsonFlickrApi({"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[\#(Self.onePhoto)]},"stat":"ok"})"#).page
        #expect(page.photos.map(\.id) == ["1"])
    }

    @Test func jsonpWithCustomCallbackAndTrailingSemicolonIsUnwrapped() throws {
        let page = try decode("  my_cb1 (" + #"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[\#(Self.onePhoto)]},"stat":"ok"}"# + ");\n").page
        #expect(page.photos.count == 1)
    }

    @Test func jsonpFailureBecomesAnAPIError() {
        #expect(throws: FlickrError.api(code: 100, message: "Invalid API Key (Key has expired)")) {
            try decode(#"jsonFlickrApi({"stat":"fail","code":100,"message":"Invalid API Key (Key has expired)"})"#)
        }
    }

    @Test func failureCodeAsStringIsAccepted() {
        #expect(throws: FlickrError.api(code: 105, message: "Service currently unavailable")) {
            try decode(#"{"stat":"fail","code":"105","message":"Service currently unavailable"}"#)
        }
    }

    @Test func xmlPhotoListDecodes() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8" ?>
            <rsp stat="ok">
            <photos page="2" pages="5" perpage="1" total="">
              <photo id="1" owner="9@N00" secret="abc" server="7" farm="2" title="Fish &amp; chips" ownername="Ann" datetaken="2020-01-02 03:04:05" url_q="https://x.test/7/1_abc_q.jpg" height_q="150" width_q="150" />
            </photos>
            </rsp>
            """
        let page = try decode(body).page
        #expect(page.page == 2)
        #expect(page.total == 0)
        let photo = try #require(page.photos.first)
        #expect(photo.title == "Fish & chips")
        #expect(photo.farm == 2)
        #expect(photo.ownerName == "Ann")
        #expect(photo.dateTaken == "2020-01-02 03:04:05")
        #expect(photo.images[.square150]?.width == 150)
    }

    @Test func xmlTitleAsChildElementIsRead() throws {
        let body = #"<rsp stat="ok"><photos page="1" pages="1" perpage="2" total="2"><photo id="1" owner="9@N00" secret="abc" server="7"><title>Harbour &amp; sea</title></photo><photo id="2" owner="9@N00" secret="abc" server="7"><title /></photo></photos></rsp>"#
        #expect(try decode(body).page.photos.map(\.title) == ["Harbour & sea", ""])
    }

    @Test func xmlFailureBecomesAnAPIError() {
        #expect(throws: FlickrError.api(code: 3, message: "Parameterless searches have been disabled.")) {
            try decode(#"<rsp stat="fail"><err code="3" msg="Parameterless searches have been disabled." /></rsp>"#)
        }
    }

    @Test func emptyBodyIsMalformed() throws {
        #expect(try malformedReason("  \n").contains("empty"))
    }

    @Test func htmlPageIsMalformedAndSaysSo() throws {
        let reason = try malformedReason("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head></html>")
        #expect(reason.contains("HTML page"))
        #expect(reason.contains("<!DOCTYPE html> <html>"))
    }

    @Test func plainTextIsNotJSON() throws {
        let reason = try malformedReason("Service Unavailable")
        #expect(reason.contains("neither JSON nor XML"))
        #expect(reason.contains("Service Unavailable"))
    }

    @Test func brokenJSONSaysItIsNotValidJSON() throws {
        let reason = try malformedReason(#"{"photos":{"page":1,"#)
        #expect(reason.contains("not valid JSON"))
    }

    @Test func cutJSONPSaysItWasCutShort() throws {
        #expect(try malformedReason(#"jsonFlickrApi({"stat":"ok""#).contains("cut short"))
    }

    @Test func missingPhotosListNamesWhatWasThere() throws {
        let reason = try malformedReason(#"{"sizes":{"size":[]},"stat":"ok"}"#)
        #expect(reason.contains("not a photo list"))
        #expect(reason.contains("sizes, stat"))
    }

    @Test func nonNumericPageNamesTheField() throws {
        let reason = try malformedReason(#"{"photos":{"page":"one","pages":1,"perpage":1,"total":1,"photo":[]},"stat":"ok"}"#)
        #expect(reason.contains("`photos.page`"))
        #expect(reason.contains("\"one\""))
    }

    @Test func photoListOfWrongTypeIsMalformed() throws {
        let reason = try malformedReason(#"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":"none"},"stat":"ok"}"#)
        #expect(reason.contains("`photos.photo`"))
    }

    @Test func topLevelArrayIsMalformed() throws {
        #expect(try malformedReason("[1,2]").contains("not an object"))
    }

    @Test func failureWithoutCodeIsMalformed() throws {
        #expect(try malformedReason(#"{"stat":"fail","message":"oops"}"#).contains("without an error code"))
    }

    @Test func brokenXMLIsMalformed() throws {
        let reason = try malformedReason(#"<rsp stat="ok"><photos page="1"></rsp>"#)
        #expect(reason.contains("not well-formed XML"), "\(reason)")
    }

    @Test func unclosedXMLIsMalformed() throws {
        #expect(try malformedReason(#"<rsp stat="ok"><photos page="1" pages="1" perpage="1" total="1">"#).contains("not well-formed XML"))
    }

    @Test func xmlWithAnotherRootIsMalformed() throws {
        #expect(try malformedReason(#"<?xml version="1.0"?><error>nope</error>"#).contains("<error> root"))
    }

    @Test func excerptsHideControlCharacters() throws {
        let reason = try malformedReason("Oops\u{1B}[2J\u{07} \u{202E}evil")
        #expect(!reason.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(reason.contains("Oops [2J evil"))
    }

    @Test func excerptsAreShort() throws {
        let reason = try malformedReason("x" + String(repeating: "y", count: 5_000))
        #expect(reason.count < 300)
        #expect(reason.contains("…"))
    }

    @Test func successCheckAcceptsAnyOKAnswer() throws {
        try FlickrResponseDecoder.checkSuccess(Data(#"{"method":{"_content":"flickr.test.echo"},"stat":"ok"}"#.utf8))
    }

    @Test func successCheckRejectsAnAnswerWithoutStat() throws {
        #expect(throws: FlickrError.self) { try FlickrResponseDecoder.checkSuccess(Data(#"{"hello":1}"#.utf8)) }
    }
}
