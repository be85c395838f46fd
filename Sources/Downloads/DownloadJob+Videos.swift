import PhotoCore
import Foundation
import ImagePipeline
import NIOConcurrencyHelpers

/// Videos: left out unless asked for, else fetched one at a time beside the
/// images, which keep their transfer slots.
extension DownloadJob {
    /// Skipped unless asked for; kept when a whole file is there; else queued.
    func queue(video photo: Photo, named name: String) {
        guard request.videos else {
            record(.videoSkipped)
            return
        }
        if keep(photo, named: name) { return }
        state.withLockedValue { state in
            state.tally.outstanding += 1
            state.pendingVideos += 1
        }
        queueVideo.yield((photo, name))
    }

    /// One video at a time: they are large, and the images keep their slots.
    func fetchVideos() async {
        for await (photo, name) in videoQueue {
            let outcome = await fetchVideo(photo, named: name)
            state.withLockedValue { $0.pendingVideos -= 1 }
            record(outcome)
            wake.yield()
        }
    }

    private func fetchVideo(_ photo: Photo, named name: String) async -> DownloadOutcome {
        guard !isCancelled else { return .cancelled }
        guard let videoFetcher else { return .failed("\(name): videos cannot be fetched here") }
        let url: URL?
        do {
            url = try await provider.capabilities.videos.available?.videoURL(for: photo)
        } catch {
            return isCancelled ? .cancelled : .failed("\(name): \(userMessage(for: error))")
        }
        guard let url else { return .failed("\(name): \(provider.displayName) offers no video file for it") }
        let data: Data
        do {
            data = try await videoFetcher.fetch(url) { _, _ in }
        } catch {
            return isCancelled ? .cancelled : .failed("\(name): \(userMessage(for: error))")
        }
        do {
            try save(data, for: photo, baseName: name, file: "\(name).\(VideoFile.fileExtension(for: data))")
        } catch {
            return .failed("\(name): \(userMessage(for: error))")
        }
        return .downloaded(bytes: data.count, fromCache: false)
    }
}
