import PhotoCore
import Networking
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import Sandbox
import TestSupport
import Testing
import FlickrService

/// A row waits for its cells, but not for a transfer that stalled after its
/// headers: that cell is left pending (and redrawn later) and the row goes out.
@MainActor
@Suite struct StalledRowTests {
    private let photo = Photo(id: "1", owner: "o@N00", secret: "abc", server: "1", title: "t")

    @Test func aRowStopsWaitingForACellWhoseTransferStalled() async throws {
        var network = NetworkManager.Configuration()
        network.idleTimeout = .seconds(300)
        try await withSandboxSession(photoCount: 50, network: network, configure: {
            $0.faults.rate = 1
            $0.faults.kind = .stall
            $0.faults.scope = .images
        }) { server, network in
            let pipeline = ImageDownloadManager(fetcher: network)
            defer { pipeline.cancelAll() }
            let path = server.catalog.photo(at: 0).imagePath(.q)
            let cell = ImageModel(
                number: 1, photo: photo, url: URL(string: server.baseURL.absoluteString + path), pipeline: pipeline)
            cell.load(priority: .high)
            try await eventually("the headers arrived") {
                if case .loading = cell.state.value { true } else { false }
            }

            // The page's own patience is far away: only the stalled cell can end the wait.
            let outcome = Outcome()
            let wait = Task { @MainActor in
                outcome.late = await ImageModel.settle(
                    [cell], watching: [cell], orQuietFor: .seconds(3_600), stalledAfter: .milliseconds(100))
            }
            defer { wait.cancel() }
            try await eventually("the row stopped waiting") { outcome.late != nil }
            #expect(outcome.late?.map(\.number) == [1])
            #expect(!cell.state.value.isSettled, "the stalled cell is still loading")
        }
    }

    /// What the waiting task returned, once it returned.
    @MainActor private final class Outcome {
        var late: [ImageModel]?
    }
}
