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
        let job = DownloadJob(
            request: .init(
                source: .collection(provider.album), pages: 2, perPage: 4, size: .square150, folder: folder, concurrency: 2,
                sidecars: true, name: try FileNameTemplate("{index}")),
            provider: provider, pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()),
            reporter: DownloadResumeTests.TallyReporter())
        return await job.run()
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

        let renamed = try await run(CollectionProvider(titles: ["Azulejo", "Tile 2"]), into: directory.url)
        #expect(renamed.tally.kept == 2)
        let json = try String(contentsOf: directory.url.appendingPathComponent("1.json"), encoding: .utf8)
        let xmp = try String(contentsOf: directory.url.appendingPathComponent("1.xmp"), encoding: .utf8)
        let credits = try String(contentsOf: directory.url.appendingPathComponent("CREDITS.md"), encoding: .utf8)
        #expect(json.contains("Azulejo") && xmp.contains("Azulejo") && credits.contains("Azulejo"))
        #expect(!credits.contains("Tile 1"))
        // The file was fetched on the first run; the sidecar still says so.
        #expect(try Self.retrieved(directory.url.appendingPathComponent("1.json")) == retrieved)
    }

    private static func retrieved(_ sidecar: URL) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: sidecar)) as? [String: Any]
        return try #require(object?["retrieved"] as? String)
    }
}
