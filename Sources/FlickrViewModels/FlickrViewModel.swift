import Binding
import Dispatch
import FlickrKit
import Foundation
import ImagePipeline

/// What the results are of.
public enum ResultQuery: Codable, Sendable, Equatable, CustomStringConvertible {
    case search(String)
    case recent

    public var description: String {
        switch self {
        case .search(let text): "“\(text)”"
        case .recent: "recent photos"
        }
    }
}

/// One loaded page of results, as the view shows it.
public struct ResultPage {
    public let number: Int
    /// Pages the service reports for the query, and the last one it will serve.
    public let pages: Int
    public let lastServedPage: Int
    public let total: Int
    public let cells: [ImageModel]
    /// Shown from the saved session rather than fetched in this run.
    public let restored: Bool
}

/// A line for the person: what happened that is not a page of results.
public enum Notice: Sendable, Equatable {
    case info(String)
    case warning(String)
    case error(String)
}

/// Whether a page request is under way.
public enum Activity: Sendable, Equatable {
    case idle
    case loading(ResultQuery, page: Int)
}

/// The screen's state and commands: a query, its loaded pages, and one
/// `ImageModel` per result.
///
/// Pages are appended as they arrive (endless scrolling). Only the newest
/// page's thumbnails download at high priority; once they are in, the next
/// page is fetched ahead at low priority so Enter shows it at once. A new
/// query, or `cancel()`, stops everything pending.
@MainActor
public final class FlickrViewModel {
    public let query = Observable<ResultQuery?>(nil)
    /// Loaded pages of the current query; replaced by a new query, appended to by paging.
    public let pages = Observable<[ResultPage]>([])
    public let activity = Observable(distinct: Activity.idle)
    /// Every assignment is a new message, even when it repeats the last one.
    public let notice = Observable<Notice?>(nil)
    /// Downloads of the newest page.
    public let progress = Observable(distinct: DownloadProgress())

    public let provider: any PhotoProvider
    public let pipeline: ImageDownloadManager
    public let perPage: Int
    public let thumbnailSize: PhotoSize

    private let sessionStore: SessionStore?
    private let saveQueue = DispatchQueue(label: "flickr.session-save")
    private var pageTask: Task<Void, Never>?
    private var preheat: Preheat?
    private var detail: ImageModel?
    /// Bumped by every new query and cancel; late results of an older one are dropped.
    private var generation = 0
    private var cellTokens: [ObservationToken] = []

    /// The next page, fetched ahead of time with its thumbnails at low priority.
    private struct Preheat {
        let number: Int
        let task: Task<Void, Never>
        var page: PhotoPage?
        var cells: [ImageModel] = []
    }

    public init(
        provider: any PhotoProvider,
        pipeline: ImageDownloadManager,
        perPage: Int = 30,
        thumbnailSize: PhotoSize = .square150,
        sessionStore: SessionStore? = nil
    ) {
        self.provider = provider
        self.pipeline = pipeline
        self.perPage = perPage
        self.thumbnailSize = thumbnailSize
        self.sessionStore = sessionStore
    }

    // MARK: - State

    /// Every cell of every loaded page, in result order.
    public var cells: [ImageModel] { pages.value.flatMap(\.cells) }

    /// Whether Enter can load another page.
    public var hasMore: Bool {
        guard let last = pages.value.last else { return false }
        return last.number < last.lastServedPage
    }

    /// A page request or downloads are under way (what Ctrl-C would cancel).
    public var hasPendingWork: Bool {
        if activity.value != .idle || preheat != nil { return true }
        if detail?.state.value.isPending == true { return true }
        return cells.contains { $0.state.value.isPending }
    }

    public func statistics() -> ImagePipelineStatistics { pipeline.statistics() }

    // MARK: - Commands

    /// Starts a new search, dropping the previous results and their downloads.
    public func search(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            notice.value = .warning("Type some words to search for.")
            return
        }
        start(.search(trimmed))
    }

    /// Shows the most recent uploads, dropping the previous results.
    public func showRecent() {
        start(.recent)
    }

    /// Loads the page after the last one shown.
    public func nextPage() {
        guard query.value != nil, let last = pages.value.last else {
            notice.value = .info("Type a query to search, or /recent for recent photos.")
            return
        }
        if case .loading(_, let page) = activity.value {
            notice.value = .info("Still loading page \(page)…")
            return
        }
        guard hasMore else {
            notice.value = .info(noMoreMessage(for: last))
            return
        }
        requestPage(last.number + 1)
    }

    /// Cancels the page request, the downloads still pending and the preheated
    /// next page. Returns how many downloads were cancelled.
    @discardableResult
    public func cancel() -> Int {
        let hadPageRequest = activity.value != .idle
        generation += 1
        pageTask?.cancel()
        pageTask = nil
        stopAllDownloads()
        var count = 0
        for cell in cells where cell.cancel() { count += 1 }
        if detail?.cancel() == true { count += 1 }
        dropPreheat()
        activity.value = .idle
        if count == 0 && !hadPageRequest {
            notice.value = .info("Nothing to cancel.")
        } else {
            let downloads = count == 1 ? "1 download" : "\(count) downloads"
            notice.value = .info(hadPageRequest ? "Cancelled the page request and \(downloads)." : "Cancelled \(downloads).")
        }
        return count
    }

    /// Tries failed and cancelled thumbnails again. Returns how many restarted.
    @discardableResult
    public func retry() -> Int {
        var count = 0
        for cell in cells where cell.retry() { count += 1 }
        notice.value = .info(count == 0 ? "Nothing to retry." : "Retrying \(count) thumbnail\(count == 1 ? "" : "s").")
        return count
    }

    /// The photo with result number `number`, with its large image loading.
    public func open(_ number: Int) -> PhotoDetail? {
        let all = cells
        guard let cell = all.first(where: { $0.number == number }) else {
            notice.value = .error(all.isEmpty
                ? "No results yet: search first, then /open a result number."
                : "No result \(number): results 1–\(all.count) are loaded.")
            return nil
        }
        let photo = cell.photo
        let size = photo.detailSize
        let model = ImageModel(
            number: number, photo: photo, url: provider.imageURL(for: photo, size: size), pipeline: pipeline)
        detail?.cancel()
        detail = model
        model.load(priority: .high)
        return PhotoDetail(model: model, size: size, pageURL: provider.photoPageURL(for: photo))
    }

    /// Shows the session saved by the last run, if any. Returns whether it did.
    @discardableResult
    public func restoreSession() -> Bool {
        guard let sessionStore else { return false }
        switch sessionStore.load() {
        case .failure(let error):
            notice.value = .warning(error.description)
            return false
        case .success(nil):
            return false
        case .success(let snapshot?):
            guard snapshot.provider == provider.displayName, !snapshot.pages.isEmpty else { return false }
            generation += 1
            query.value = snapshot.query
            for page in snapshot.pages {
                publish(rebased(page, savedBy: snapshot.provider), cells: nil, restored: true)
            }
            return true
        }
    }

    /// Saves the session and stops every download. Call before exiting.
    public func shutdown() {
        saveSession()
        generation += 1
        pageTask?.cancel()
        stopAllDownloads()
        dropPreheat()
        for cell in cells { cell.cancel() }
        detail?.cancel()
        saveQueue.sync {}
    }

    // MARK: - Paging

    private func start(_ newQuery: ResultQuery) {
        generation += 1
        pageTask?.cancel()
        pageTask = nil
        stopAllDownloads()
        dropPreheat()
        for cell in cells { cell.cancel() }
        cellTokens.removeAll()
        progress.value = DownloadProgress()
        activity.value = .idle
        query.value = newQuery
        pages.value = []
        requestPage(1)
    }

    private func requestPage(_ number: Int) {
        guard let query = query.value else { return }
        let expected = generation
        activity.value = .loading(query, page: number)

        if let preheat, preheat.number == number {
            self.preheat = nil
            if let page = preheat.page {
                finishPage(.success(page), preheatedCells: preheat.cells)
            } else {
                // Still fetching: wait for it rather than asking twice.
                pageTask = Task { [weak self] in
                    await preheat.task.value
                    guard let self, self.generation == expected else { return }
                    self.finishPage(.success(nil), preheatedCells: nil)
                }
                self.preheat = preheat
            }
            return
        }

        let provider = self.provider
        let perPage = self.perPage
        pageTask = Task { [weak self] in
            let result: Result<PhotoPage?, any Error>
            do {
                result = .success(try await Self.fetch(query, page: number, perPage: perPage, from: provider))
            } catch {
                result = .failure(error)
            }
            guard let self, self.generation == expected else { return }
            self.finishPage(result, preheatedCells: nil)
        }
    }

    /// Ends a page request: publishes the page, or reports why it failed.
    /// `.success(nil)` means "take it from the preheat that just completed".
    private func finishPage(_ result: Result<PhotoPage?, any Error>, preheatedCells: [ImageModel]?) {
        pageTask = nil
        activity.value = .idle
        switch result {
        case .success(let page?):
            publish(page, cells: preheatedCells, restored: false)
        case .success(nil):
            let preheat = self.preheat
            self.preheat = nil
            if let preheat, let page = preheat.page {
                publish(page, cells: preheat.cells, restored: false)
            } else {
                notice.value = .error("Could not load the next page.")
            }
        case .failure(let error):
            if error is CancellationError { return }
            notice.value = .error(Self.message(for: error))
        }
    }

    private func publish(_ page: PhotoPage, cells preheated: [ImageModel]?, restored: Bool) {
        for previous in cells where previous.state.value.isPending {
            previous.setPriority(.low)
        }
        let first = cells.count + 1
        let newCells = preheated ?? page.photos.enumerated().map { offset, photo in
            ImageModel(
                number: first + offset, photo: photo,
                url: provider.imageURL(for: photo, size: thumbnailSize), pipeline: pipeline)
        }
        let result = ResultPage(
            number: page.page, pages: page.pages,
            lastServedPage: provider.lastServedPage(pages: page.pages, perPage: max(page.perPage, 1)),
            total: page.total, cells: newCells, restored: restored)

        cellTokens.removeAll()
        for cell in newCells {
            cell.state.observeChanges { [weak self] _ in self?.cellsChanged() }.store(in: &cellTokens)
        }
        pages.value.append(result)
        progress.value = DownloadProgress(cells: newCells)
        for cell in newCells { cell.load(priority: .high) }

        if page.photos.isEmpty && page.page == 1 {
            notice.value = .info("No photos match \(query.value?.description ?? "that").")
        }
        if !restored { saveSession() }
        cellsChanged()
    }

    private func cellsChanged() {
        guard let newest = pages.value.last else { return }
        progress.value = DownloadProgress(cells: newest.cells)
        // A page whose downloads were cancelled was abandoned: nothing to read ahead for.
        if progress.value.isComplete && progress.value.cancelled == 0 { preheatNextPage() }
    }

    /// Fetches the next page's metadata and thumbnails at low priority.
    private func preheatNextPage() {
        guard preheat == nil, activity.value == .idle, hasMore,
              let query = query.value, let last = pages.value.last
        else { return }
        let number = last.number + 1
        let expected = generation
        let provider = self.provider
        let perPage = self.perPage
        let task = Task { [weak self] in
            let page = try? await Self.fetch(query, page: number, perPage: perPage, from: provider)
            guard let self, self.generation == expected, var preheat = self.preheat, preheat.number == number else { return }
            guard let page else {
                self.preheat = nil
                return
            }
            let first = self.cells.count + 1
            preheat.page = page
            preheat.cells = page.photos.enumerated().map { offset, photo in
                ImageModel(
                    number: first + offset, photo: photo,
                    url: provider.imageURL(for: photo, size: self.thumbnailSize), pipeline: self.pipeline)
            }
            self.preheat = preheat
            for cell in preheat.cells { cell.load(priority: .low) }
        }
        preheat = Preheat(number: number, task: task)
    }

    /// Cancels every transfer in one step, before cells are marked cancelled:
    /// cancelling cell by cell would free download slots that the pipeline
    /// refills from its queue, starting requests that are cancelled at once.
    private func stopAllDownloads() {
        pipeline.cancelAll()
    }

    private func dropPreheat() {
        guard let preheat else { return }
        preheat.task.cancel()
        for cell in preheat.cells { cell.cancel() }
        self.preheat = nil
    }

    private nonisolated static func fetch(
        _ query: ResultQuery, page: Int, perPage: Int, from provider: any PhotoProvider
    ) async throws -> PhotoPage {
        switch query {
        case .search(let text): try await provider.search(text, page: page, perPage: perPage)
        case .recent: try await provider.recent(page: page, perPage: perPage)
        }
    }

    private func noMoreMessage(for last: ResultPage) -> String {
        if last.lastServedPage < last.pages, let cap = provider.maxResults {
            return "No more results: \(provider.displayName) serves only the first \(cap.formatted()) of \(last.total.formatted()) photos. Narrow the search to see others."
        }
        return "No more results."
    }

    // MARK: - Persistence

    private func saveSession() {
        guard let sessionStore, let query = query.value else { return }
        let loaded = pages.value.filter { !$0.cells.isEmpty }
        guard !loaded.isEmpty else { return }
        let snapshot = SessionSnapshot(
            provider: provider.displayName, query: query,
            pages: loaded.map { page in
                PhotoPage(
                    page: page.number, pages: page.pages, perPage: perPage, total: page.total,
                    photos: page.cells.map(\.photo))
            })
        saveQueue.async {
            try? sessionStore.save(snapshot)
        }
    }

    /// The embedded sandbox listens on a new port each run, so image URLs it
    /// handed out last time are rebuilt from the photo ids against this run's server.
    private func rebased(_ page: PhotoPage, savedBy provider: String) -> PhotoPage {
        guard provider == "sandbox" else { return page }
        var page = page
        for index in page.photos.indices { page.photos[index].images = [:] }
        return page
    }

    static func message(for error: any Error) -> String {
        switch error {
        case let error as FlickrError: error.description
        case let error as NetworkError: error.description
        default: "Request failed: \(error)"
        }
    }
}

/// The photo `/open` shows: its large image and the facts printed beside it.
@MainActor
public struct PhotoDetail {
    public let model: ImageModel
    public let size: PhotoSize
    public let pageURL: URL?

    public var photo: Photo { model.photo }
    /// Pixel dimensions of the shown size, when the service told them.
    public var dimensions: (width: Int, height: Int)? {
        guard let image = photo.images[size], let width = image.width, let height = image.height else { return nil }
        return (width, height)
    }
}
