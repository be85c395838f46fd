import PhotoCore
import Foundation
import Networking
@testable import ImagePipeline
@testable import Sandbox
import Testing
import TestSupport

/// Every transfer the pipeline runs is on the wire: it never hands the HTTP
/// client more requests than the client has connections. A request left
/// waiting inside the client is out of the pipeline's reach: when `/cancel`
/// aborts the transfers ahead of it, their connections close and the client
/// can start it before its own cancel arrives, so an image request reaches
/// the server after everything was cancelled.
@Suite struct TransportQueueTests {
    @Test func setAsideTransfersNeverOutnumberTheConnections() async throws {
        var faults = FaultConfiguration()
        faults.rate = 1
        faults.kind = .stall
        faults.scope = .images
        var network = NetworkManager.Configuration()
        network.connectionsPerHost = 3
        // Stalled transfers stay open for the whole test.
        network.idleTimeout = .seconds(300)
        try await withSandboxSession(photoCount: 200, network: network, configure: { $0.faults = faults }) { server, network in
            var configuration = ImagePipelineConfiguration()
            configuration.maxConcurrentDownloads = 3
            // Quiet transfers are set aside fast: without the cap, three
            // more would start at once and wait inside the client.
            configuration.quietTransferPeriod = .milliseconds(50)
            let pipeline = ImageDownloadManager(fetcher: network, configuration: configuration)
            for index in 0..<10 { pipeline.load(sandboxImageURL(server, index), priority: .normal) { _ in } }

            try await eventually(timeout: patience) { server.stats().inFlight == 3 }
            // Ten quiet periods: time enough to set transfers aside and start others.
            try await Task.sleep(for: .milliseconds(500))
            #expect(pipeline.statistics().running == 3, "the pipeline runs no more transfers than there are connections")
            #expect(server.stats().inFlight == pipeline.statistics().running)

            pipeline.cancelAll()
            try await eventually(timeout: patience) { server.stats().inFlight == 0 }
            try await Task.sleep(for: .milliseconds(500))
            let stats = server.stats()
            #expect(stats.imageRequests == 3, "no image request reached the server after the cancel: \(stats)")
        }
    }
}
