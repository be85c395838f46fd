import Foundation
import Sandbox
import Testing
import TestSupport

/// All end-to-end suites run one test at a time: each starts the real app
/// (and a sandbox), and a 2-core CI machine shared with the other test
/// targets is slow enough already.
@Suite("End to end", .serialized)
struct EndToEnd {}

extension EndToEnd {
    /// The interactive app in a 120×40 pty against a sandbox with 40 ms latency.
    @Suite("Interactive search")
    struct InteractiveSearch {
        @Test func firstLaunchShowsRecentPhotos() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch()
                try await process.waitForFirstListing()
                // The sandbox's recent photos are its newest uploads: index 0 first.
                let newest = sandbox.catalog.photo(at: 0)
                try await process.waitFor("recent result 1 labelled \"1 \(newest.title.debugDescription)…\"") { _, screen in
                    screenShowsLabel(screen, number: 1, title: newest.title)
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func searchShowsHeaderAndFirstPageThenEnterShowsPageTwo() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch()
                try await process.waitForFirstListing()
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)
                let title = { (number: Int) in sandbox.catalog.photo(at: expected[number - 1]).title }

                var mark = process.mark()
                try await process.enter("kittens")
                let header = try await process.waitForHeader(page: 1, total: expected.count, after: mark)
                #expect(header.total == expected.count, "header \(header), catalog has \(expected.count) matches")
                #expect(acceptablePageCounts(total: expected.count, perPage: 30).contains(header.pages), "header \(header)")
                for number in [1, 2, 3, 30] {
                    try await process.waitFor("result \(number) labelled \"\(number) \(title(number).debugDescription)…\"") { _, screen in
                        screenShowsLabel(screen, number: number, title: title(number), below: header)
                    }
                }

                mark = process.mark()
                try await process.enter("")
                let second = try await process.waitForHeader(page: 2, total: expected.count, after: mark)
                #expect(second.total == expected.count)
                for number in [31, 60] {
                    try await process.waitFor("result \(number) labelled \"\(number) \(title(number).debugDescription)…\"") { _, screen in
                        screenShowsLabel(screen, number: number, title: title(number), below: second)
                    }
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func gridShowsThreeCellsPerRow() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "grid", "--images", "symbols"])
                try await process.waitForFirstListing()
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)
                let mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)
                let titles = (0..<6).map { sandbox.catalog.photo(at: expected[$0]).title }
                // Labels 1, 2, 3 share a screen line; 4, 5, 6 share the next row's.
                try await process.waitFor("labels 1-3 on one line and 4-6 on another") { _, screen in
                    let lines = screen.scrollback + screen.lines
                    func row(_ numbers: [Int]) -> Bool {
                        lines.contains { line in
                            numbers.allSatisfy { lineShowsLabel(line, number: $0, title: titles[$0 - 1]) }
                        }
                    }
                    return row([1, 2, 3]) && row([4, 5, 6])
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func emptyEnterAfterTheLastPageSaysThereIsNoMore() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let (query, count) = try #require(narrowQuery(in: sandbox.catalog), "no narrow query in the catalog")
                let perPage = (count + 1) / 2  // exactly two pages
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--per-page", "\(perPage)", "--images", "none"])
                try await process.waitForFirstListing()
                var mark = process.mark()
                try await process.enter(query)
                let header = try await process.waitForHeader(page: 1, after: mark)
                #expect(header.pages == 2, "\(query.debugDescription) matches \(count); header \(header)")
                mark = process.mark()
                try await process.enter("")
                try await process.waitForHeader(page: 2, after: mark)
                mark = process.mark()
                try await process.enter("")
                try await process.waitFor("a \"no more results\" message") { bytes, _ in
                    String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self).lowercased().contains("no more")
                }
                #expect(resultsHeaders(in: process.text(since: mark)).isEmpty, "no third page is shown")
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func controlDQuitsWithExitCodeZero() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--images", "none"])
                try await process.waitForFirstListing()
                try process.sendControlD()
                #expect(try await process.waitForExit() == .exited(0))
            }
        }

        @Test func listLayoutShowsOnePhotoPerLine() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list", "--images", "none", "--per-page", "10"])
                try await process.waitForFirstListing()
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)
                let mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor("results 1-10 each on its own line") { _, screen in
                    let lines = screen.scrollback + screen.lines
                    return (1...10).allSatisfy { number in
                        let title = sandbox.catalog.photo(at: expected[number - 1]).title
                        return lines.contains { line in
                            lineShowsLabel(line, number: number, title: title)
                                && !lineShowsLabel(line, number: number + 1, title: "")
                        }
                    }
                }
                #expect(try await process.quit() == .exited(0))
            }
        }
    }
}

/// A query with a handful of matches (enough for two pages of at least one
/// photo each), from the sandbox's narrower vocabulary.
func narrowQuery(in catalog: Catalog) -> (query: String, count: Int)? {
    for query in ["mountain lake", "red car", "snow owl", "lighthouse storm", "bridge fog", "mountain lake sunset"] {
        let count = catalog.search(text: query).count
        if (4...1_000).contains(count) { return (query, count) }
    }
    return nil
}
