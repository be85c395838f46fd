import Foundation
import Testing
@testable import PhotoCore
@testable import ShutterstockService

/// Every recorded search body decodes to what was read off the file by hand;
/// odd and broken bodies fail with a message that names the problem.
@Suite struct ShutterstockDecoderTests {
    @Test func everyRecordedSearchBodyIsCovered() {
        let searchFiles = ShutterstockRecorded.fileNames.filter { $0.contains("-search_") }
        #expect(searchFiles == RecordedSearch.all.map(\.file).sorted())
    }

    @Test(arguments: RecordedSearch.all)
    func recordedBodyDecodes(_ want: RecordedSearch) throws {
        let results = try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(want.file))
        #expect(results.page == want.page)
        #expect(results.perPage == want.perPage)
        #expect(results.totalCount == want.totalCount)
        #expect(results.total == want.totalCount)
        #expect(results.pages == want.pages)
        #expect(results.searchID == want.searchID)
        #expect(results.skippedItems == 0)
        #expect(results.images.map(\.id) == want.ids.split(separator: " ").map(String.init))
        let first = try #require(results.images.first)
        #expect(first.contributorID == want.firstContributor)
        var assets: [String: [Int]] = [:]
        for asset in first.assets { assets[asset.name] = [asset.width, asset.height] }
        #expect(assets == want.firstAssets)
        #expect(first.assets.map(\.longestEdge) == first.assets.map(\.longestEdge).sorted(), "assets smallest first")
    }

    /// Empty counts with images present: the images
    /// count; the counts read as unknown (0) for the provider to fill in.
    @Test func emptyCountsKeepTheImages() throws {
        let body = #"{"page":"","per_page":"","total_count":"","data":[{"id":"1","assets":{}},{"id":"2","assets":{}}]}"#
        let results = try ShutterstockResponseDecoder.decodeSearch(Data(body.utf8))
        #expect(results.images.map(\.id) == ["1", "2"])
        #expect(results.page == 0 && results.perPage == 0 && results.totalCount == 0)
    }

    /// Sizes past Int's range clamp to Int.max; ordering the assets by area
    /// multiplied two of them and trapped (the hostile sandbox's huge-numbers
    /// case and Scripts/fuzz found it).
    @Test func hugeAssetSizesOrderWithoutOverflow() throws {
        let huge = "99999999999999999999"
        let body = #"{"page":1,"per_page":1,"total_count":1,"data":[{"id":"1","assets":{"#
            + #""preview":{"url":"https://example.com/p.jpg","width":\#(huge),"height":\#(huge)},"#
            + #""small_thumb":{"url":"https://example.com/s.jpg","width":\#(huge),"height":9223372036854775807}}}]}"#
        let results = try ShutterstockResponseDecoder.decodeSearch(Data(body.utf8))
        #expect(results.images.first?.assets.count == 2)
        #expect(results.images.first?.assets.allSatisfy { $0.area == Int.max } == true)
    }

    @Test func wholeAspectIsReadAsANumber() throws {
        let results = try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(ShutterstockRecorded.farmer2019))
        // Item 5 is written `"aspect": 1`, item 1 `"aspect": 1.4983`.
        #expect(results.images[4].id == "1056563180")
        #expect(results.images[4].aspect == 1)
        #expect(results.images[0].aspect == 1.4983)
    }

    @Test func captionsLoseCarriageReturnsAndOuterSpaces() throws {
        let farmer = try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(ShutterstockRecorded.farmer2019))
        #expect(farmer.images[0].caption == "Middle aged man portrait on farmland.")
        #expect(farmer.images[13].caption.hasPrefix("Farmer man  character constructor and objects"))
        #expect(farmer.images[2].caption.hasSuffix("beautiful and healthy people, farmers."))
        let tests = try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(ShutterstockRecorded.page9of2018))
        #expect(tests.images[9].caption == "doctor uses a syringe blood sample into dna test tube in the laboratory.")
        let hiking = try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(ShutterstockRecorded.hiking2024))
        #expect(hiking.images[9].caption == "mountain trip. family in the mountains sits on a bench and looks at the mountains")
        for image in farmer.images + tests.images + hiking.images {
            #expect(!image.caption.contains("\r") && !image.caption.contains("\n"), "caption of \(image.id)")
            #expect(image.caption == image.caption.trimmingCharacters(in: .whitespaces), "caption of \(image.id)")
        }
    }

    @Test func rawUTF8CaptionsSurvive() throws {
        let results = try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(ShutterstockRecorded.accents2018))
        #expect(results.images[0].caption == "Picturesque old windmill, Tés, Veszprém County, Hungary.")
        #expect(results.images[8].caption == "background Tagétes flowers located around the frame")
    }

    @Test func earlyAnswerKeepsItsPlainHTTPAssetURLs() throws {
        let results = try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(ShutterstockRecorded.noQuery2015))
        let preview = try #require(results.images[0].assets.first { $0.name == "preview" })
        #expect(preview.url.absoluteString == "http://image.shutterstock.com/display_pic_with_logo/1322491/228944191/stock-photo-silhouette-person-jumping-over-on-the-hill-at-sunset-228944191.jpg")
        #expect(results.images[0].pageURL == nil)
    }

    @Test func newestAnswerCarriesPageURLsAndTheImageType() throws {
        let results = try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(ShutterstockRecorded.forest2026))
        #expect(results.images[0].pageURL?.absoluteString
                == "https://www.shutterstock.com/image-photo/majestic-woods-dramatic-sunbeams-illuminating-green-2730669441")
        #expect(results.images[0].imageType == "photo")
        #expect(results.images[0].aspect == 1.75)
    }

    // MARK: - Leniency

    @Test func numericIDsAndMissingDescriptionsAreAccepted() throws {
        let body = #"{"page":1,"per_page":2,"total_count":2,"data":[{"id":123456789,"contributor":{"id":42},"assets":{}},{"id":"987","description":null,"assets":{"small_thumb":{"url":"https://x.example/a.jpg","width":"100","height":"67"}}}]}"#
        let results = try ShutterstockResponseDecoder.decodeSearch(Data(body.utf8))
        #expect(results.images.map(\.id) == ["123456789", "987"])
        #expect(results.images[0].contributorID == "42")
        #expect(results.images[0].caption == "")
        let url = try #require(URL(string: "https://x.example/a.jpg"))
        #expect(results.images[1].assets == [ShutterstockAsset(name: "small_thumb", url: url, width: 100, height: 67)])
    }

    @Test func itemsWithoutAnIdAreSkippedAndCounted() throws {
        let body = #"{"page":1,"per_page":3,"total_count":30,"data":[{"id":"1"},{"description":"no id"},{"id":""}]}"#
        let results = try ShutterstockResponseDecoder.decodeSearch(Data(body.utf8))
        #expect(results.images.map(\.id) == ["1"])
        #expect(results.skippedItems == 2)
        #expect(results.pages == 10, "a page of skipped items is still a full page")
    }

    @Test func assetsWithoutAURLAreLeftOut() throws {
        let body = #"{"page":1,"per_page":1,"total_count":1,"data":[{"id":"1","assets":{"huge_jpg":{"display_name":"Huge","width":5000,"height":3000,"is_licensable":true},"preview":{"url":"javascript:alert(1)","width":450,"height":300},"small_thumb":{"url":"https://x.example/s.jpg","width":100,"height":0}}}]}"#
        let results = try ShutterstockResponseDecoder.decodeSearch(Data(body.utf8))
        #expect(results.images[0].assets.isEmpty)
    }

    @Test func aShortPageIsTheLastPage() throws {
        let body = #"{"page":3,"per_page":20,"total_count":1000,"data":[{"id":"1"},{"id":"2"},{"id":"3"},{"id":"4"},{"id":"5"}]}"#
        let results = try ShutterstockResponseDecoder.decodeSearch(Data(body.utf8))
        #expect(results.pages == 3)
        #expect(results.total == 45)
    }

    @Test func anEmptyPageEndsTheResultsWithoutAnError() throws {
        let body = #"{"page":4,"per_page":20,"total_count":1000,"search_id":"x","data":[]}"#
        let results = try ShutterstockResponseDecoder.decodeSearch(Data(body.utf8))
        #expect(results.images.isEmpty)
        #expect(results.pages == 4)
        #expect(results.total == 60)
    }

    @Test func hugeCountsDoNotOverflow() throws {
        let full = #"{"page":9223372036854775807,"per_page":1,"total_count":9223372036854775807,"data":[{"id":"1"}]}"#
        let results = try ShutterstockResponseDecoder.decodeSearch(Data(full.utf8))
        #expect(results.pages == Int.max)
        let short = #"{"page":9223372036854775807,"per_page":500,"total_count":9223372036854775807,"data":[]}"#
        let last = try ShutterstockResponseDecoder.decodeSearch(Data(short.utf8))
        #expect(last.pages == Int.max)
        #expect(last.total == Int.max)
    }

    // MARK: - Broken bodies

    @Test(arguments: [
        ("", "empty"),
        ("   \n", "empty"),
        ("[1,2]", "a list of 2, not an object"),
        ("{\"page\":1", "not valid JSON"),
        ("{\"page\":1,\"per_page\":20,\"total_count\":5}", "no `data` list"),
        ("{\"page\":1,\"per_page\":20,\"total_count\":5,\"data\":{}}", "`data` is an object, not a list"),
        ("{\"page\":1,\"per_page\":20,\"data\":[]}", "no `total_count`"),
        ("{\"page\":1,\"per_page\":20,\"total_count\":\"many\",\"data\":[]}", "`total_count` is \"many\", not a whole number"),
        ("{\"page\":1,\"per_page\":0,\"total_count\":5,\"data\":[]}", "`per_page` is 0"),
        ("{\"per_page\":20,\"total_count\":5,\"data\":[]}", "no `page`"),
        ("{\"message\":\"Invalid access token\"}", "only the message “Invalid access token”"),
    ])
    func brokenBodyNamesWhatIsWrong(_ body: String, _ expected: String) throws {
        let error = try #require(throws: ShutterstockError.self) {
            try ShutterstockResponseDecoder.decodeSearch(Data(body.utf8))
        }
        guard case .malformedResponse(let reason) = error else {
            Issue.record("expected malformedResponse, got \(error)")
            return
        }
        #expect(reason.contains(expected), "\(reason)")
    }

    @Test func recordedHTMLErrorPageIsNotMistakenForResults() throws {
        let error = try #require(throws: ShutterstockError.self) {
            try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(ShutterstockRecorded.html400))
        }
        #expect(error.description.contains("web page"))
        #expect(error.description.contains("An error occurred."))
        #expect(error.description.contains("SHUTTERSTOCK_API_URL"))
    }

    /// Cut anywhere, a real body fails cleanly rather than crashing.
    @Test func truncatedRecordedBodyFailsCleanly() throws {
        let body = try ShutterstockRecorded.data(ShutterstockRecorded.page9of2018)
        for length in stride(from: 0, to: body.count, by: 997) {
            #expect(throws: ShutterstockError.self) {
                try ShutterstockResponseDecoder.decodeSearch(body.prefix(length))
            }
        }
    }
}
