import PhotoCore
@testable import FlickrService
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// Numbers from outside (a server's counts, `--pages`, `--page`) never trap
/// and never make the listing print photos under the wrong page.
@Suite struct ListingLimitsTests {
    final class Sink: ListingSink, @unchecked Sendable {
        var headers: [String] = []
        var photos: [ListedPhoto] = []
        var notes: [String] = []
        func header(page: Int, pages: Int, total: Int) { headers.append("\(page)/\(pages)") }
        func photo(_ photo: ListedPhoto) { photos.append(photo) }
        func note(_ text: String) { notes.append(text) }
    }

    @Test func hugeCountsFromTheServerAndHugePagesDoNotTrap() async throws {
        let huge = PhotoPage(page: 1, pages: .max, perPage: .max, total: .max, photos: PagedProvider.photos(0..<3))
        let provider = PagedProvider(maxResults: 4_000, pages: [1: huge])
        #expect(provider.lastServedPage(pages: .max, perPage: .max) == 1)
        #expect(provider.lastServedPage(pages: .max, perPage: 30) == 134)
        let sink = Sink()
        try await ListingJob(query: .search(.typed("kittens")), firstPage: 1, pages: .max, perPage: .max).run(provider: provider, into: sink)
        #expect(sink.photos.count == 3)
        #expect(provider.asked == [1])

        let uncapped = PagedProvider(pages: [1: huge])
        let second = Sink()
        try await ListingJob(query: .search(.typed("kittens")), firstPage: .max, pages: .max, perPage: 30).run(provider: uncapped, into: second)
        #expect(uncapped.asked == [.max])
    }

    @Test func aPageBeyondTheCapIsRefusedBeforeAsking() async throws {
        let provider = PagedProvider(maxResults: 4_000, pages: [:])
        let sink = Sink()
        do {
            try await ListingJob(query: .search(.typed("kittens")), firstPage: 1_500, pages: 1, perPage: 30).run(provider: provider, into: sink)
            Issue.record("page 1500 was listed")
        } catch {
            #expect(error.message.contains("4000"))
            #expect(error.message.contains("pages 1–134"))
        }
        #expect(provider.asked.isEmpty)
        #expect(sink.photos.isEmpty)
    }

    @Test func theDecodersClampCounts() throws {
        let json = #"{"photos":{"page":1,"pages":"9223372036854775807","perpage":9223372036854775807,"total":"9223372036854775807","photo":[]},"stat":"ok"}"#
        let page = try FlickrResponseDecoder.decodePhotoPage(Data(json.utf8))
        #expect(page.pages <= FlickrResponseDecoder.largestCount)
        #expect(page.perPage <= FlickrResponseDecoder.largestCount)
        #expect(page.total <= FlickrResponseDecoder.largestCount)
    }
}
