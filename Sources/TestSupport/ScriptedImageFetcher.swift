import PhotoCore
import Networking
import Foundation
import ImagePipeline
import NIOConcurrencyHelpers

/// An in-memory `ImageFetching` for tests: each URL answers from a script,
/// then from a standing answer (a small valid JPEG unless set).
///
/// Honest about cancellation, like the network: a fetch that is waiting
/// (gated or stalled) ends at once with `.cancelled` when its task is
/// cancelled, and is recorded in `cancelled`.
///
/// Gated (`init(gated: true)`): every fetch waits for `release(url)` or
/// `releaseAll()` before it answers, so a test can see which transfers the
/// pipeline started, and in what order, without timing.
public final class ScriptedImageFetcher: ImageFetching {
    public enum Step: Sendable {
        /// Answers with these bytes, reporting them as progress first.
        case respond(Data)
        case fail(NetworkError)
        /// Never answers: a server that stopped sending. Only cancelling ends it.
        case stall
        /// Stops sending, then fails with `error` after `idle`, the way the
        /// real fetcher's idle timeout ends a stalled transfer.
        case stallThenFail(idle: Duration, error: NetworkError)
    }

    private struct State {
        var gated: Bool
        var scripts: [URL: [Step]] = [:]
        var standing: [URL: Step] = [:]
        var released: Set<URL> = []
        var waiters: [Int: (url: URL, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextWaiter = 0
        var started: [URL] = []
        var cancelled: [URL] = []
        var inFlight = 0
        var peakInFlight = 0
    }

    private let state: NIOLockedValueBox<State>

    public init(gated: Bool = false) {
        state = NIOLockedValueBox(State(gated: gated))
    }

    /// A small real JPEG (it passes the whole-image check), `size` bytes
    /// long when that is over `TinyJPEG.minimumSize`.
    public static func jpeg(size: Int = 64, fill: UInt8 = 0x42) -> Data {
        TinyJPEG.make(size: size, fill: fill)
    }

    // MARK: - Scripting

    /// The answers to the next fetches of `url`, one step each, in order.
    public func script(_ url: URL, _ steps: [Step]) {
        state.withLockedValue { $0.scripts[url, default: []].append(contentsOf: steps) }
    }

    /// The answer to every fetch of `url` once its script is used up.
    public func setStandingAnswer(_ step: Step, for url: URL) {
        state.withLockedValue { $0.standing[url] = step }
    }

    /// Every later fetch of `url` fails with `error`, until `heal(url)`.
    public func fail(_ url: URL, with error: NetworkError) {
        setStandingAnswer(.fail(error), for: url)
    }

    /// `url` answers with a valid JPEG again.
    public func heal(_ url: URL) {
        state.withLockedValue { _ = $0.standing.removeValue(forKey: url) }
    }

    /// Lets fetches of `url` answer: those waiting now and any later ones.
    public func release(_ url: URL) {
        let waiting = state.withLockedValue { state in
            state.released.insert(url)
            let keys = state.waiters.filter { $0.value.url == url }.map(\.key)
            return keys.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Ends gating: every fetch, waiting or later, answers at once.
    public func releaseAll() {
        let waiting = state.withLockedValue { state in
            state.gated = false
            defer { state.waiters.removeAll() }
            return state.waiters.values.map(\.continuation)
        }
        for continuation in waiting { continuation.resume() }
    }

    // MARK: - Observing

    /// URLs in the order their fetches started (one entry per attempt).
    public var started: [URL] { state.withLockedValue { $0.started } }
    /// URLs whose fetches ended because their task was cancelled.
    public var cancelled: [URL] { state.withLockedValue { $0.cancelled } }
    /// Fetches under way now, and the most there ever were at once.
    public var inFlight: Int { state.withLockedValue { $0.inFlight } }
    public var peakInFlight: Int { state.withLockedValue { $0.peakInFlight } }

    /// How many fetches of `url` started.
    public func requests(for url: URL) -> Int {
        state.withLockedValue { $0.started.count { $0 == url } }
    }

    // MARK: - ImageFetching

    public func fetch(_ url: URL, progress: @escaping @Sendable (Int, Int?) -> Void) async throws(NetworkError) -> Data {
        let (step, gated) = state.withLockedValue { state -> (Step, Bool) in
            state.started.append(url)
            state.inFlight += 1
            state.peakInFlight = max(state.peakInFlight, state.inFlight)
            var step = state.standing[url] ?? .respond(Self.jpeg())
            if var script = state.scripts[url], !script.isEmpty {
                step = script.removeFirst()
                state.scripts[url] = script
            }
            return (step, state.gated && !state.released.contains(url))
        }
        defer { state.withLockedValue { $0.inFlight -= 1 } }

        switch step {
        case .stall:
            await waitUntilCancelled(url)
        case .stallThenFail(let idle, let error):
            do {
                try await Task.sleep(for: idle)
            } catch {
                return try cancelledFetch(url)
            }
            throw error
        case .respond, .fail:
            if gated { await waitForRelease(url) }
        }
        if Task.isCancelled { return try cancelledFetch(url) }
        switch step {
        case .respond(let data):
            progress(data.count, data.count)
            return data
        case .fail(let error):
            throw error
        case .stall, .stallThenFail:
            return try cancelledFetch(url)
        }
    }

    private func cancelledFetch(_ url: URL) throws(NetworkError) -> Data {
        state.withLockedValue { $0.cancelled.append(url) }
        throw .cancelled
    }

    /// Suspends until `release` lets `url` through or the task is cancelled.
    private func waitForRelease(_ url: URL) async {
        await suspend(url) { state in !state.gated || state.released.contains(url) }
    }

    private func waitUntilCancelled(_ url: URL) async {
        await suspend(url) { _ in false }
    }

    private func suspend(_ url: URL, unless open: (State) -> Bool) async {
        let key = state.withLockedValue { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { state in
                    if open(state) || Task.isCancelled { return true }
                    state.waiters[key] = (url, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.waiters.removeValue(forKey: key) }?.continuation.resume()
        }
    }
}

/// Collects the events one request receives.
public final class ImageEventRecorder: Sendable {
    private let events = NIOLockedValueBox<[ImageLoadEvent]>([])

    public init() {}

    public var handler: @Sendable (ImageLoadEvent) -> Void {
        { [self] event in events.withLockedValue { $0.append(event) } }
    }

    public var all: [ImageLoadEvent] { events.withLockedValue { $0 } }

    /// The result of the last `.completed` event, if any arrived.
    public var completion: Result<ImageResponse, ImageLoadError>? {
        for event in all.reversed() {
            if case .completed(let result) = event { return result }
        }
        return nil
    }

    public var completionCount: Int {
        all.count { if case .completed = $0 { true } else { false } }
    }

    /// The most bytes any progress event reported.
    public var receivedBytes: Int {
        all.reduce(0) { latest, event in
            if case .progress(let received, _) = event { return max(latest, received) }
            return latest
        }
    }
}

extension ImageDownloadManager {
    /// `image(for:priority:)` as a value, for tests that expect failures.
    public func loadResult(_ url: URL, priority: DownloadPriority = .normal) async -> Result<ImageResponse, ImageLoadError> {
        do {
            return .success(try await image(for: url, priority: priority))
        } catch {
            return .failure(error)
        }
    }
}
