import PhotoCore
import Networking
import Foundation
import Sandbox
import Services
import Testing
import TestSupport
@testable import ImagePipeline

#if canImport(Glibc)
import Glibc
#endif

/// A writer killed with SIGKILL in the middle of filling the cache (the real
/// `flickr download`, in its own process) leaves nothing that would be served
/// damaged: every entry under its final name is whole, and so is every
/// downloaded file.
@Suite struct CrashSafetyTests {
    @Test func killedWriterLeavesOnlyWholeEntries() async throws {
        let flickr = try Binaries.flickr
        let home = try TemporaryDirectory()
        var configuration = SandboxConfiguration()
        configuration.photoCount = 3_000
        let server = try await SandboxServer.start(configuration)
        let network = NetworkManager()
        do {
            try await killWriter(flickr: flickr, home: home, server: server, network: network)
        } catch {
            await network.shutdown()
            await server.shutdown()
            throw error
        }
        await network.shutdown()
        await server.shutdown()
    }

    private func killWriter(
        flickr: String, home: TemporaryDirectory, server: SandboxServer, network: NetworkManager
    ) async throws {
        let cacheFolder = home.url.appendingPathComponent("flickr/images", isDirectory: true)
        let outFolder = home.url.appendingPathComponent("out", isDirectory: true)
        let process = try ProcessRunner.start(
            flickr,
            arguments: [
                "download", "sunset", "--pages", "20", "--per-page", "100", "--size", "z",
                "--out", outFolder.path, "--api-url", server.restURL.absoluteString,
            ],
            environment: ["XDG_CACHE_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"])

        func entries() -> [URL] {
            ((try? FileManager.default.contentsOfDirectory(at: cacheFolder, includingPropertiesForKeys: nil)) ?? [])
                .filter { $0.pathExtension == ImageDiskCache.fileExtension }
        }
        try await eventually(timeout: patience) { entries().count >= 30 || !process.isRunning }
        #expect(process.isRunning, "the child must still be writing when it is killed")
        process.send(signal: SIGKILL)
        #expect(try await process.finish().status == .signalled(SIGKILL))

        var urls: [URL] = []
        for file in entries() {
            let bytes = try Data(contentsOf: file)
            guard case .success(let entry) = CacheEntry.decode(bytes) else {
                Issue.record("damaged entry under its final name: \(file.lastPathComponent)")
                continue
            }
            urls.append(try #require(URL(string: entry.url)))
        }
        #expect(urls.count >= 30)
        for file in (try? FileManager.default.contentsOfDirectory(at: outFolder, includingPropertiesForKeys: nil)) ?? []
        where file.pathExtension == "jpg" {
            #expect((try? ImageFormat.validate(Data(contentsOf: file)).get()) == .jpeg, "\(file.lastPathComponent)")
        }

        // The next run serves those entries from disk, whole.
        var pipelineConfiguration = ImagePipelineConfiguration()
        pipelineConfiguration.diskCacheDirectory = cacheFolder
        let pipeline = ImageDownloadManager(fetcher: network, configuration: pipelineConfiguration)
        for url in urls {
            let response = try await pipeline.image(for: url, priority: .normal)
            #expect(response.source == .disk)
        }
        #expect(pipeline.statistics().diskHits == urls.count)
        #expect(pipeline.statistics().bytesDownloaded == 0)
    }
}
