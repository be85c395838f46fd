import PhotoCore
import FlickrService
import Networking
@testable import Downloads
import Foundation
import ImagePipeline
import NIOConcurrencyHelpers
import Sandbox
import TestSupport
import Testing

/// `flickr download` names each file after the format of its bytes, not the
/// URL's extension (the sandbox's URLs all end in .jpg).
@Suite struct DownloadFormatTests {
    /// Answers the sandbox's image URLs with JPEG, PNG, GIF and WebP in
    /// turn, each URL always the same format, and counts the fetches.
    final class MixedFormatFetcher: ImageFetching {
        private let samples: [Data]
        private let state = NIOLockedValueBox<(assigned: [String: Int], fetches: Int)>(([:], 0))

        init() throws {
            samples = [
                try ImageSamples.jpeg(width: 40, height: 40),
                try ImageSamples.png(width: 40, height: 40, color: .rgba),
                try ImageSamples.gif(width: 40, height: 40),
                try ImageSamples.webp(width: 40, height: 40, lossless: false),
            ]
        }

        func fetch(_ url: URL, progress: @escaping @Sendable (Int, Int?) -> Void) async throws(NetworkError) -> Data {
            let index = state.withLockedValue { state in
                state.fetches += 1
                // By path: each run has its own sandbox, on another port.
                if let index = state.assigned[url.path] { return index }
                let index = state.assigned.count % samples.count
                state.assigned[url.path] = index
                return index
            }
            return samples[index]
        }

        var fetches: Int { state.withLockedValue { $0.fetches } }
    }

    struct SilentReporter: DownloadReporter {
        func pageStarted(_ number: Int, of last: Int, photos: Int, tally: DownloadTally) {}
        func imageSettled(tally: DownloadTally, failure: String?) {}
        func pageFailed(_ number: Int, reason: String, tally: DownloadTally) {}
    }

    private func run(folder: URL, fetcher: MixedFormatFetcher) async throws -> DownloadJob.Result {
        try await withSandboxSession(photoCount: 500) { server, network in
            let provider = FlickrProvider(
                apiKey: "sandbox", endpoint: server.restURL, imageHost: server.baseURL,
                network: network, displayName: "sandbox")
            let job = DownloadJob(
                request: .init(query: .typed("kittens"), pages: 1, perPage: 8, size: .square150, folder: folder, concurrency: 4,
                    sidecars: false),
                provider: provider, pipeline: ImageDownloadManager(fetcher: fetcher), reporter: SilentReporter())
            return await job.run()
        }
    }

    @Test func eachFileIsSavedUnderTheExtensionOfItsBytes() async throws {
        let directory = try TemporaryDirectory()
        let result = try await run(folder: directory.url, fetcher: try MixedFormatFetcher())
        #expect(result.tally.downloaded == 8)
        let files = directory.allFiles().filter { $0.lastPathComponent != DownloadManifest.fileName }
        #expect(files.count == 8)
        var extensions: Set<String> = []
        for file in files {
            let data = try Data(contentsOf: file)
            let format = try #require(ImageFormat.sniff(data), "\(file.lastPathComponent)")
            #expect(file.pathExtension == format.fileExtension, "\(file.lastPathComponent) holds a \(format)")
            #expect(file.lastPathComponent.hasSuffix("_q.\(format.fileExtension)"))
            #expect(ImageFormat.isComplete(data))
            extensions.insert(file.pathExtension)
        }
        #expect(extensions == ["jpg", "png", "gif", "webp"])
    }

    @Test func aWholeFileUnderItsRightNameIsKeptAndOneUnderTheWrongNameIsFetchedAgain() async throws {
        let directory = try TemporaryDirectory()
        let fetcher = try MixedFormatFetcher()
        _ = try await run(folder: directory.url, fetcher: fetcher)
        let png = try #require(directory.allFiles().first { $0.pathExtension == "png" })
        let pngBytes = try Data(contentsOf: png)
        // The same PNG bytes under .jpg, as an older version saved them.
        let misnamed = png.deletingPathExtension().appendingPathExtension("jpg")
        try FileManager.default.moveItem(at: png, to: misnamed)

        let before = fetcher.fetches
        let second = try await run(folder: directory.url, fetcher: fetcher)
        #expect(second.tally.kept == 7)
        #expect(second.tally.downloaded == 1)
        #expect(fetcher.fetches - before == 1)
        #expect(try Data(contentsOf: png) == pngBytes)
    }

    @Test func aCutFileUnderItsRightNameIsFetchedAgain() async throws {
        let directory = try TemporaryDirectory()
        let fetcher = try MixedFormatFetcher()
        _ = try await run(folder: directory.url, fetcher: fetcher)
        let webp = try #require(directory.allFiles().first { $0.pathExtension == "webp" })
        let whole = try Data(contentsOf: webp)
        try ImageSamples.holed(whole).write(to: webp)

        let second = try await run(folder: directory.url, fetcher: fetcher)
        #expect(second.tally.kept == 7)
        #expect(second.tally.downloaded == 1)
        #expect(try Data(contentsOf: webp) == whole)
    }
}
