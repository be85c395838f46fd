import PhotoCore
@testable import Downloads
import Foundation
import Sandbox
import TestSupport
import Testing
import FlickrService

/// Whatever a server puts in a title, a name or a licence,
/// `CREDITS.md` is inert Markdown: no live link, image, tag or emphasis, no
/// invisible or reordering characters, no line too long to read.
@Suite struct DownloadCreditsTextTests {
    private static let hostileTitle = "[click](javascript:alert(1)) <img src=x onerror=alert(1)>"

    @Test func creditsKeepAHostileTitleAndOwnerInert() throws {
        let photo = Photo(
            id: "1", owner: "99@N00", ownerName: "[o](javascript:x)", title: Self.hostileTitle + " \u{202E}gnp.exe\u{202C} zero\u{200B}width tag\u{E0041}",
            credit: PhotoCredit(license: FlickrLicenseTable.builtIn.flickr(id: 4)))
        let (_, text) = try DownloadHostileText.write([photo])
        let markup = DownloadHostileText.liveMarkup(in: text)
        #expect(markup.live.isEmpty, "\(markup.live)\n\(text)")
        for live in ["](javascript:", "<img", "onerror=", "[o]"] { #expect(!text.contains(live), "\(text)") }
        let hidden = text.unicodeScalars.filter(DownloadHostileText.isForbiddenInCredits)
        #expect(hidden.isEmpty, "\(hidden.map { String($0.value, radix: 16) })")
        #expect(text.contains("click"), "the words stay, inert: \(text)")
        #expect(text.contains("(https://www.flickr.com/photos/99@N00/1/)"), "the credit's own link reads as it is: \(text)")
        #expect(markup.codeSpans == ["1.jpg"])
    }

    @Test func aFileNameWithBackticksStaysInItsCodeSpan() throws {
        let files = ["a`b.jpg", "``x``.jpg", "`lead.jpg", "trail`.jpg"]
        let photos = files.indices.map { Photo(id: "\($0)", owner: "99@N00", title: "Tram \($0)") }
        let (_, text) = try DownloadHostileText.write(photos, files: files)
        let markup = DownloadHostileText.liveMarkup(in: text)
        #expect(markup.live.isEmpty, "\(markup.live)\n\(text)")
        #expect(Set(markup.codeSpans) == Set(files), "\(text)")
    }

    @Test func aTenThousandCharacterTitleIsCut() throws {
        let photo = Photo(id: "1", owner: "99@N00", ownerName: String(repeating: "o", count: 5_000), title: String(repeating: "t", count: 10_000),
                          credit: PhotoCredit(license: FlickrLicenseTable.builtIn.flickr(id: 4)))
        let (directory, text) = try DownloadHostileText.write([photo])
        let longest = text.split(separator: "\n").map(\.count).max() ?? 0
        #expect(longest < 1_000, "a line of \(longest) characters")
        #expect(text.contains("…"))
        #expect(text.contains("CC BY 2.0"), "the licence survives the cut: \(text.suffix(300))")
        // The sidecar keeps the record as it came.
        let sidecar = try Data(contentsOf: directory.url.appendingPathComponent("1.json"))
        #expect(String(decoding: sidecar, as: UTF8.self).contains(String(repeating: "t", count: 10_000)))
    }

    @Test func aServersLicenceNameIsNoHTMLInItsHeading() throws {
        // Flickr's licences.getInfo names licences the table does not know.
        let license = FlickrLicenseTable.builtIn.merging(names: [(id: 99, name: "<img src=x onerror=alert(1)>", url: nil)]).flickr(id: 99)
        let photo = Photo(id: "1", owner: "o", title: "Tram", credit: PhotoCredit(license: license))
        let (_, text) = try DownloadHostileText.write([photo])
        let heading = try #require(text.split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(!heading.contains("<img"), "\(heading)")
        #expect(DownloadHostileText.liveMarkup(in: String(heading)).live.isEmpty, "\(heading)")
    }

    @Test func creditsForGeneratedHostileTextAreInert() {
        var random = SplitMix64(seed: 29_06)
        for round in 0..<1_000 {
            let photos = (0..<(1 + random.below(3))).map { DownloadHostileText.photo(&random, id: round * 10 + $0) }
            let files = photos.map { SafeFileName.make(DownloadHostileText.text(&random), fallback: $0.id) + ".jpg" }
            let works = zip(photos, files).map { photo, file in
                (license: photo.credit?.license, line: photo.attributionLine(pageURL: nil), file: file)
            }
            let text = DownloadCredits.credits(works)
            let markup = DownloadHostileText.liveMarkup(in: text)
            let hidden = text.unicodeScalars.filter(DownloadHostileText.isForbiddenInCredits)
            if !markup.live.isEmpty || !hidden.isEmpty || Set(markup.codeSpans) != Set(files) {
                Issue.record("round \(round): \(markup.live.prefix(3)) \(hidden.map { String($0.value, radix: 16) }) \(markup.codeSpans) vs \(files)")
                return
            }
        }
    }
}
