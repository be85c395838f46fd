import FlickrKit
import Foundation
import Synchronization
import Testing
@testable import ImagePipeline

/// Bytes that pass the pipeline's image check: JPEG signature and end marker.
func fakeJPEG(size: Int = 64, fill: UInt8 = 0x42) -> Data {
    var data = Data([0xFF, 0xD8, 0xFF, 0xE0])
    data.append(Data(repeating: fill, count: max(0, size - 6)))
    data.append(contentsOf: [0xFF, 0xD9])
    return data
}

func testURL(_ name: String) -> URL {
    URL(string: "http://images.test/\(name).jpg")!
}

/// Polls `condition` until it holds; fails the test after `timeout`.
/// A safety net only: tests wait for conditions, never for durations.
func waitUntil(
    _ what: String,
    timeout: Duration = .seconds(20),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try? await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
}

/// Collects the events one request receives.
final class EventRecorder: Sendable {
    private let events = Mutex<[ImageLoadEvent]>([])

    var handler: @Sendable (ImageLoadEvent) -> Void {
        { [self] event in events.withLock { $0.append(event) } }
    }

    var all: [ImageLoadEvent] { events.withLock { $0 } }

    var completion: Result<ImageResponse, ImageLoadError>? {
        for event in all.reversed() {
            if case .completed(let result) = event { return result }
        }
        return nil
    }

    var completionCount: Int {
        all.count { if case .completed = $0 { true } else { false } }
    }

    var receivedBytes: Int {
        all.reduce(0) { latest, event in
            if case .progress(let received, _) = event { return max(latest, received) }
            return latest
        }
    }
}

/// An in-memory fetcher whose transfers start when the pipeline asks and
/// finish only when the test releases them, so the order in which the
/// pipeline starts transfers can be observed without timing. Honest about
/// cancellation: a cancelled fetch ends at once with `.cancelled`.
final class GatedFetcher: ImageFetching {
    private struct State {
        var started: [URL] = []
        var cancelled: [URL] = []
        var gates: [URL: CheckedContinuation<Void, Never>] = [:]
        var released: Set<URL> = []
        var results: [URL: Result<Data, NetworkError>] = [:]
    }

    private let state = Mutex(State())

    /// URLs in the order their transfers started.
    var started: [URL] { state.withLock { $0.started } }
    var cancelled: [URL] { state.withLock { $0.cancelled } }

    /// What `url` returns when released (a valid JPEG unless set).
    func setResult(_ result: Result<Data, NetworkError>, for url: URL) {
        state.withLock { $0.results[url] = result }
    }

    /// Lets the transfer of `url` finish (now, or as soon as it starts).
    func release(_ url: URL) {
        let gate = state.withLock { state in
            state.released.insert(url)
            return state.gates.removeValue(forKey: url)
        }
        gate?.resume()
    }

    func fetch(_ url: URL, progress: @escaping @Sendable (Int, Int?) -> Void) async throws(NetworkError) -> Data {
        state.withLock { $0.started.append(url) }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let open = state.withLock { state in
                    if state.released.contains(url) || Task.isCancelled { return true }
                    state.gates[url] = continuation
                    return false
                }
                if open { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.gates.removeValue(forKey: url) }?.resume()
        }
        if Task.isCancelled {
            state.withLock { $0.cancelled.append(url) }
            throw .cancelled
        }
        let result = state.withLock { $0.results[url] } ?? .success(fakeJPEG())
        let data = try result.get()
        progress(data.count, data.count)
        return data
    }
}

/// A fetcher that answers at once with a scripted sequence of results per URL.
final class ScriptedFetcher: ImageFetching {
    private let scripts: Mutex<[URL: [Result<Data, NetworkError>]]>
    private let counts = Mutex<[URL: Int]>([:])

    init(_ scripts: [URL: [Result<Data, NetworkError>]]) {
        self.scripts = Mutex(scripts)
    }

    func requests(for url: URL) -> Int { counts.withLock { $0[url, default: 0] } }

    func fetch(_ url: URL, progress: @escaping @Sendable (Int, Int?) -> Void) async throws(NetworkError) -> Data {
        counts.withLock { $0[url, default: 0] += 1 }
        let next = scripts.withLock { scripts -> Result<Data, NetworkError> in
            guard var script = scripts[url], !script.isEmpty else { return .success(fakeJPEG()) }
            let first = script.removeFirst()
            scripts[url] = script
            return first
        }
        return try next.get()
    }
}

extension ImageDownloadManager {
    /// `image(for:priority:)` as a value, for tests that expect failures.
    func loadResult(_ url: URL, priority: DownloadPriority = .normal) async -> Result<ImageResponse, ImageLoadError> {
        do {
            return .success(try await image(for: url, priority: priority))
        } catch {
            return .failure(error)
        }
    }
}
