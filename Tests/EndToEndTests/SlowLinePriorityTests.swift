import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// On a slow line what the person asked for last comes first: the next
    /// page does not wait for the last one's thumbnails, and thumbnails
    /// that are not drawn are not fetched. As on the slow line first reported, every response
    /// waits 100 ms and is throttled to 4 KB/s: a thumbnail takes seconds
    /// yet keeps arriving (it never looks stalled), and a page's answer
    /// arrives long before the thumbnails of the page before.
    @Suite("Slow line priorities")
    struct SlowLinePriority {
        static let perPage = 12
        static let slowLine = sandboxConfiguration(latency: .milliseconds(100), throttleKBps: 4)

        @Test func theNextPageHeaderComesWhileThePageBeforeIsStillLoading() async throws {
            try await SandboxHarness.with(Self.slowLine) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--per-page", "\(Self.perPage)", "--images", "symbols"])
                try await process.waitForFirstListing()
                let catalog = sandbox.catalog
                let firstPage = Set(catalog.search(text: "kittens", sort: .relevance).prefix(Self.perPage).map {
                    catalog.photo(at: $0).id
                })
                var mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)
                mark = process.mark()
                try await process.enter("")
                try await process.waitForHeader(page: 2, after: mark)

                // Page 1's thumbnails are still on their way: page 2 did not wait for them.
                let log = try await sandbox.requestLog()
                let finished = Set(log.filter { $0.kind == "image" && $0.endedAt != nil && !$0.aborted }.compactMap(\.photo))
                #expect(!firstPage.isSubset(of: finished), "page 2's header waited for every thumbnail of page 1")

                // They still arrive (in the background), for /open and the next visit.
                try await sandbox.waitForLog("every thumbnail of page 1 received whole") { log in
                    let whole = Set(log.filter { $0.kind == "image" && $0.endedAt != nil && !$0.aborted }.compactMap(\.photo))
                    return firstPage.isSubset(of: whole)
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func withoutPicturesNoThumbnailIsFetched() async throws {
            try await SandboxHarness.with(Self.slowLine) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--per-page", "\(Self.perPage)", "--images", "none"])
                try await process.waitForFirstListing()
                var mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)
                mark = process.mark()
                try await process.enter("")
                try await process.waitForHeader(page: 2, after: mark)
                let stats = try await sandbox.stats()
                #expect(stats.imageRequests == 0, "thumbnails fetched though none is drawn: \(stats)")
                #expect(try await process.quit() == .exited(0))
            }
        }
    }
}
