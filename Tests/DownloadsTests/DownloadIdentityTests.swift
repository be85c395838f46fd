import PhotoCore
@testable import Downloads
import Foundation
import ImagePipeline
import Platform
import TestSupport
import Testing
import FlickrService

/// A file already in the folder is kept only when it is the
/// photo wanted, byte for byte; a name held by another photo gets the next
/// numbered name; the sidecars and credits describe the bytes beside them.
@Suite struct DownloadIdentityTests {
    private func run(
        _ provider: CollectionProvider, folder: URL, fetcher: ScriptedImageFetcher = ScriptedImageFetcher(), name: String,
        sidecars: Bool
    ) async throws -> DownloadJob.Result {
        let job = DownloadJob(
            request: .init(
                source: .collection(provider.album), pages: 1, perPage: 3, size: .square150, folder: folder, concurrency: 2,
                sidecars: sidecars, name: try FileNameTemplate(name)),
            provider: provider, pipeline: ImageDownloadManager(fetcher: fetcher), videoFetcher: fetcher,
            reporter: DownloadResumeTests.TallyReporter())
        return await job.run()
    }

    private static func photos(_ ids: [String], title: (String) -> String = { $0 }) -> [Photo] {
        ids.map { id in
            Photo(id: id, owner: "99@N00", ownerName: "ana", title: title(id), flickr: FlickrPhotoKeys(secret: "s\(id)", server: "1"))
        }
    }

    private func sidecar(_ directory: TemporaryDirectory, _ baseName: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.url.appendingPathComponent(baseName + ".json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func imageNames(_ directory: TemporaryDirectory) -> [String] {
        directory.allFiles().map(\.lastPathComponent).filter { $0.hasSuffix(".jpg") }.sorted()
    }

    @Test func anIndexNameOfAnotherQuerysPhotoIsNotTakenForThisOne() async throws {
        let directory = try TemporaryDirectory()
        let cats = CollectionProvider(photos: Self.photos(["cat1", "cat2", "cat3"]))
        let dogs = CollectionProvider(photos: Self.photos(["dog1", "dog2", "dog3"]))
        let catFetcher = ScriptedImageFetcher()
        for id in 1...3 {
            let url = try #require(URL(string: "http://images.test/cat\(id)_q.jpg"))
            catFetcher.setStandingAnswer(.respond(ScriptedImageFetcher.jpeg(size: 300 + id, fill: 0x11)), for: url)
        }
        let first = try await run(cats, folder: directory.url, fetcher: catFetcher, name: "{index}", sidecars: false)
        #expect(first.tally.downloaded == 3)
        let catBytes = try Data(contentsOf: directory.url.appendingPathComponent("1.jpg"))

        let second = try await run(dogs, folder: directory.url, name: "{index}", sidecars: true)
        #expect(second.tally.downloaded == 3, "\(second.tally.summary(seconds: 1))")
        #expect(second.tally.kept == 0)
        #expect(imageNames(directory) == ["1 (2).jpg", "1.jpg", "2 (2).jpg", "2.jpg", "3 (2).jpg", "3.jpg"])
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("1.jpg")) == catBytes, "the cat is left alone")
        for index in 1...3 {
            let record = try sidecar(directory, "\(index) (2)")
            #expect(record["id"] as? String == "dog\(index)")
            #expect(record["file"] as? String == "\(index) (2).jpg")
        }
        #expect(!directory.allFiles().contains { $0.lastPathComponent == "1.json" }, "no sidecar calls a cat a dog")
        let credits = try String(contentsOf: directory.url.appendingPathComponent("CREDITS.md"), encoding: .utf8)
        #expect(!credits.contains("`1.jpg`"), "\(credits)")

        // And a third run of the dogs keeps them all, fetching nothing.
        let fetcher = ScriptedImageFetcher()
        let third = try await run(dogs, folder: directory.url, fetcher: fetcher, name: "{index}", sidecars: true)
        #expect(third.tally.kept == 3)
        #expect(fetcher.started.isEmpty)
    }

    @Test func twoUntitledPhotosWithoutSidecarsGetTwoFiles() async throws {
        let directory = try TemporaryDirectory()
        let lisbon = CollectionProvider(photos: Self.photos(["1"]) { _ in "Untitled" })
        let porto = CollectionProvider(photos: Self.photos(["2"]) { _ in "Untitled" })
        _ = try await run(lisbon, folder: directory.url, name: "{title}", sidecars: false)
        let second = try await run(porto, folder: directory.url, name: "{title}", sidecars: false)
        #expect(second.tally.downloaded == 1)
        #expect(imageNames(directory) == ["Untitled (2).jpg", "Untitled.jpg"])
        // Each run again finds its own.
        let again = ScriptedImageFetcher()
        #expect(try await run(lisbon, folder: directory.url, fetcher: again, name: "{title}", sidecars: false).tally.kept == 1)
        #expect(try await run(porto, folder: directory.url, fetcher: again, name: "{title}", sidecars: false).tally.kept == 1)
        #expect(again.started.isEmpty)
    }

    @Test func aFileThatIsNotTheBytesItsSidecarRecordedIsFetchedAgain() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(photos: Self.photos(["1", "2"]))
        let saved = ScriptedImageFetcher.jpeg(size: 300)
        let fetcher = ScriptedImageFetcher()
        for id in 1...2 { fetcher.setStandingAnswer(.respond(saved), for: try #require(URL(string: "http://images.test/\(id)_q.jpg"))) }
        _ = try await run(provider, folder: directory.url, fetcher: fetcher, name: "{title}", sidecars: true)
        // A whole image of another length, and one of the same length with other bytes.
        try ScriptedImageFetcher.jpeg(size: 500, fill: 0x77).write(to: directory.url.appendingPathComponent("1.jpg"))
        let same = ScriptedImageFetcher.jpeg(size: saved.count, fill: 0x55)
        #expect(same.count == saved.count && same != saved)
        try same.write(to: directory.url.appendingPathComponent("2.jpg"))

        let second = try await run(provider, folder: directory.url, fetcher: fetcher, name: "{title}", sidecars: true)
        #expect(second.tally.downloaded == 2, "\(second.tally.summary(seconds: 1))")
        for name in ["1", "2"] {
            let bytes = try Data(contentsOf: directory.url.appendingPathComponent("\(name).jpg"))
            #expect(bytes == saved)
            let record = try sidecar(directory, name)
            #expect(record["bytes"] as? Int == bytes.count)
            #expect(record["sha256"] as? String == SHA256.hex(bytes))
        }
    }

    @Test func aFileNoRecordAccountsForIsNotTakenForThePhoto() async throws {
        let directory = try TemporaryDirectory()
        // Put there by hand or by another tool: whole, but nobody says whose.
        try ScriptedImageFetcher.jpeg(size: 400, fill: 0x33).write(to: directory.url.appendingPathComponent("Harbour.jpg"))
        let provider = CollectionProvider(photos: Self.photos(["7"]) { _ in "Harbour" })
        let result = try await run(provider, folder: directory.url, name: "{title}", sidecars: false)
        #expect(result.tally.downloaded == 1)
        #expect(imageNames(directory) == ["Harbour (2).jpg", "Harbour.jpg"])
    }

    @Test func sha256MatchesTheStandardsExamples() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
