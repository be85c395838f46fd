import PhotoCore
@testable import Downloads
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// The same download run again into the same folder: what is there already
/// is checked, not written again.
@Suite struct DownloadRerunTests {
    private func run(_ provider: CollectionProvider, into folder: URL) async throws -> DownloadJob.Result {
        try await runCounting(provider, into: folder).result
    }

    /// The run's result, and how many sidecars and CREDITS.md files it built.
    private func runCounting(_ provider: CollectionProvider, into folder: URL) async throws -> (result: DownloadJob.Result, built: Int) {
        let job = DownloadJob(
            request: .init(
                source: .collection(provider.album), pages: 2, perPage: 4, size: .square150, folder: folder, concurrency: 2,
                sidecars: true, name: try FileNameTemplate("{index}")),
            provider: provider, pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()),
            reporter: DownloadResumeTests.TallyReporter())
        let result = await job.run()
        return (result, job.creditFilesBuilt)
    }

    /// Each file's identity on disk: an atomic write gives it a new one.
    private func identities(in directory: TemporaryDirectory) throws -> [String: Int] {
        var identities: [String: Int] = [:]
        for file in directory.allFiles() {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            identities[file.lastPathComponent] = try #require(attributes[.systemFileNumber] as? Int)
        }
        return identities
    }

    @Test func aSecondRunOverACompleteFolderWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: (1...8).map { "Tile \($0)" })
        let first = try await run(provider, into: directory.url)
        #expect(first.tally.downloaded == 8)
        let before = try identities(in: directory)
        #expect(before.keys.contains("CREDITS.md") && before.keys.contains(DownloadManifest.fileName) && before.keys.contains("1.xmp"))

        let second = try await run(provider, into: directory.url)
        #expect(second.tally.kept == 8 && second.tally.downloaded == 0)
        let after = try identities(in: directory)
        #expect(after == before, "rewritten: \(after.filter { before[$0.key] != $0.value }.keys.sorted())")
    }

    @Test func aKeptFileWhoseWorkChangedGetsNewSidecarsAndCredits() async throws {
        let directory = try TemporaryDirectory()
        _ = try await run(CollectionProvider(titles: ["Tile 1", "Tile 2"]), into: directory.url)
        let retrieved = try Self.retrieved(directory.url.appendingPathComponent("1.json"))

        let renamed = try await runCounting(CollectionProvider(titles: ["Azulejo", "Tile 2"]), into: directory.url)
        #expect(renamed.result.tally.kept == 2)
        #expect(renamed.built == 3, "work 1's two sidecars and CREDITS.md, not work 2's")
        let json = try String(contentsOf: directory.url.appendingPathComponent("1.json"), encoding: .utf8)
        let xmp = try String(contentsOf: directory.url.appendingPathComponent("1.xmp"), encoding: .utf8)
        let credits = try String(contentsOf: directory.url.appendingPathComponent("CREDITS.md"), encoding: .utf8)
        #expect(json.contains("Azulejo") && xmp.contains("Azulejo") && credits.contains("Azulejo"))
        #expect(!credits.contains("Tile 1"))
        // The file was fetched on the first run; the sidecar still says so.
        #expect(try Self.retrieved(directory.url.appendingPathComponent("1.json")) == retrieved)
    }

    @Test func aRerunOverUnchangedWorksBuildsNoSidecarNorCredits() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: (1...8).map { "Tile \($0)" })
        let first = try await runCounting(provider, into: directory.url)
        #expect(first.built == 17, "8 JSON, 8 XMP and CREDITS.md")

        let second = try await runCounting(provider, into: directory.url)
        #expect(second.result.tally.kept == 8)
        #expect(second.built == 0)
    }

    @Test func sidecarsAndCreditsEditedOrRemovedByThePersonAreRestored() async throws {
        let directory = try TemporaryDirectory()
        let provider = CollectionProvider(titles: (1...8).map { "Tile \($0)" })
        _ = try await run(provider, into: directory.url)
        let file = { (name: String) in directory.url.appendingPathComponent(name) }
        let json = try Data(contentsOf: file("1.json"))
        let xmp = try Data(contentsOf: file("2.xmp"))
        let credits = try Data(contentsOf: file("CREDITS.md"))
        // The same length, and a time of its own: only the time tells.
        let edited = try #require(String(decoding: json, as: UTF8.self).replacing("Tile 1", with: "Tile X", maxReplacements: 1).data(using: .utf8))
        #expect(edited.count == json.count && edited != json)
        try edited.write(to: file("1.json"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: file("1.json").path)
        try FileManager.default.removeItem(at: file("2.xmp"))
        try Data("# Credits\n".utf8).write(to: file("CREDITS.md"))

        let second = try await runCounting(provider, into: directory.url)
        #expect(second.result.tally.kept == 8)
        #expect(try Data(contentsOf: file("1.json")) == json)
        #expect(try Data(contentsOf: file("2.xmp")) == xmp)
        #expect(try Data(contentsOf: file("CREDITS.md")) == credits)
        #expect(second.built == 5, "the sidecars of works 1 and 2, and CREDITS.md; no other")
    }

    @Test func aManifestOfAnEarlierVersionFallsBackToTheFullCheck() async throws {
        let directory = try TemporaryDirectory()
        _ = try await run(CollectionProvider(titles: ["Tile 1", "Tile 2"]), into: directory.url)
        // As versions before the sidecars' stamps wrote it.
        let manifestURL = directory.url.appendingPathComponent(DownloadManifest.fileName)
        var manifest = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var files = try #require(manifest["files"] as? [String: [String: Any]])
        #expect(manifest["credits"] != nil && files["1"]?["sidecars"] != nil)
        for name in files.keys { files[name]?["sidecars"] = nil }
        manifest["files"] = files
        manifest["credits"] = nil
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        let unchanged = try Data(contentsOf: directory.url.appendingPathComponent("2.json"))

        let renamed = CollectionProvider(titles: ["Azulejo", "Tile 2"])
        let second = try await runCounting(renamed, into: directory.url)
        #expect(second.result.tally.kept == 2)
        #expect(second.built == 5, "every sidecar checked in full, and CREDITS.md")
        let json = try String(contentsOf: directory.url.appendingPathComponent("1.json"), encoding: .utf8)
        let credits = try String(contentsOf: directory.url.appendingPathComponent("CREDITS.md"), encoding: .utf8)
        #expect(json.contains("Azulejo") && credits.contains("Azulejo"))
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("2.json")) == unchanged)

        // That run recorded the stamps: the next one builds nothing.
        let third = try await runCounting(renamed, into: directory.url)
        #expect(third.built == 0)
    }

    private static func retrieved(_ sidecar: URL) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: sidecar)) as? [String: Any]
        return try #require(object?["retrieved"] as? String)
    }
}
