import Foundation
import Testing
@testable import CommonsService
@testable import PhotoCore

/// What the recordings do not show: formatversion 2, `maxlag`, the newer
/// error forms, numbers as text, and bodies that are not answers at all.
@Suite struct CommonsDecoderTests {
    private func answer(_ json: String) throws -> CommonsAnswer {
        guard case .answer(let answer) = try CommonsResponseDecoder.decode(Data(json.utf8)) else {
            throw CommonsError.malformedResponse("not an answer")
        }
        return answer
    }

    @Test func formatVersionTwoListsPagesAndIsPutInIndexOrder() throws {
        let answer = try answer(#"""
            {"batchcomplete":true,"continue":{"gsroffset":3,"continue":"gsroffset||","iicontinue":"x|y"},
             "query":{"searchinfo":{"totalhits":"12"},"pages":[
              {"pageid":30,"ns":6,"title":"File:C.png","index":3,"imageinfo":[{"url":"https://u.example/C.png","mime":"image/png","width":"40","height":20}]},
              {"pageid":10,"ns":6,"title":"File:A.jpg","index":1,"imageinfo":[{"thumburl":"//u.example/thumb/A.jpg/500px-A.jpg","thumbwidth":500,"thumbheight":250}]},
              {"pageid":20,"ns":6,"title":"File:B.jpg","index":2}]}}
            """#)
        #expect(answer.formatVersion == 2 && answer.batchComplete)
        #expect(answer.files.map(\.pageID) == ["10", "20", "30"])
        #expect(answer.totalHits == 12, "a count written as text")
        #expect(answer.continuation == ["gsroffset": "3", "continue": "gsroffset||", "iicontinue": "x|y"])
        #expect(answer.files[0].thumbnailURL?.absoluteString == "https://u.example/thumb/A.jpg/500px-A.jpg", "protocol-relative")
        #expect(answer.files[2].width == 40 && answer.files[2].height == 20)
        #expect(answer.files[1].url == nil, "a page without imageinfo keeps its id")
    }

    @Test func missingAndInvalidPagesAreLeftOutAndCounted() throws {
        let answer = try answer(#"""
            {"batchcomplete":"","query":{"pages":{
              "-1":{"ns":6,"title":"File:Gone.jpg","missing":""},
              "-2":{"title":"File:<>","invalid":""},
              "5":{"pageid":5,"ns":6,"title":"File:Here.jpg"},
              "x":{"ns":6,"title":"no id"}}}}
            """#)
        #expect(answer.formatVersion == 1)
        #expect(answer.files.map(\.pageID) == ["5"])
        #expect(answer.skippedPages == 3)
        #expect(answer.continuation == nil)
    }

    @Test func maxlagIsAnErrorWithItsLag() throws {
        let body = #"{"error":{"code":"maxlag","info":"Waiting for 10.64.48.35: 2 seconds lagged.","host":"10.64.48.35","lag":2,"type":"db","docref":"See https://commons.wikimedia.org/w/api.php for API usage."},"servedby":"mw-api-ext.eqiad.main-1"}"#
        guard case .failure(let failure) = try CommonsResponseDecoder.decode(Data(body.utf8)) else {
            Issue.record("maxlag decoded as an answer")
            return
        }
        #expect(failure.code == "maxlag" && failure.lag == 2)
        #expect(failure.help?.hasPrefix("See https://commons.wikimedia.org") == true)
        // Retry-After wins; without it the lag, at least a second; without that, five seconds.
        #expect(CommonsError.from(failure, retryAfter: "7", page: 1).retryAfter == .seconds(7))
        #expect(CommonsError.from(failure, retryAfter: nil, page: 1).retryAfter == .seconds(2))
        var lagless = failure
        lagless.lag = nil
        #expect(CommonsError.from(lagless, retryAfter: "soon", page: 1).retryAfter == .seconds(5))
    }

    @Test func theListFormOfErrorsIsReadToo() throws {
        let body = #"{"errors":[{"code":"badvalue","text":"Unrecognized value for parameter \"gsrsort\": sideways.","module":"query+search"}],"docref":"…"}"#
        guard case .failure(let failure) = try CommonsResponseDecoder.decode(Data(body.utf8)) else {
            Issue.record("decoded as an answer")
            return
        }
        #expect(failure.code == "badvalue" && failure.info.contains("sideways"))
    }

    @Test(arguments: [
        ("", "the answer was empty"),
        ("<!DOCTYPE html><html><head><title>Wikimedia Error</title></head></html>", "a web page"),
        ("[1,2]", "not an object"),
        (#"{"warnings":{}}"#, "neither `query` nor `error`"),
        (#"{"query":{"pages":"#, "not valid JSON"),
    ])
    func bodiesThatAreNotAnswersSaySoInASentence(_ body: String, _ phrase: String) {
        #expect {
            try CommonsResponseDecoder.decode(Data(body.utf8))
        } throws: { error in
            (error as? CommonsError)?.description.contains(phrase) == true
        }
    }

    @Test func metadataNumbersAreTextAndHTMLIsStrippedForNames() throws {
        let answer = try answer(#"""
            {"batchcomplete":true,"query":{"pages":[{"pageid":1,"title":"File:X.svg","imageinfo":[{"extmetadata":{
              "CommonsMetadataExtension":{"value":1.2,"source":"extension","hidden":true},
              "Artist":{"value":"<a href=\"//commons.wikimedia.org/wiki/User:A\">Ana&nbsp;&amp;\n <b>Bo</b></a>","source":"commons-desc-page"},
              "Weird":{"value":{"en":"x"}}}}]}]}}
            """#)
        let file = try #require(answer.files.first)
        #expect(file.metadata["CommonsMetadataExtension"] == "1.2")
        #expect(file.metadata["Weird"] == nil, "a value that is not text or a number is left out")
        #expect(CommonsText.line(file.metadata["Artist"]) == "Ana & Bo")
        #expect(CommonsProvider.photo(from: file).title == "X", "no ObjectName: the file name without File: and extension")
    }
}

@Suite struct CommonsLicenseTests {
    @Test(arguments: [
        ("CC BY-SA 4.0", "cc-by-sa-4.0", "https://creativecommons.org/licenses/by-sa/4.0", "CC BY-SA 4.0", License.Kind.bySA),
        ("CC BY 4.0", nil, nil, "CC BY 4.0", .by),
        ("CC BY-SA 3.0", "cc-by-sa-3.0", nil, "CC BY-SA 3.0", .bySA),
        ("CC0", "cc0", "https://creativecommons.org/publicdomain/zero/1.0/deed.en", "CC0 1.0", .cc0),
        (nil, "cc-by-2.5", nil, "CC BY 2.5", .by),
        ("Public domain", "pd", nil, "Public domain", .pdm),
        ("CC BY-SA 3.0 de", "cc-by-sa-3.0-de", "https://creativecommons.org/licenses/by-sa/3.0/de/deed.en", "CC BY-SA 3.0 de", .bySA),
        ("GFDL", "gfdl", "https://www.gnu.org/copyleft/fdl.html", "GFDL", .other),
    ] as [(String?, String?, String?, String, License.Kind)])
    func commonsLicencesMapOntoTheTableOrAreShownAsGiven(
        _ shortName: String?, _ code: String?, _ url: String?, _ shown: String, _ kind: License.Kind
    ) throws {
        let license = try #require(CommonsLicense.terms(shortName: shortName, code: code, url: url))
        #expect(license.shortName == shown)
        #expect(license.kind == kind)
        #expect(license.providerID == nil, "a Commons file has no Flickr licence id")
        if let table = LicenseTable.standard(shortName: shown) {
            #expect([license.kind, license.version, license.shortName, license.fullName, license.url]
                        == [table.kind, table.version, table.shortName, table.fullName, table.url] as [AnyHashable?],
                    "one of the table's licences is the table's")
        }
    }

    @Test func aDeedThatIsNotAWebAddressIsLeftOut() {
        #expect(CommonsLicense.terms(shortName: "GFDL", code: nil, url: "javascript:alert(1)")?.url == nil)
        #expect(CommonsLicense.terms(shortName: "X", code: nil, url: "https://e.example/../../evil")?.url == nil)
        #expect(CommonsLicense.terms(shortName: nil, code: nil, url: "https://creativecommons.org/licenses/by/4.0/") == nil,
                "terms are not guessed from the URL alone")
    }
}

@Suite struct CommonsRequestTests {
    private func parameters(_ url: URL) -> [String: String] {
        Dictionary(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map { ($0.name, $0.value ?? "") } ?? [],
                   uniquingKeysWith: { $1 })
    }

    @Test func theFirstPageAsksForFilesWithThumbnailsAndTheFieldsItReads() throws {
        let url = try CommonsSearchRequest(search: "red car+bus", page: 1, limit: 30).url(endpoint: CommonsProvider.defaultEndpoint)
        let items = parameters(url)
        #expect(items["action"] == "query" && items["format"] == "json" && items["formatversion"] == "2")
        #expect(items["generator"] == "search" && items["gsrsearch"] == "red car+bus" && items["gsrnamespace"] == "6")
        #expect(items["gsrlimit"] == "30" && items["gsroffset"] == nil && items["continue"] == "")
        #expect(items["prop"] == "imageinfo" && items["iiprop"] == "url|size|mime|extmetadata")
        #expect(items["iiurlwidth"] == "500")
        #expect(items["iiextmetadatafilter"]?.split(separator: "|").contains("LicenseShortName") == true)
        #expect(url.query?.contains("%2B") == true, "a plus is not a space to PHP")
    }

    @Test func aLaterPageSendsTheWholeContinueObjectBack() throws {
        let request = CommonsSearchRequest(
            search: "cat", page: 2, limit: 40, continuation: ["gsroffset": "40", "continue": "gsroffset||", "iicontinue": "A|B"])
        let items = parameters(try request.url(endpoint: CommonsProvider.defaultEndpoint))
        #expect(items["gsroffset"] == "40" && items["continue"] == "gsroffset||" && items["iicontinue"] == "A|B")
        // Without the object (a jump, a restored session), the page's own offset.
        let jump = parameters(try CommonsSearchRequest(search: "cat", page: 3, limit: 40).url(endpoint: CommonsProvider.defaultEndpoint))
        #expect(jump["gsroffset"] == "80" && jump["continue"] == "")
    }

    @Test func aContinueObjectTooLargeForAURLIsNotSentBack() {
        let store = CommonsContinuations()
        let first = CommonsSearchRequest(search: "cat", page: 1, limit: 10)
        let second = CommonsSearchRequest(search: "cat", page: 2, limit: 10)
        store.remember(["gsroffset": "10", "continue": "gsroffset||", "x": String(repeating: "a", count: 100_000)], after: first)
        #expect(store.continuation(for: second)?.keys.sorted() == nil, "the page then asks by its offset")
        store.remember(["gsroffset": "10", "continue": "gsroffset||"], after: first)
        #expect(store.continuation(for: second) == ["gsroffset": "10", "continue": "gsroffset||"])
        #expect(store.continuation(for: CommonsSearchRequest(search: "dog", page: 2, limit: 10)) == nil, "another search's")
    }

    @Test func pageSizesStayWithinWhatCommonsScalesAtOnce() {
        #expect(CommonsSearchRequest(search: "x", page: 1, limit: 500).limit == 50)
        #expect(CommonsSearchRequest(search: "x", page: 1, limit: 0).limit == 1)
        #expect(CommonsSearchRequest(search: "x", page: .max, limit: 50).offset == .max, "saturates")
    }

    @Test func filtersBecomeSearchKeywordsOrAreRefused() throws {
        let photos = try #require(try SearchQuery.parse("lighthouse type:photo sort:newest"))
        #expect(try CommonsProvider.searchTerms(for: photos) == .init(search: "filetype:bitmap lighthouse", sort: "create_timestamp_desc"))
        let vectors = try #require(try SearchQuery.parse("map type:vector"))
        #expect(try CommonsProvider.searchTerms(for: vectors).search == "filetype:drawing map")
        for refused in ["cat license:cc0", "cat type:illustration", "cat sort:interesting", "type:photo", "cat near:1,2"] {
            let query = try #require(try SearchQuery.parse(refused))
            #expect(throws: CommonsError.self, "\(refused)") { try CommonsProvider.searchTerms(for: query) }
        }
    }

    @Test func filePageLinksAreReadAndOtherCommonsPagesAreNot() {
        #expect(CommonsProvider.readLink("https://commons.wikimedia.org/wiki/File:Tired_20-year-old_cat.jpg")
            == .link(.photo(id: "File:Tired 20-year-old cat.jpg")))
        #expect(CommonsProvider.readLink("commons.wikimedia.org/wiki/file:caf%C3%A9.jpg") == .link(.photo(id: "File:Café.jpg")))
        #expect(CommonsProvider.readLink("https://commons.m.wikimedia.org/wiki/Image:X.png") == .link(.photo(id: "File:X.png")))
        if case .unsupported = CommonsProvider.readLink("https://commons.wikimedia.org/wiki/Category:Cats") {} else {
            Issue.record("a category page is Commons' but not opened")
        }
        #expect(CommonsProvider.readLink("https://commons.wikimedia.org@evil.example/wiki/File:X.jpg") == .notALink)
        #expect(CommonsProvider.readLink("https://commons.wikimedia.org.evil.example/wiki/File:X.jpg") == .notALink)
        #expect(CommonsProvider.readLink("red cars") == .notALink)
    }

    @Test func titlesComeFromFileNames() {
        #expect(CommonsText.title(fromPageTitle: "File:Private Life of a Cat.ogv") == "Private Life of a Cat")
        #expect(CommonsText.title(fromPageTitle: "File:Version 2.0 release") == "Version 2.0 release", "“0 release” is no extension")
        #expect(CommonsText.title(fromPageTitle: "File:.htaccess") == ".htaccess")
    }

    @Test func onlyTheDateFormTheAppShowsIsKept() {
        #expect(CommonsProvider.dateTaken("2009-01-18") == "2009-01-18 00:00:00")
        #expect(CommonsProvider.dateTaken("2009-01-18 10:11:12") == "2009-01-18 10:11:12")
        #expect(CommonsProvider.dateTaken("18 January 2009") == nil)
        #expect(CommonsProvider.dateTaken("<time>2009</time>") == nil)
    }
}
