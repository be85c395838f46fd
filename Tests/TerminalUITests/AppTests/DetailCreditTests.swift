import PhotoCore
@testable import FlickrViewModels
import Foundation
@testable import TerminalUI
import Testing
import FlickrService

/// `/open` tells a person to copy the credit line: it and the page link are
/// shown whole, wrapped to the window, never cut with "…".
@Suite struct DetailCreditTests {
    @Test func theCreditLineWrapsInFullAtTheWindowsWidth() throws {
        let details = PhotoDetails(
            id: "51234", title: "Evening light over the harbour at Kyoto, with the ferries coming in",
            ownerRealName: "Ana Souza", license: FlickrLicenseTable.builtIn.flickr(id: 4),
            pageURL: URL(string: "https://www.flickr.com/photos/anasouza/51234/"))
        let facts = PhotoFacts(details)
        let credit = "credit: " + TextSanitizer.sanitize(facts.attribution, maximumLength: 2_000)
        let columns = 40
        #expect(credit.count > columns, "the credit must be longer than the window for this test")

        let text = try #require(StatusText.details(.facts(facts), shownLabels: [], columns: columns))
        let lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("credit: ") })
        let creditLines = Array(lines[start...].prefix { !$0.hasPrefix("tags:") && !$0.hasPrefix("page:") })
        #expect(creditLines.joined() == credit)
        #expect(creditLines.allSatisfy { DisplayWidth.of($0) <= columns })
        #expect(!creditLines.joined().contains("…"))
    }

    @Test func wrappingKeepsEveryCharacterAndNeverSplitsAnEmoji() {
        let text = "日本語のタイトル 👨‍👩‍👧‍👦 https://example.org/a/very/long/path"
        let lines = TextSanitizer.wrap(text, columns: 7)
        #expect(lines.joined() == text)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 7 })
        #expect(lines.contains("👨‍👩‍👧‍👦") || lines.contains { $0.contains("👨‍👩‍👧‍👦") })
        #expect(TextSanitizer.wrap("", columns: 5) == [""])
    }
}
