import Foundation
import Testing
@testable import PhotoCore
import FlickrService

/// TASL lines, as Creative Commons recommends them.
@Suite struct AttributionTests {
    private let page = URL(string: "https://www.flickr.com/photos/ana/53624890009/")
    private let table = FlickrLicenseTable.builtIn

    @Test func titleAuthorSourceAndLicence() {
        #expect(Attribution.line(title: "Lighthouse at dusk", author: "Ana Souza", source: page, license: table.flickr(id: 4))
            == "\"Lighthouse at dusk\" by Ana Souza (https://www.flickr.com/photos/ana/53624890009/) is licensed under CC BY 2.0 (https://creativecommons.org/licenses/by/2.0/).")
    }

    @Test func publicDomainWorksAreMarked() {
        #expect(Attribution.line(title: "Moon", author: "NASA", source: nil, license: table.flickr(id: 9))
            == "\"Moon\" by NASA is marked with CC0 1.0 (https://creativecommons.org/publicdomain/zero/1.0/).")
        #expect(Attribution.line(title: "Map", author: nil, source: nil, license: table.flickr(id: 10))
            == "\"Map\" is marked with PDM 1.0 (https://creativecommons.org/publicdomain/mark/1.0/).")
    }

    @Test func untitledAndAnonymousWorks() {
        #expect(Attribution.line(title: "  ", author: "Ana", source: nil, license: table.flickr(id: 11))
            == "This work by Ana is licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).")
        #expect(Attribution.line(title: "", author: " ", source: nil, license: nil) == "This work.")
    }

    @Test func allRightsReservedIsNoLicence() {
        #expect(Attribution.line(title: "Cat", author: "Bo", source: nil, license: table.flickr(id: 0))
            == "\"Cat\" by Bo: all rights reserved.")
    }

    @Test func theTableKnowsEveryFlickrID() {
        #expect((0...16).allSatisfy { table.byFlickrID[$0] != nil })
        #expect(table.flickr(id: 14).shortName == "CC BY-NC 4.0")
        #expect(table.flickr(id: 14).fullName == "Creative Commons Attribution-NonCommercial 4.0")
        #expect(table.flickr(id: 99).shortName == "Licence 99")
        #expect(table.flickr(id: 7).isPublicDomain && table.flickr(id: 7).badge == "PD")
        #expect(table.flickr(id: 1).badge == "CC BY-NC-SA" && table.flickr(id: 0).badge == "©")
    }

    @Test func openverseSlugsMapOntoTheSameNames() throws {
        let by = try #require(LicenseTable.openverse(slug: "by", version: "2.0", url: nil))
        #expect(by.shortName == "CC BY 2.0" && by.url?.absoluteString == "https://creativecommons.org/licenses/by/2.0/")
        #expect(LicenseTable.openverse(slug: "cc0", version: "1.0", url: nil)?.shortName == "CC0 1.0")
        #expect(LicenseTable.openverse(slug: "PDM", version: nil, url: nil)?.shortName == "PDM 1.0")
        #expect(LicenseTable.openverse(slug: "sampling+", version: "1.0", url: nil)?.kind == .other)
        #expect(LicenseTable.openverse(slug: " ", version: "1.0", url: nil) == nil)
    }

    @Test func flickrsRenamedLicencesKeepWhatTheyAllow() {
        let moved = URL(string: "https://example.org/by/2.0/")
        let renamed = table.merging(names: [(id: 4, name: "Attribution License", url: moved), (id: 17, name: "New", url: nil)])
        #expect(renamed.flickr(id: 4).kind == .by && renamed.flickr(id: 4).shortName == "CC BY 2.0")
        #expect(renamed.flickr(id: 4).url == moved)
        #expect(renamed.flickr(id: 17).kind == .other && renamed.flickr(id: 17).shortName == "New")
    }
}
