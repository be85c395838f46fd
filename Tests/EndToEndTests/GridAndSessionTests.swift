import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// Grid and session behaviour seen through the real binary: layout follows
    /// the window, `/open`, and the last session coming back offline.
    @Suite("Grid, detail and session")
    struct GridAndSession {
        @Test func pageAfterAResizeUsesNarrowerCells() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--images", "symbols"], columns: 120, rows: 40)
                try await process.waitForFirstListing()
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)
                let title = { (number: Int) in sandbox.catalog.photo(at: expected[number - 1]).title }
                var mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor("labels 1-3 on one line") { _, screen in
                    labelsShareALine([1, 2, 3], screen: screen, title: title)
                }

                try process.resize(columns: 60, rows: 40)
                mark = process.mark()
                try await process.enter("")
                try await process.waitForHeader(page: 2, after: mark)
                // At 60 columns, 120-column rows would wrap and split the labels
                // over two lines; cells sized for 60 columns keep them together.
                try await process.waitFor("labels 31-33 on one 60-column line") { _, screen in
                    labelsShareALine([31, 32, 33], screen: screen, title: title)
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func openShowsTheLargeImageAndItsMetadata() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--images", "symbols"])
                try await process.waitForFirstListing()
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)
                let photo = sandbox.catalog.photo(at: expected[1])
                var mark = process.mark()
                try await process.enter("kittens")
                let header = try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor("result 2") { _, screen in
                    screenShowsLabel(screen, number: 2, title: photo.title, below: header)
                }

                mark = process.mark()
                try await process.enter("/open 2")
                let pageURL = "https://www.flickr.com/photos/\(photo.owner)/\(photo.id)/"
                try await process.waitFor("the photo page URL \(pageURL)") { bytes, _ in
                    String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self).contains(pageURL)
                }
                let shown = process.text(since: mark)
                #expect(shown.contains(photo.ownerName) || shown.contains(photo.owner), "owner shown")
                #expect(shown.contains(String(photo.dateTaken.prefix(10))), "date taken shown")
                let large = [photo.imagePath(.l), photo.imagePath(.z)]
                let log = try await sandbox.requestLog()
                #expect(log.contains { record in large.contains { record.path.hasPrefix($0) } },
                        "the large image (b or z) was fetched")
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func lastSessionIsShownAgainAfterARelaunchWithTheNetworkDown() async throws {
            let home = try TemporaryDirectory(prefix: "flickr-e2e-session")
            let firstTitle = try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)
                let firstTitle = sandbox.catalog.photo(at: expected[0]).title
                let app = try FlickrApp(apiURL: sandbox.restURL, home: home)
                let process = try app.launch(["--images", "symbols"])
                try await process.waitForFirstListing()
                let mark = process.mark()
                try await process.enter("kittens")
                let header = try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor("result 1") { _, screen in
                    screenShowsLabel(screen, number: 1, title: firstTitle, below: header)
                }
                #expect(try await process.quit() == .exited(0))
                return firstTitle
            }

            let port = try closedLoopbackPort()
            let offline = try FlickrApp(apiURL: try #require(URL(string: "http://127.0.0.1:\(port)/services/rest/")), home: home)
            let process = try offline.launch(["--images", "symbols"])
            try await process.waitFor("kittens result 1 restored from the last session") { _, screen in
                screenShowsLabel(screen, number: 1, title: firstTitle)
            }
            #expect(process.exitStatus == nil)
            #expect(try await process.quit() == .exited(0))
        }
    }
}

/// True when one screen line shows all of `numbers`' labels.
func labelsShareALine(_ numbers: [Int], screen: TerminalScreen, title: (Int) -> String) -> Bool {
    (screen.scrollback + screen.lines).contains { line in
        numbers.allSatisfy { lineShowsLabel(line, number: $0, title: title($0)) }
    }
}
