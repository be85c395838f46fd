import PhotoCore
@testable import Downloads
import Foundation
import Sandbox
import TestSupport
import Testing
import FlickrService

/// Whatever a server puts in a title or a name, `NAME.xmp`
/// is well-formed XML (photo tools refuse the whole file otherwise).
@Suite struct DownloadXMPTests {
    @Test func strictParserRefusesNonCharacters() {
        func document(_ text: String) -> Data { Data("<?xml version=\"1.0\"?><a>\(text)</a>".utf8) }
        #expect(StrictXML.error(in: document("Lighthouse é 🏳️‍🌈 \u{FFFD}")) == nil)
        for refused in [DownloadHostileText.scalar(0xFFFF), DownloadHostileText.scalar(0xFFFE), "\u{1}", "\u{B}", "\u{1B}"] {
            #expect(StrictXML.error(in: document("a\(refused)b")) != nil, "\(refused.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test(arguments: ["Tram\(DownloadHostileText.scalar(0xFFFF))28", "\(DownloadHostileText.scalar(0xFFFE))Lisbon", "bell\u{7}", "esc\u{1B}[31m", "nul\u{0}", "form\u{C}feed"])
    func xmpOfAHostileTitleAndCreatorIsWellFormed(_ text: String) throws {
        let photo = Photo(id: "1", owner: "99@N00", ownerName: text, title: text,
                          credit: PhotoCredit(license: FlickrLicenseTable.builtIn.flickr(id: 4), creator: text))
        let (directory, _) = try DownloadHostileText.write([photo])
        let xmp = try Data(contentsOf: directory.url.appendingPathComponent("1.xmp"))
        #expect(StrictXML.error(in: xmp) == nil, "\(String(decoding: xmp, as: UTF8.self))")
    }

    @Test func everyXMPWrittenForHostilePhotosParsesStrictly() {
        var random = SplitMix64(seed: 29_05)
        for id in 0..<2_000 {
            let photo = DownloadHostileText.photo(&random, id: id)
            let xmp = DownloadCredits.xmp(photo, pageURL: URL(string: "https://example.test/\(id)"),
                                          attribution: photo.attributionLine(pageURL: nil))
            if let error = StrictXML.error(in: Data(xmp.utf8)) {
                Issue.record("case \(id): \(error)\n\(xmp.unicodeScalars.map { $0.isASCII ? String($0) : "U+\(String($0.value, radix: 16))" }.joined())")
                return
            }
        }
    }

    /// `cc:license` names a licence's deed, never the help
    /// page Flickr links for All Rights Reserved.
    @Test func allRightsReservedPointsNoLicenceAtAHelpPage() {
        let reserved = Photo(id: "1", owner: "o", title: "Tram", credit: PhotoCredit(license: FlickrLicenseTable.builtIn.flickr(id: 0)))
        let xmp = DownloadCredits.xmp(reserved, pageURL: nil, attribution: "x")
        #expect(!xmp.contains("cc:license"), "\(xmp)")
        #expect(xmp.contains("<xmpRights:Marked>True</xmpRights:Marked>"))
        let by = Photo(id: "2", owner: "o", title: "Tram", credit: PhotoCredit(license: FlickrLicenseTable.builtIn.flickr(id: 4)))
        #expect(DownloadCredits.xmp(by, pageURL: nil, attribution: "x")
            .contains("<cc:license rdf:resource=\"https://creativecommons.org/licenses/by/2.0/\"/>"))
    }
}
