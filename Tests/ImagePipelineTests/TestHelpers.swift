import PhotoCore
import Networking
import Foundation
import Platform
import Sandbox
import TestSupport
@testable import ImagePipeline

/// Bytes that pass the pipeline's image check: JPEG signature and end marker.
func fakeJPEG(size: Int = 64, fill: UInt8 = 0x42) -> Data {
    ScriptedImageFetcher.jpeg(size: size, fill: fill)
}

func testURL(_ name: String) -> URL {
    URL(string: "http://images.test/\(name).jpg")!
}

/// How long a test waits for a condition before failing: a safety net, not
/// a measurement (tests wait for conditions, never for durations). As long
/// as `eventually`'s default: a busy CI machine can stall a test that long.
let patience: Duration = .seconds(90)

/// A manager over `fetcher` with quick retries and `concurrency` slots.
func makePipeline(
    _ fetcher: some ImageFetching, concurrency: Int = 6,
    configure: (inout ImagePipelineConfiguration) -> Void = { _ in }
) -> ImageDownloadManager {
    var configuration = ImagePipelineConfiguration()
    configuration.maxConcurrentDownloads = concurrency
    configuration.retryBaseDelay = .milliseconds(1)
    // Gated and stalled fetches are silent on purpose: slot counts stay
    // exact unless a test turns setting quiet transfers aside back on.
    configuration.quietTransferPeriod = nil
    configure(&configuration)
    return ImageDownloadManager(fetcher: fetcher, configuration: configuration)
}

/// A sandbox (500 photos) over loopback, a `NetworkManager` and a pipeline
/// with quick retries, torn down however the body ends.
func withSandboxPipeline(
    sandbox configureSandbox: (inout SandboxConfiguration) -> Void = { _ in },
    pipeline configurePipeline: (inout ImagePipelineConfiguration) -> Void = { _ in },
    _ body: (SandboxServer, NetworkManager, ImageDownloadManager) async throws -> Void
) async throws {
    try await withSandboxSession(photoCount: 500, configure: configureSandbox) { server, network in
        var configuration = ImagePipelineConfiguration()
        configuration.retryBaseDelay = .milliseconds(5)
        configuration.quietTransferPeriod = nil
        configurePipeline(&configuration)
        let pipeline = ImageDownloadManager(fetcher: network, configuration: configuration)
        defer { pipeline.cancelAll() }
        try await body(server, network, pipeline)
    }
}

/// The sandbox URL of catalog photo `index` at `size`.
func sandboxImageURL(_ server: SandboxServer, _ index: Int, _ size: SandboxImageSize = .q) -> URL {
    URL(string: server.baseURL.absoluteString + server.catalog.photo(at: index).imagePath(size))!
}

/// The image cache's entry layout, to write or read entries by hand.
enum CacheEntry {
    static func encode(url: String, data: Data) -> Data {
        ImageDiskCache.entry.encode(key: url, data: data)
    }

    static func decode(_ entry: Data) -> Result<(url: String, data: Data), DiskStoreEntry.Damage> {
        ImageDiskCache.entry.decode(entry).map { ($0.key, $0.data) }
    }
}
