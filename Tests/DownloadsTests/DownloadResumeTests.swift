import PhotoCore
@testable import Downloads
import Foundation
import ImagePipeline
import NIOConcurrencyHelpers
import TestSupport
import Testing
import FlickrService

/// Downloading an album or a photostream into a real folder, twice: what the
/// second run keeps, repairs and names, and how videos are treated.
@Suite struct DownloadResumeTests {
    /// Keeps the latest tally the job reported.
    final class TallyReporter: DownloadReporter {
        private let latest = NIOLockedValueBox(DownloadTally())
        var tally: DownloadTally { latest.withLockedValue { $0 } }

        func pageStarted(_ number: Int, of last: Int, photos: Int, tally: DownloadTally) {}
        func imageSettled(tally: DownloadTally, failure: String?) { latest.withLockedValue { $0 = tally } }
        func pageFailed(_ number: Int, reason: String, tally: DownloadTally) {}
    }

    private func job(
        _ provider: CollectionProvider, folder: URL, fetcher: ScriptedImageFetcher, reporter: TallyReporter = TallyReporter(),
        source: DownloadJob.Source? = nil, name: String? = "{index}_{title}", videos: Bool = false, sidecars: Bool = true,
        pages: Int = 2, perPage: Int = 4
    ) throws -> DownloadJob {
        DownloadJob(
            request: .init(
                source: source ?? .collection(provider.album), pages: pages, perPage: perPage, size: .square150, folder: folder,
                concurrency: 2, sidecars: sidecars, name: try name.map { try FileNameTemplate($0) }, videos: videos),
            provider: provider, pipeline: ImageDownloadManager(fetcher: fetcher), videoFetcher: fetcher, reporter: reporter)
    }

    private func images(in directory: TemporaryDirectory) -> [URL] {
        directory.allFiles().filter { ["jpg", "png", "gif", "webp"].contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func anAlbumDownloadInterruptedHalfwayEndsCompleteAndCountsWhatWasThere() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: (1...8).map { "Tile \($0)" })

        // First run: three images arrive, then the run is interrupted.
        let gated = ScriptedImageFetcher(gated: true)
        let reporter = TallyReporter()
        let first = try job(provider, folder: directory.url, fetcher: gated, reporter: reporter)
        let running = Task { await first.run() }
        for id in 1...3 { gated.release(try #require(URL(string: "http://images.test/\(id)_q.jpg"))) }
        try await eventually("three images saved") { reporter.tally.downloaded == 3 }
        first.cancel()
        let interrupted = await running.value
        #expect(interrupted.cancelled)
        #expect(images(in: directory).count == 3)

        // A file cut short, as a full disk or another tool would leave it.
        let cut = directory.url.appendingPathComponent("2_Tile 2.jpg")
        let whole = try Data(contentsOf: cut)
        try whole.prefix(whole.count / 2).write(to: cut)

        let second = try job(provider, folder: directory.url, fetcher: ScriptedImageFetcher())
        let result = await second.run()
        #expect(!result.cancelled)
        #expect(result.tally.kept == 2, "the two whole files are kept")
        #expect(result.tally.downloaded == 6, "the cut one and the five never fetched")
        #expect(!result.tally.isIncomplete)
        #expect(result.tally.summary(seconds: 1).contains("Downloaded 6, 2 already there, failed 0"), "\(result.tally.summary(seconds: 1))")

        let saved = images(in: directory)
        #expect(saved.map(\.lastPathComponent) == (1...8).map { "\($0)_Tile \($0).jpg" })
        for file in saved {
            #expect(ImageFormat.isComplete(try Data(contentsOf: file)), "\(file.lastPathComponent) is whole")
        }
        #expect(try Data(contentsOf: cut) == whole)
        #expect(!directory.allFiles().contains { $0.lastPathComponent.hasSuffix(".part") }, "no temporary file is left")
        #expect(directory.allFiles().contains { $0.lastPathComponent == "CREDITS.md" })
    }

    @Test func aSecondRunFindsEveryFileUnderItsNumberedName() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: ["Sunset", "sunset", "Sunset", "Harbour"])
        let first = await (try job(provider, folder: directory.url, fetcher: ScriptedImageFetcher(), name: "{title}")).run()
        #expect(first.tally.downloaded == 4)
        let names = images(in: directory).map(\.lastPathComponent)
        #expect(names == ["Harbour.jpg", "Sunset (3).jpg", "Sunset.jpg", "sunset (2).jpg"])

        let fetcher = ScriptedImageFetcher()
        let second = await (try job(provider, folder: directory.url, fetcher: fetcher, name: "{title}")).run()
        #expect(second.tally.kept == 4)
        #expect(second.tally.downloaded == 0)
        #expect(fetcher.started.isEmpty, "nothing is fetched again")
        #expect(images(in: directory).map(\.lastPathComponent) == names)
    }

    @Test func aFileOfAnotherWorkWithTheSameNameIsLeftAlone() async throws {
        let directory = try TemporaryDirectory()
        let lisbon = CollectionProvider(photos: [Photo(id: "1", owner: "o", title: "Sunset")])
        let porto = CollectionProvider(photos: [Photo(id: "2", owner: "o", title: "Sunset")])
        _ = await (try job(lisbon, folder: directory.url, fetcher: ScriptedImageFetcher(), name: "{title}", pages: 1)).run()
        let result = await (try job(porto, folder: directory.url, fetcher: ScriptedImageFetcher(), name: "{title}", pages: 1)).run()
        #expect(result.tally.downloaded == 1, "not taken for the other photo's file")
        #expect(images(in: directory).map(\.lastPathComponent) == ["Sunset (2).jpg", "Sunset.jpg"])
    }

    @Test func anUnrecordedFileUnderThePhotosOwnNameGivesWayOnlyToTheSameBytes() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: ["A", "B", "C", "D", "E", "F", "G"])
        _ = await (try job(provider, folder: directory.url, fetcher: ScriptedImageFetcher(), name: nil, pages: 1, perPage: 7)).run()
        // What a full disk can leave: the images, no manifest, no sidecars.
        for file in directory.allFiles() where file.pathExtension != "jpg" { try FileManager.default.removeItem(at: file) }
        // And under three of the names, what is not the photo: other bytes,
        // a folder, and a link to the photo's very bytes elsewhere.
        let url = { (name: String) in directory.url.appendingPathComponent(name) }
        let notes = Data("notes of my own".utf8)
        try notes.write(to: url("3_s3_q.jpg"))
        try FileManager.default.removeItem(at: url("4_s4_q.jpg"))
        try FileManager.default.createDirectory(at: url("4_s4_q.jpg"), withIntermediateDirectories: false)
        let elsewhere = try TemporaryDirectory()
        try FileManager.default.moveItem(at: url("5_s5_q.jpg"), to: elsewhere.url.appendingPathComponent("5.jpg"))
        try FileManager.default.createSymbolicLink(at: url("5_s5_q.jpg"), withDestinationURL: elsewhere.url.appendingPathComponent("5.jpg"))
        // The photo's bytes, but beside a NAME.json of someone else's; and a link to nothing.
        let mine = Data(#"{"mine": true}"#.utf8)
        try mine.write(to: url("6_s6_q.json"))
        try FileManager.default.removeItem(at: url("7_s7_q.jpg"))
        try FileManager.default.createSymbolicLink(atPath: url("7_s7_q.jpg").path, withDestinationPath: "/nonexistent/7.jpg")

        let result = await (try job(provider, folder: directory.url, fetcher: ScriptedImageFetcher(), name: nil, pages: 1, perPage: 7)).run()
        #expect(result.tally.downloaded == 7)
        #expect(!result.isIncomplete)
        let names = Set(directory.allFiles().map(\.lastPathComponent))
        // The photos' own bytes were there: no second copy, and credited again.
        #expect(names.isSuperset(of: ["1_s1_q.jpg", "1_s1_q.json", "1_s1_q.xmp", "2_s2_q.jpg", "CREDITS.md", ".flickr-manifest.json"]))
        #expect(!names.contains("1_s1_q (2).jpg"))
        // The rest stays as it was, and those photos take the next name.
        #expect(try Data(contentsOf: url("3_s3_q.jpg")) == notes)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: url("4_s4_q.jpg").path)) == [])
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: url("5_s5_q.jpg").path)) != nil)
        #expect(try Data(contentsOf: url("6_s6_q.json")) == mine)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: url("7_s7_q.jpg").path)) == "/nonexistent/7.jpg")
        #expect(names.isSuperset(of: ["3_s3_q (2).jpg", "4_s4_q (2).jpg", "5_s5_q (2).jpg", "6_s6_q (2).jpg", "7_s7_q (2).jpg"]))

        // Recorded now: a third run keeps all seven and fetches nothing.
        let fetcher = ScriptedImageFetcher()
        let third = await (try job(provider, folder: directory.url, fetcher: fetcher, name: nil, pages: 1, perPage: 7)).run()
        #expect(third.tally.kept == 7)
        #expect(fetcher.started.isEmpty)
    }

    @Test func sidecarsFollowTheChosenName() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: ["Tram 28"])
        _ = await (try job(provider, folder: directory.url, fetcher: ScriptedImageFetcher(), name: "{album} {index} {title}", pages: 1)).run()
        let names = Set(directory.allFiles().map(\.lastPathComponent))
        #expect(names == ["Lisbon_ tiles_trams 1 Tram 28.jpg", "Lisbon_ tiles_trams 1 Tram 28.json",
                          "Lisbon_ tiles_trams 1 Tram 28.xmp", "CREDITS.md", ".flickr-manifest.json"])
        let sidecar = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: directory.url.appendingPathComponent("Lisbon_ tiles_trams 1 Tram 28.json")))
                as? [String: Any])
        #expect(sidecar["file"] as? String == "Lisbon_ tiles_trams 1 Tram 28.jpg")
        #expect(sidecar["bytes"] as? Int == ScriptedImageFetcher.jpeg().count)
    }

    @Test func withoutATemplateTheNamesStayFlickrs() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: ["A", "B"])
        _ = await (try job(provider, folder: directory.url, fetcher: ScriptedImageFetcher(), name: nil, sidecars: false, pages: 1)).run()
        #expect(images(in: directory).map(\.lastPathComponent) == ["1_s1_q.jpg", "2_s2_q.jpg"])
    }

    @Test func videosAreSkippedAndCountedUnlessAskedFor() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: ["Still", "Clip", "Still too"], videos: [2])
        let fetcher = ScriptedImageFetcher()
        let result = await (try job(provider, folder: directory.url, fetcher: fetcher, pages: 1)).run()
        #expect(result.tally.videosSkipped == 1)
        #expect(result.tally.downloaded == 2)
        #expect(!result.tally.isIncomplete)
        #expect(result.tally.summary(seconds: 1).contains("1 video skipped (--videos downloads them)"))
        #expect(!fetcher.started.contains { $0.host == "videos.test" })
        #expect(images(in: directory).map(\.lastPathComponent) == ["1_Still.jpg", "3_Still too.jpg"], "the index counts the video")
    }

    @Test func withVideosTheVideoFileIsSavedAndKeptNextTime() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: ["Still", "Clip"], videos: [2])
        let video = FileNameTemplateTests.mp4(payload: 4000)
        let videoURL = try #require(URL(string: "http://videos.test/2.mp4"))
        let fetcher = ScriptedImageFetcher()
        fetcher.setStandingAnswer(.respond(video), for: videoURL)
        let first = await (try job(provider, folder: directory.url, fetcher: fetcher, videos: true, pages: 1)).run()
        #expect(first.tally.downloaded == 2)
        #expect(first.tally.videosSkipped == 0)
        let saved = directory.url.appendingPathComponent("2_Clip.mp4")
        #expect(try Data(contentsOf: saved) == video)

        // Cut short: the sidecar's recorded length says so, and it is fetched again.
        try video.prefix(3000).write(to: saved)
        let again = ScriptedImageFetcher()
        again.setStandingAnswer(.respond(video), for: videoURL)
        let second = await (try job(provider, folder: directory.url, fetcher: again, videos: true, pages: 1)).run()
        #expect(second.tally.kept == 1)
        #expect(second.tally.downloaded == 1)
        #expect(again.requests(for: videoURL) == 1)
        #expect(try Data(contentsOf: saved) == video)

        let third = await (try job(provider, folder: directory.url, fetcher: again, videos: true, pages: 1)).run()
        #expect(third.tally.kept == 2)
        #expect(again.requests(for: videoURL) == 1, "a whole video is not fetched again")
    }

    @Test func withoutSidecarsAWholeVideoIsToldByItsBoxes() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: ["Clip"], videos: [1])
        let video = FileNameTemplateTests.mp4(payload: 500)
        let videoURL = try #require(URL(string: "http://videos.test/1.mp4"))
        let fetcher = ScriptedImageFetcher()
        fetcher.setStandingAnswer(.respond(video), for: videoURL)
        _ = await (try job(provider, folder: directory.url, fetcher: fetcher, videos: true, sidecars: false, pages: 1)).run()
        let kept = await (try job(provider, folder: directory.url, fetcher: fetcher, videos: true, sidecars: false, pages: 1)).run()
        #expect(kept.tally.kept == 1)
        try video.prefix(100).write(to: directory.url.appendingPathComponent("1_Clip.mp4"))
        let repaired = await (try job(provider, folder: directory.url, fetcher: fetcher, videos: true, sidecars: false, pages: 1)).run()
        #expect(repaired.tally.downloaded == 1)
        #expect(fetcher.requests(for: videoURL) == 2)
    }

    @Test func aPersonAndAnAlbumAreFoundByNameIdOrLink() async throws {
        let provider = CollectionProvider(titles: ["A"])
        #expect(try await CollectionChoice.user("anasouza").collection(at: provider) == .photostream(of: provider.person))
        #expect(try await CollectionChoice.album("72157719").collection(at: provider) == provider.album)
        #expect(try await CollectionChoice.album("https://albums.test/72157719").collection(at: provider) == provider.album)
        await #expect {
            try await CollectionChoice.album("not an id!").collection(at: provider)
        } throws: { error in
            (error as? CollectionLookupError)?.message == "“not an id!” is neither an album id (digits) nor a link to an album."
        }
        await #expect {
            try await CollectionChoice.user("nobody").collection(at: provider)
        } throws: { error in
            (error as? CollectionLookupError)?.message == "No one is called nobody."
        }
    }

    @Test func aProviderWithoutCollectionsSaysSoBeforeAnyRequest() async throws {
        let provider = InMemoryProvider(count: 3)
        await #expect {
            try await CollectionChoice.user("ana").collection(at: provider)
        } throws: { error in
            (error as? CollectionLookupError)?.message == "Flickr has no photostreams, albums, galleries or pools."
        }
        #expect(provider.calls.isEmpty)
    }

    @Test func theJSONReportCarriesTheCountsAndTheCollection() throws {
        var tally = DownloadTally()
        tally.expected = 5
        tally.outstanding = 2
        tally.record(.downloaded(bytes: 100, fromCache: false))
        tally.record(.downloaded(bytes: 50, fromCache: true))
        tally.record(.kept)
        tally.record(.kept)
        tally.record(.videoSkipped)
        let album = PhotoCollection(kind: .album, id: "7", title: "Tiles \u{202E}evil", owner: Person(id: "9@N00", username: "ana"))
        let report = DownloadReport(
            DownloadJob.Result(tally: tally, notes: ["n"]), seconds: 1.23456, folder: URL(fileURLWithPath: "/tmp/out"),
            collection: CollectionFacts(album, pageURL: URL(string: "https://www.flickr.com/photos/ana/albums/7")))
        let line = report.json
        #expect(!line.contains("\n"))
        #expect(line.contains("\\u202e"), "the override is escaped: \(line)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["downloaded"] as? Int == 2)
        #expect(object["from_cache"] as? Int == 1)
        #expect(object["already_there"] as? Int == 2)
        #expect(object["videos_skipped"] as? Int == 1)
        #expect(object["failed"] as? Int == 0)
        #expect(object["complete"] as? Bool == true)
        #expect(object["bytes"] as? Int == 150)
        #expect(object["folder"] as? String == "/tmp/out")
        let collection = try #require(object["collection"] as? [String: Any])
        #expect(collection["kind"] as? String == "album")
        #expect(collection["title"] as? String == "Tiles \u{202E}evil")
        #expect(collection["owner"] as? String == "9@N00")
        #expect(collection["url"] as? String == "https://www.flickr.com/photos/ana/albums/7")
    }
}
