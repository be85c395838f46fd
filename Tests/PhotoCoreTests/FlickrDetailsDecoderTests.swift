import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// `flickr.photos.getInfo` and `flickr.photos.getSizes` answers, recorded
/// where a recording exists and otherwise hand-written in Flickr's shapes.
@Suite struct FlickrDetailsDecoderTests {
    // MARK: - getInfo

    /// Recording 09: JSONP with a custom callback, `&quot;` in the description,
    /// a tag whose `raw` is blank, the photo page under `urls`.
    @Test func recordedGetInfoDecodes() throws {
        let body = try RecordedResponses.body(named: "09-photos.getInfo_JSONP-custom-callback_quot-entity_2009.jsonp")
        let details = try FlickrDetailsDecoder.decodeInfo(body)
        #expect(details.id == "3993716693")
        #expect(details.title == "pastel.charcoal.gesso.")
        #expect(details.description == "24\" x 48\"")
        #expect(details.tags == ["price$145", "notsold", "charcoalpastelgesso", "price187"])
        #expect(details.dateTaken == "2009-09-06 11:22:55")
        #expect(details.dateUploaded == Date(timeIntervalSince1970: 1_255_049_544))
        #expect(details.views == 11)
        #expect(details.license?.shortName == "All Rights Reserved")
        #expect(details.ownerID == "22691397@N06")
        #expect(details.ownerUsername == "cayla.jean.tinney")
        #expect(details.ownerRealName == "cayla tinney")
        #expect(details.ownerName == "cayla tinney")
        #expect(details.pageURL?.absoluteString == "http://www.flickr.com/photos/caylajeantinney/3993716693/")
    }

    /// The XML (`format=rest`) shape: attributes, child elements, and HTML
    /// escaped once for XML.
    static let infoXML = """
        <?xml version="1.0" encoding="utf-8" ?>
        <rsp stat="ok">
        <photo id="53624890009" secret="5cd918efcd" server="65535" farm="66" dateuploaded="1709403065" isfavorite="0" license="4" safety_level="0" rotation="0" originalsecret="9f8e7d6c5b" originalformat="jpg" views="1234" media="photo">
        \t<owner nsid="105731165@N07" username="jdoe" realname="" location="" iconserver="65535" iconfarm="66" path_alias="harbourlights" />
        \t<title>Harbour at dusk</title>
        \t<description>Taken from the &lt;b&gt;north&lt;/b&gt; pier.&lt;br /&gt;See &lt;a href=&quot;https://example.org/&quot; rel=&quot;noreferrer nofollow&quot;&gt;my site&lt;/a&gt; &amp;amp; more.</description>
        \t<visibility ispublic="1" isfriend="0" isfamily="0" />
        \t<dates posted="1709403065" taken="2024-03-02 18:11:05" takengranularity="0" takenunknown="0" lastupdate="1709403100" />
        \t<editability cancomment="0" canaddmeta="0" />
        \t<comments>3</comments>
        \t<tags>
        \t\t<tag id="1-53624890009-1" author="105731165@N07" authorname="jdoe" raw="Harbour Lights" machine_tag="0">harbourlights</tag>
        \t\t<tag id="1-53624890009-2" author="105731165@N07" authorname="jdoe" raw="dusk" machine_tag="0">dusk</tag>
        \t</tags>
        \t<urls>
        \t\t<url type="photopage">https://www.flickr.com/photos/harbourlights/53624890009/</url>
        \t</urls>
        </photo>
        </rsp>
        """

    @Test func xmlGetInfoDecodes() throws {
        let details = try FlickrDetailsDecoder.decodeInfo(Data(Self.infoXML.utf8))
        #expect(details.id == "53624890009")
        #expect(details.title == "Harbour at dusk")
        #expect(details.description == "Taken from the north pier.\nSee my site & more.")
        #expect(details.tags == ["Harbour Lights", "dusk"])
        #expect(details.views == 1234)
        #expect(details.license?.shortName == "CC BY 2.0")
        #expect(details.ownerName == "jdoe")
        #expect(details.ownerRealName == nil)
        #expect(details.dateTaken == "2024-03-02 18:11:05")
        #expect(details.pageURL?.absoluteString == "https://www.flickr.com/photos/harbourlights/53624890009/")
    }

    /// Today's JSON: numbers as numbers, no `urls`, an empty tag list.
    @Test func jsonGetInfoWithoutUrlsBuildsThePageFromThePathAlias() throws {
        let body = #"{"photo":{"id":"42","secret":"s","server":"1","farm":1,"dateuploaded":"1700000000","license":11,"views":7,"owner":{"nsid":"1@N00","username":"u","realname":"Real Name","path_alias":"alias"},"title":{"_content":"T"},"description":{"_content":""},"dates":{"posted":"1700000000","taken":"2023-11-14 22:13:20"},"tags":{"tag":[]}},"stat":"ok"}"#
        let details = try FlickrDetailsDecoder.decodeInfo(Data(body.utf8))
        #expect(details.license?.shortName == "CC BY 4.0")
        #expect(details.views == 7)
        #expect(details.description == "")
        #expect(details.tags.isEmpty)
        #expect(details.ownerName == "Real Name")
        #expect(details.pageURL?.absoluteString == "https://www.flickr.com/photos/alias/42/")
    }

    @Test func getInfoFailureIsAnAPIError() {
        #expect(throws: FlickrError.api(code: 1, message: "Photo \"9\" not found (invalid ID)")) {
            try FlickrDetailsDecoder.decodeInfo(Data(#"{"stat":"fail","code":1,"message":"Photo \"9\" not found (invalid ID)"}"#.utf8))
        }
    }

    @Test func aPhotoListIsNotDetails() throws {
        let body = try RecordedResponses.body(named: "08-photos.search_JSONP-jsonFlickrApi_url_c-live-staticflickr_total-number_2023.jsonp")
        #expect(throws: FlickrError.self) { try FlickrDetailsDecoder.decodeInfo(body) }
    }

    /// Every licence the recorded `flickr.photos.licenses.getInfo` lists has
    /// the same name here.
    @Test func licenceNamesMatchTheRecordedLicenceList() throws {
        let body = try RecordedResponses.body(named: "11-4_flickr.photos.licenses.getInfo.xml")
        let root = try FlickrResponseDecoder.readTree(body)
        guard case .array(let licenses)? = FlickrResponseDecoder.first(root["licenses"])?["license"] else {
            Issue.record("no licence list in the recording")
            return
        }
        #expect(licenses.count == FlickrLicenseTable.builtIn.byFlickrID.count)
        for license in licenses {
            let id = try #require(license["id"]?.lenientInteger)
            let known = FlickrLicenseTable.builtIn.flickr(id: id)
            let name = known.kind.isCreativeCommonsLicence ? known.shortName : known.fullName
            #expect(name == license["name"]?.lenientString, "licence \(id)")
        }
        #expect(FlickrLicenseTable.builtIn.flickr(id: 99).shortName == "Licence 99")
    }

    // MARK: - getSizes

    static let sizesJSON = #"""
        {"sizes":{"canblog":0,"canprint":0,"candownload":1,"size":[
        {"label":"Square","width":75,"height":75,"source":"https:\/\/live.staticflickr.com\/65535\/42_abc_s.jpg","url":"https:\/\/www.flickr.com\/photos\/u\/42\/sizes\/sq\/","media":"photo"},
        {"label":"Large Square","width":"150","height":"150","source":"https:\/\/live.staticflickr.com\/65535\/42_abc_q.jpg","url":"https:\/\/www.flickr.com\/photos\/u\/42\/sizes\/q\/","media":"photo"},
        {"label":"Medium 640","width":640,"height":427,"source":"https:\/\/live.staticflickr.com\/65535\/42_abc_z.jpg","url":"https:\/\/www.flickr.com\/photos\/u\/42\/sizes\/z\/","media":"photo"},
        {"label":"Large 1600","width":"1600","height":"1067","source":"https:\/\/live.staticflickr.com\/65535\/42_h0h0h0_h.jpg","url":"https:\/\/www.flickr.com\/photos\/u\/42\/sizes\/h\/","media":"photo"},
        {"label":"Original","width":"3000","height":"2000","source":"https:\/\/live.staticflickr.com\/65535\/42_0r1g_o.jpg","url":"https:\/\/www.flickr.com\/photos\/u\/42\/sizes\/o\/","media":"photo"},
        {"label":"Site MP4","width":640,"height":360,"source":"https:\/\/www.flickr.com\/photos\/u\/42\/play\/site\/abc\/","url":"https:\/\/www.flickr.com\/photos\/u\/42\/","media":"video"}
        ]},"stat":"ok"}
        """#

    @Test func jsonGetSizesDecodesEveryPhotoSizeSmallestFirst() throws {
        let sizes = try FlickrDetailsDecoder.decodeSizes(Data(Self.sizesJSON.utf8))
        #expect(sizes.map(\.label) == ["sq", "q", "z", "h", "o"])
        #expect(sizes.map(\.isCrop) == [true, true, false, false, false])
        #expect(sizes[1].width == 150 && sizes[1].height == 150)
        #expect(sizes[3].url.absoluteString == "https://live.staticflickr.com/65535/42_h0h0h0_h.jpg")
        #expect(sizes[4].pixelSize == PixelSize(width: 3000, height: 2000))
    }

    @Test func xmlGetSizesDecodes() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8" ?>
            <rsp stat="ok">
            <sizes canblog="0" canprint="0" candownload="1">
            \t<size label="Small 320" width="320" height="213" source="https://live.staticflickr.com/65535/42_abc_n.jpg" url="https://www.flickr.com/photos/u/42/sizes/n/" media="photo" />
            \t<size label="Large 2048" width="2048" height="1365" source="https://live.staticflickr.com/65535/42_k2k2_k.jpg" url="https://www.flickr.com/photos/u/42/sizes/k/" media="photo" />
            \t<size label="X-Large 3K" width="3072" height="2048" source="https://live.staticflickr.com/65535/42_3k3k_3k.jpg" url="https://www.flickr.com/photos/u/42/sizes/3k/" media="photo" />
            </sizes>
            </rsp>
            """
        let sizes = try FlickrDetailsDecoder.decodeSizes(Data(body.utf8))
        #expect(sizes.map(\.label) == ["n", "k", "3k"])
        #expect(sizes.map(\.width) == [320, 2048, 3072])
    }

    @Test func getSizesSkipsUnusableSources() throws {
        let body = #"{"sizes":{"size":{"label":"Medium","width":500,"height":333,"source":"javascript:alert(1)","media":"photo"}},"stat":"ok"}"#
        #expect(try FlickrDetailsDecoder.decodeSizes(Data(body.utf8)).isEmpty)
    }

    @Test func getSizesPermissionDeniedIsAnAPIError() {
        let body = #"jsonFlickrApi({"stat":"fail","code":2,"message":"Permission denied"})"#
        #expect(throws: FlickrError.api(code: 2, message: "Permission denied")) {
            try FlickrDetailsDecoder.decodeSizes(Data(body.utf8))
        }
    }

    // MARK: - HTML to text

    @Test(arguments: [
        ("24&quot; x 48&quot;", "24\" x 48\""),
        ("It&#039;s &#x1F431; &amp;lt;b&amp;gt;", "It's 🐱 &lt;b&gt;"),
        ("<p>One</p><p>Two<br/>Three</p>", "One\n\nTwo\nThree"),
        ("a < b and c > d", "a < b and c > d"),
        ("<!-- hidden --><i>shown</i>", "shown"),
        ("AT&T &unknown; &#0; &", "AT&T &unknown; \u{FFFD} &"),
        ("<a href=\"x\">link</a>\u{1B}[31m", "link\u{1B}[31m"),
    ])
    func htmlBecomesPlainText(_ html: String, _ text: String) {
        #expect(HTMLText.plainText(html) == text)
    }
}
