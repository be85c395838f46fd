import Binding
import Dispatch
import PhotoCore
import Foundation
import ImagePipeline

/// Where one cell's image is in its life.
public enum ImageState: Sendable {
    case idle
    case queued
    case loading(received: Int, expected: Int?)
    case loaded(LoadedImage)
    case failed(String)
    case cancelled

    /// Loaded, failed or cancelled: nothing more will happen without a retry.
    public var isSettled: Bool {
        switch self {
        case .loaded, .failed, .cancelled: true
        case .idle, .queued, .loading: false
        }
    }

    /// Queued or loading.
    public var isPending: Bool {
        switch self {
        case .queued, .loading: true
        case .idle, .loaded, .failed, .cancelled: false
        }
    }
}

/// Where a cell's title and owner lead, as the service says: the view
/// makes them hyperlinks where the terminal can follow them.
public struct CellLinks: Sendable, Equatable {
    /// The photo's page (for an album row, the album's).
    public var page: URL?
    /// The owner's photostream.
    public var owner: URL?

    public init(page: URL? = nil, owner: URL? = nil) {
        self.page = page
        self.owner = owner
    }
}

/// One result cell: what the view shows of a photo, and the state of its
/// image download. Only this model changes its state; the view reads it.
///
/// The state machine is `idle → queued → loading → loaded | failed | cancelled`;
/// `retry()` takes a failed or cancelled cell back to `queued`. Events from a
/// request that was cancelled or replaced are ignored, so a cancelled cell
/// never changes state late.
@MainActor
public final class ImageModel {
    /// The result number, 1-based over the session's results.
    public let number: Int
    let photo: Photo
    /// The image this cell shows (a thumbnail in the grid, a large image in detail).
    let url: URL?
    /// Where the title and owner lead (unsanitised: the view checks them).
    public let links: CellLinks
    private let stateSource = MutableObservable<ImageState>(.idle)
    public var state: Observable<ImageState> { stateSource }
    /// When the state last changed: a transfer quiet since then has
    /// stalled, however long ago a row began waiting for it.
    public private(set) var stateChangedAt = ContinuousClock.now
    private var stateToken: ObservationToken?
    public private(set) var priority: DownloadPriority = .normal
    /// False when the view draws no picture for this cell (`--images none`,
    /// a list without pictures): `load` then fetches nothing and the cell
    /// stays idle. An opened photo's large image is always fetched.
    public let fetchesImage: Bool

    /// The photo's title as the service sent it (may be empty, may hold any
    /// Unicode: the view sanitises it).
    public var title: String { photo.title }
    /// The owner's name when the service gave one, else their id.
    public var owner: String { photo.ownerName ?? photo.owner }
    public var ownerID: String { photo.owner }
    /// The service's id of the photo.
    public var photoID: String { photo.id }
    public var dateTaken: String? { photo.dateTaken }
    /// Width over height of the photo, when the service said; the view
    /// reserves the cell's space from it before the bytes arrive.
    public var aspectRatio: Double? { photo.aspectRatio }
    /// A video: the picture is its poster frame.
    public var isVideo: Bool { photo.isVideo }
    /// Seen by fewer than everyone (the grid marks it with a lock).
    public var isRestricted: Bool { photo.visibility?.isRestricted ?? false }
    /// `public`, `friends`, `family`, `friends-family` or `private`, when the service says.
    public var visibilityName: String? { photo.visibility?.name }

    private let pipeline: ImageDownloadManager
    private var request: ImageRequest?
    /// Bumped whenever the current request is dropped; stale events carry an old value.
    private var generation = 0

    public init(
        number: Int, photo: Photo, url: URL?, pipeline: ImageDownloadManager, links: CellLinks = CellLinks(),
        fetchesImage: Bool = true
    ) {
        self.number = number
        self.fetchesImage = fetchesImage
        self.photo = photo
        self.url = url
        self.links = links
        self.pipeline = pipeline
        stateToken = stateSource.observeChanges { [weak self] _ in self?.stateChangedAt = ContinuousClock.now }
    }

    /// Starts (or re-prioritises) the download. Does nothing once loaded,
    /// nor for a cell whose picture is not drawn.
    public func load(priority: DownloadPriority) {
        self.priority = priority
        guard fetchesImage else { return }
        switch state.value {
        case .loaded, .failed, .cancelled:
            return
        case .queued, .loading:
            request?.setPriority(priority)
            return
        case .idle:
            break
        }
        guard let url else {
            stateSource.value = .failed("no image URL for this photo")
            return
        }
        if let cached = pipeline.cachedImage(for: url) {
            stateSource.value = .loaded(LoadedImage(cached))
            return
        }
        generation += 1
        let expected = generation
        stateSource.value = .queued
        request = pipeline.load(url, priority: priority) { [weak self] event in
            // The main queue keeps events in order (progress before completion).
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.handle(event, generation: expected) }
            }
        }
    }

    /// Changes the download's priority while it is queued or running.
    public func setPriority(_ priority: DownloadPriority) {
        self.priority = priority
        request?.setPriority(priority)
    }

    /// Cancels a pending download. Returns whether there was one.
    @discardableResult
    public func cancel() -> Bool {
        guard state.value.isPending else { return false }
        request?.cancel()
        request = nil
        generation += 1
        stateSource.value = .cancelled
        return true
    }

    /// Starts again after a failure or cancellation. Returns whether it did.
    @discardableResult
    public func retry(priority: DownloadPriority = .high) -> Bool {
        switch state.value {
        case .failed, .cancelled:
            stateSource.value = .idle
            load(priority: priority)
            return true
        default:
            return false
        }
    }

    /// Returns once the cell has loaded, failed or been cancelled, or once
    /// the waiting task is cancelled (a waiter never outlives its reason).
    public func settled() async {
        guard !state.value.isSettled else { return }
        let signal = OnceSignal()
        let token = state.observeChanges { state in
            if state.isSettled { signal.fire() }
        }
        await signal.wait()
        token.cancel()
    }

    private func handle(_ event: ImageLoadEvent, generation: Int) {
        guard generation == self.generation else { return }
        switch event {
        case .progress(let received, let expected):
            stateSource.value = .loading(received: received, expected: expected)
        case .completed(.success(let response)):
            request = nil
            stateSource.value = .loaded(LoadedImage(response))
        case .completed(.failure(.cancelled)):
            request = nil
            stateSource.value = .cancelled
        case .completed(.failure(let error)):
            request = nil
            stateSource.value = .failed(error.description)
        }
    }
}

extension LoadedImage {
    init(_ response: ImageResponse) {
        self.init(data: response.data, cacheKey: response.url.absoluteString)
    }
}
