import FlickrKit
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

@MainActor
@Suite struct ImageModelTests {
    private let photo = Photo(id: "1", owner: "o@N00", secret: "abc", server: "1", title: "t")

    @Test func goesFromQueuedToLoaded() async throws {
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        let model = ImageModel(number: 1, photo: photo, url: URL(string: "http://images.test/1.jpg"), pipeline: pipeline)
        var seen: [String] = []
        let token = model.state.observe { state in
            switch state {
            case .idle: seen.append("idle")
            case .queued: seen.append("queued")
            case .loading: seen.append("loading")
            case .loaded: seen.append("loaded")
            case .failed: seen.append("failed")
            case .cancelled: seen.append("cancelled")
            }
        }
        model.load(priority: .high)
        try await eventually("loaded") { model.state.value.isSettled }
        #expect(seen.first == "idle")
        #expect(seen.dropFirst().first == "queued")
        #expect(seen.last == "loaded")
        token.cancel()
    }

    @Test func aPhotoWithoutAnImageURLFailsAtOnce() {
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        let model = ImageModel(number: 1, photo: photo, url: nil, pipeline: pipeline)
        model.load(priority: .high)
        guard case .failed(let reason) = model.state.value else {
            Issue.record("expected failed")
            return
        }
        #expect(reason == "no image URL for this photo")
    }

    @Test func cancellingASettledCellDoesNothing() async throws {
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        let model = ImageModel(number: 1, photo: photo, url: URL(string: "http://images.test/2.jpg"), pipeline: pipeline)
        model.load(priority: .high)
        try await eventually("loaded") { model.state.value.isSettled }
        #expect(!model.cancel())
        if case .loaded = model.state.value {} else { Issue.record("a loaded cell must stay loaded") }
    }

    @Test func aSecondCellForTheSameURLIsServedFromMemory() async throws {
        let fetcher = ScriptedImageFetcher()
        let pipeline = ImageDownloadManager(fetcher: fetcher)
        let url = URL(string: "http://images.test/3.jpg")
        let first = ImageModel(number: 1, photo: photo, url: url, pipeline: pipeline)
        first.load(priority: .high)
        try await eventually("loaded") { first.state.value.isSettled }
        let second = ImageModel(number: 2, photo: photo, url: url, pipeline: pipeline)
        second.load(priority: .high)
        guard case .loaded(let image) = second.state.value else {
            Issue.record("expected an immediate memory hit")
            return
        }
        #expect(image.cacheKey == url?.absoluteString)
        #expect(fetcher.started.count == 1)
    }
}
