import PhotoCore
import FlickrService
@testable import Downloads
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// Flickr may send `total: ""` on a page full of photos.
/// The photos count, whatever the total says.
@Suite struct DownloadEmptyTotalTests {
    @Test func aPageWithPhotosIsDownloadedWhenItsTotalIsEmpty() async throws {
        // What the decoder makes of Flickr's `"total": ""`: a total of 0.
        let wire = Data(#"""
            {"stat":"ok","photos":{"page":1,"pages":1,"perpage":3,"total":"","photo":[
            {"id":"1","owner":"o@N00","secret":"s1","server":"1","title":"A"},
            {"id":"2","owner":"o@N00","secret":"s2","server":"1","title":"B"}]}}
            """#.utf8)
        let decoded = try FlickrResponseDecoder.decodePhotoPage(wire)
        #expect(decoded.total == 0)
        #expect(decoded.photos.count == 2)

        let directory = try TemporaryDirectory()
        let provider = PagedProvider(pages: [1: decoded])
        let job = DownloadJob(
            request: .init(query: .typed("kittens"), pages: 1, perPage: 3, size: .square150, folder: directory.url, concurrency: 2,
                sidecars: false),
            provider: provider, pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()),
            reporter: DownloadJobTests.RecordingReporter())
        let result = await job.run()
        #expect(!result.notes.contains { $0.contains("No photos match") }, "\(result.notes)")
        #expect(result.tally.downloaded == 2)
        #expect(directory.allFiles().filter { $0.pathExtension == "jpg" }.count == 2)
    }
}
