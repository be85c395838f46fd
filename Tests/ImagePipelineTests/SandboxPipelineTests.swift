import PhotoCore
import Foundation
import Sandbox
import Testing
import TestSupport
@testable import ImagePipeline

/// The pipeline against the real sandbox over loopback HTTP, checked through
/// the sandbox's own counters and request log.
@Suite struct SandboxPipelineTests {
    private func imagePaths(_ server: SandboxServer) -> [String] {
        server.requestLog().filter { $0.kind == "image" }.map(\.path)
    }

    // MARK: - Coalescing and cancellation

    @Test func twoRequestersMakeOneImageRequest() async throws {
        try await withSandboxPipeline(sandbox: { $0.latency = .milliseconds(100) }) { server, _, pipeline in
            let url = sandboxImageURL(server, 1)
            // Back to back on this thread (`load` joins synchronously): two
            // tasks could start far enough apart for the second to find the
            // image already in memory.
            let first = ImageEventRecorder()
            let second = ImageEventRecorder()
            pipeline.load(url, priority: .normal, onEvent: first.handler)
            pipeline.load(url, priority: .normal, onEvent: second.handler)
            try await eventually(timeout: patience) { first.completion != nil && second.completion != nil }
            for recorder in [first, second] { #expect((try? recorder.completion?.get())?.format == .jpeg) }
            #expect(server.stats().imageRequests == 1)
            #expect(pipeline.statistics().coalesced == 1)
        }
    }

    @Test func cancellingOneOfTwoRequestersLetsTheTransferFinishForTheOther() async throws {
        // 1 KiB/s: the ~25 KB body takes ~25 s, so a busy machine has that
        // long to cancel while the body is still arriving.
        try await withSandboxPipeline(sandbox: { $0.throttleKBps = 1 }) { server, _, pipeline in
            let url = sandboxImageURL(server, 2, .l)
            let kept = ImageEventRecorder()
            let dropped = ImageEventRecorder()
            pipeline.load(url, priority: .normal, onEvent: kept.handler)
            let request = pipeline.load(url, priority: .normal, onEvent: dropped.handler)
            try await eventually(timeout: patience) { kept.receivedBytes > 0 }
            request.cancel()
            try await eventually(timeout: patience) { kept.completion != nil }
            #expect((try? kept.completion?.get())?.source == .network)
            #expect(dropped.completion == nil)
            let stats = server.stats()
            #expect(stats.imageRequests == 1)
            #expect(stats.abortedResponses == 0)
        }
    }

    @Test func cancellingBothRequestersAbortsTheTransferMidBody() async throws {
        // 1 KiB/s: still mid-body when the cancels come; the abort ends the test.
        try await withSandboxPipeline(sandbox: { $0.throttleKBps = 1 }) { server, _, pipeline in
            let url = sandboxImageURL(server, 3, .l)
            let first = ImageEventRecorder()
            let second = ImageEventRecorder()
            let one = pipeline.load(url, priority: .normal, onEvent: first.handler)
            let two = pipeline.load(url, priority: .high, onEvent: second.handler)
            try await eventually(timeout: patience) { first.receivedBytes > 0 }
            one.cancel()
            two.cancel()
            try await eventually(timeout: patience) { server.stats().abortedResponses == 1 }
            try await eventually(timeout: patience) { server.stats().inFlight == 0 }
            #expect(first.completion == nil && second.completion == nil)
            #expect(server.stats().imageRequests == 1)
            #expect(pipeline.cachedImage(for: url) == nil)
        }
    }

    @Test func cancelAllAbortsEveryTransferAndQueuedOnesNeverStart() async throws {
        // 1 KiB/s: both transfers still mid-body at `cancelAll`.
        try await withSandboxPipeline(
            sandbox: { $0.throttleKBps = 1 },
            pipeline: { $0.maxConcurrentDownloads = 2 }
        ) { server, _, pipeline in
            let recorders = (0..<6).map { _ in ImageEventRecorder() }
            for (index, recorder) in recorders.enumerated() {
                pipeline.load(sandboxImageURL(server, 10 + index, .l), priority: .normal, onEvent: recorder.handler)
            }
            try await eventually(timeout: patience) { recorders.prefix(2).allSatisfy { $0.receivedBytes > 0 } }
            pipeline.cancelAll()
            try await eventually(timeout: patience) { server.stats().abortedResponses == 2 }
            try await eventually(timeout: patience) { server.stats().inFlight == 0 }
            #expect(server.stats().imageRequests == 2)
        }
    }

    // MARK: - Priorities

    @Test func requestOrderAtTheSandboxFollowsPriorityWithOneSlot() async throws {
        try await withSandboxPipeline(
            sandbox: { $0.latency = .milliseconds(50) },
            pipeline: { $0.maxConcurrentDownloads = 1 }
        ) { server, _, pipeline in
            let first = ImageEventRecorder()
            pipeline.load(sandboxImageURL(server, 0), priority: .normal, onEvent: first.handler)
            let plan: [(Int, DownloadPriority)] = [(1, .low), (2, .normal), (3, .high), (4, .low), (5, .high), (6, .normal)]
            let recorders = plan.map { _ in ImageEventRecorder() }
            for ((index, priority), recorder) in zip(plan, recorders) {
                pipeline.load(sandboxImageURL(server, index), priority: priority, onEvent: recorder.handler)
            }
            try await eventually(timeout: patience) { (recorders + [first]).allSatisfy { $0.completion != nil } }
            let expected = [0, 3, 5, 2, 6, 1, 4].map { server.catalog.photo(at: $0).imagePath(.q) }
            #expect(imagePaths(server) == expected)
        }
    }

    @Test func raisingAQueuedRequestJumpsTheQueueAtTheSandbox() async throws {
        try await withSandboxPipeline(
            sandbox: { $0.latency = .milliseconds(50) },
            pipeline: { $0.maxConcurrentDownloads = 1 }
        ) { server, _, pipeline in
            let recorders = (0..<4).map { _ in ImageEventRecorder() }
            pipeline.load(sandboxImageURL(server, 0), priority: .normal, onEvent: recorders[0].handler)
            pipeline.load(sandboxImageURL(server, 1), priority: .low, onEvent: recorders[1].handler)
            pipeline.load(sandboxImageURL(server, 2), priority: .low, onEvent: recorders[2].handler)
            let last = pipeline.load(sandboxImageURL(server, 3), priority: .low, onEvent: recorders[3].handler)
            last.setPriority(.high)
            try await eventually(timeout: patience) { recorders.allSatisfy { $0.completion != nil } }
            let expected = [0, 3, 1, 2].map { server.catalog.photo(at: $0).imagePath(.q) }
            #expect(imagePaths(server) == expected)
        }
    }

    // MARK: - Retries and invalid bodies

    @Test func injected503IsRetriedThenSucceeds() async throws {
        try await withSandboxPipeline(sandbox: {
            $0.faults.rate = 1
            $0.faults.kind = .status
            $0.faults.status = 503
            $0.faults.times = 1
        }) { server, _, pipeline in
            let response = try await pipeline.image(for: sandboxImageURL(server, 4), priority: .normal)
            #expect(response.source == .network)
            #expect(server.stats().imageRequests == 2)
            #expect(pipeline.statistics().retries == 1)
        }
    }

    @Test func connectionResetIsRetriedThenSucceeds() async throws {
        try await withSandboxPipeline(sandbox: {
            $0.faults.rate = 1
            $0.faults.kind = .reset
            $0.faults.times = 1
        }) { server, _, pipeline in
            // The server closes after half the announced body: `.connectionLost`, retried.
            let response = try await pipeline.image(for: sandboxImageURL(server, 5), priority: .normal)
            #expect(response.format == .jpeg)
            #expect(server.stats().imageRequests == 2)
        }
    }

    @Test func notFoundIsNotRetried() async throws {
        try await withSandboxPipeline { server, _, pipeline in
            let url = URL(string: server.baseURL.absoluteString + "/1/0000_nosuch_q.jpg")!
            let result = await pipeline.loadResult(url)
            guard case .failure(.network(.httpStatus(404, _))) = result else {
                Issue.record("expected HTTP 404, got \(result)")
                return
            }
            #expect(server.stats().imageRequests == 1)
        }
    }

    @Test(arguments: [FaultConfiguration.Kind.truncate, .garbage])
    func brokenBodyIsAnInvalidImageAndNeverCached(kind: FaultConfiguration.Kind) async throws {
        let folder = try TemporaryDirectory()
        try await withSandboxPipeline(
            sandbox: {
                $0.faults.rate = 1
                $0.faults.kind = kind
            },
            pipeline: { $0.diskCacheDirectory = folder.url }
        ) { server, _, pipeline in
            let url = sandboxImageURL(server, 6)
            let result = await pipeline.loadResult(url)
            guard case .failure(.invalidImage) = result else {
                Issue.record("expected invalidImage, got \(result)")
                return
            }
            await pipeline.waitForPendingWrites()
            #expect(server.stats().imageRequests == 1, "invalid images are not retried")
            #expect(pipeline.cachedImage(for: url) == nil)
            #expect(pipeline.diskCache?.data(for: url) == nil)
            #expect(pipeline.statistics().failed == 1)
        }
    }

    // MARK: - Caches

    @Test func secondManagerOnTheSameDirectoryServesFromDiskWithoutRequests() async throws {
        let folder = try TemporaryDirectory()
        try await withSandboxPipeline(pipeline: { $0.diskCacheDirectory = folder.url }) { server, network, pipeline in
            let urls = (0..<5).map { sandboxImageURL(server, 20 + $0) }
            for url in urls { _ = try await pipeline.image(for: url, priority: .normal) }
            await pipeline.waitForPendingWrites()
            var configuration = ImagePipelineConfiguration()
            configuration.diskCacheDirectory = folder.url
            let fresh = ImageDownloadManager(fetcher: network, configuration: configuration)
            for url in urls {
                #expect(try await fresh.image(for: url, priority: .normal).source == .disk)
            }
            #expect(server.stats().imageRequests == 5)
            #expect(fresh.statistics().diskHits == 5)
        }
    }

    @Test(arguments: ["corrupt", "truncate"])
    func damagedDiskEntryIsDiscardedAndRefetched(damage: String) async throws {
        let folder = try TemporaryDirectory()
        try await withSandboxPipeline(pipeline: { $0.diskCacheDirectory = folder.url }) { server, network, pipeline in
            let url = sandboxImageURL(server, 30)
            let original = try await pipeline.image(for: url, priority: .normal)
            await pipeline.waitForPendingWrites()
            let file = try #require(pipeline.diskCache?.fileURL(for: url))
            var bytes = try Data(contentsOf: file)
            if damage == "corrupt" {
                bytes[bytes.count - 40] ^= 0x5A
            } else {
                bytes = bytes.prefix(bytes.count / 2)
            }
            try bytes.write(to: file)

            var configuration = ImagePipelineConfiguration()
            configuration.diskCacheDirectory = folder.url
            let fresh = ImageDownloadManager(fetcher: network, configuration: configuration)
            let response = try await fresh.image(for: url, priority: .normal)
            #expect(response.source == .network)
            #expect(response.data == original.data)
            #expect(server.stats().imageRequests == 2)
            await fresh.waitForPendingWrites()
            #expect(fresh.diskCache?.data(for: url) == original.data, "the re-fetched image replaced the damaged entry")
        }
    }

    @Test func twoManagersSharingOneCacheDirectoryNeverServeDamagedImages() async throws {
        let folder = try TemporaryDirectory()
        try await withSandboxPipeline(pipeline: { $0.diskCacheDirectory = folder.url }) { server, network, first in
            var configuration = ImagePipelineConfiguration()
            configuration.diskCacheDirectory = folder.url
            let second = ImageDownloadManager(fetcher: network, configuration: configuration)
            let urls = (0..<30).map { sandboxImageURL(server, 40 + $0) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for url in urls {
                    group.addTask { _ = try await first.image(for: url, priority: .normal) }
                    group.addTask { _ = try await second.image(for: url, priority: .normal) }
                }
                try await group.waitForAll()
            }
            await first.waitForPendingWrites()
            await second.waitForPendingWrites()
            let reader = ImageDiskCache(directory: folder.url, sizeLimit: 150 << 20)
            for url in urls {
                let data = try #require(reader.data(for: url))
                #expect(ImageFormat.sniff(data) == .jpeg)
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".img") }
            #expect(leftovers.isEmpty)
        }
    }

    @Test func memoryCacheKeepsOnlyTheMostRecentImagesWithinItsCountLimit() async throws {
        try await withSandboxPipeline(pipeline: { $0.memoryCountLimit = 3 }) { server, _, pipeline in
            let urls = (0..<5).map { sandboxImageURL(server, 80 + $0) }
            for url in urls { _ = try await pipeline.image(for: url, priority: .normal) }
            #expect(pipeline.memoryCache.urlsByRecency == urls.suffix(3).reversed())
            #expect(pipeline.cachedImage(for: urls[0]) == nil)
            #expect(pipeline.cachedImage(for: urls[4])?.source == .memory)
        }
    }
}
