import Binding
import PhotoCore
import Foundation
import ImagePipeline

/// The screen's state and commands: a query, its loaded pages, and one
/// `ImageModel` per result.
///
/// Pages are appended as they arrive (endless scrolling). Only the newest
/// page's thumbnails download at high priority; once they are in, the next
/// page is fetched ahead at low priority so Enter shows it at once. A new
/// query, or `cancel()`, stops everything pending. Views read the published
/// observables; only this model sets them.
@MainActor
public final class FlickrViewModel {
    private let querySource = MutableObservable<ResultQuery?>(nil)
    private let pagesSource = MutableObservable<[ResultPage]>([])
    // Internal, not private: `switchProvider` (FlickrViewModel+Services) sets them too.
    let activitySource = MutableObservable(distinct: Activity.idle)
    let noticeSource = MutableObservable<Notice?>(nil)
    private let progressSource = MutableObservable(distinct: DownloadProgress())
    // Internal, not private: FlickrViewModel+Browse publishes them.
    let albumsSource = MutableObservable<AlbumListing?>(nil)
    let linkedPhotoSource = MutableObservable<PhotoDetail?>(nil)

    public var query: Observable<ResultQuery?> { querySource }
    /// Loaded pages of the current query; replaced by a new query, appended to by paging.
    public var pages: Observable<[ResultPage]> { pagesSource }
    public var activity: Observable<Activity> { activitySource }
    /// Every assignment is a new message, even when it repeats the last one.
    public var notice: Observable<Notice?> { noticeSource }
    /// Downloads of the newest page.
    public var progress: Observable<DownloadProgress> { progressSource }
    /// The albums `/albums` listed last.
    public var albums: Observable<AlbumListing?> { albumsSource }
    /// A photo opened from a pasted link (it is not among the results).
    public var linkedPhoto: Observable<PhotoDetail?> { linkedPhotoSource }

    /// The next page's cells, loading ahead of Enter (empty when there is
    /// none), so the view can get their pictures ready too.
    public var prefetchedCells: Observable<[ImageModel]> { prefetcher.readyCells }

    /// What a thumbnail must fill to look sharp, as the view's layout works
    /// it out; cells made from now on get the smallest image that covers it.
    public var thumbnailPixelNeed: ImagePixelNeed {
        get { factory.thumbnailNeed }
        set { factory.thumbnailNeed = newValue }
    }

    /// The service's name for headers and banners ("Flickr", "Shutterstock (sandbox)").
    public var providerName: String { provider.displayName }
    let services: [ServiceSetup]
    // The service in use and what depends on it; `switchProvider`
    // (FlickrViewModel+Services) replaces them.
    let pipeline: ImageDownloadManager
    var provider: any PhotoProvider
    var perPage: Int
    /// The page size of a restored session while its query is shown: its
    /// next pages must be asked with the size its first ones were.
    private var restoredPerPage: Int?
    /// The result number the first cell gets (a restored session goes on
    /// with its own numbering).
    private var firstNumber = 1
    var factory: ImageModelFactory
    private let prefetcher = PagePrefetcher()
    var session: SessionPersistence?
    // Internal, not private, from here to `generation`: the +Browse and
    // +Detail extensions use them.
    var pageTask: Task<Void, Never>?
    /// Asking who or what a name or link is (FlickrViewModel+Browse).
    var lookupTask: Task<Void, Never>?
    /// The page whose request failed last, for `/retry`.
    private var failedPage: Int?
    var detail: ImageModel?
    var detailFacts: PhotoDetail?
    /// Bumped by every new query and cancel; late results of an older one are dropped.
    var generation = 0
    private var cellTokens: [ObservationToken] = []
    /// The filters searches use until changed (`/filter`, or typed in a query).
    var standingFilters = SearchFilters()
    /// What services say while they work (a rate limit's wait), shown as notices.
    private var serviceNotices: ServiceNotices.Listening?
    /// The search behind the live line (FlickrViewModel+Live).
    let live = LiveSearch()
    /// `--live-delay`, when given; nil takes the provider's pause.
    var liveChosenDelay: Duration?
    /// `/live on|off`, `--live-delay 0`.
    var liveEnabled = true

    /// - Parameter services: what the app can search, the one to start with first.
    /// - Parameter notices: what the services say while they work, shown as notices.
    public init(services: [ServiceSetup], pipeline: ImageDownloadManager, notices: ServiceNotices? = nil) {
        precondition(!services.isEmpty, "FlickrViewModel needs a provider")
        let first = services[0]
        self.services = services
        self.pipeline = pipeline
        self.provider = first.provider
        self.perPage = first.perPage
        self.factory = ImageModelFactory(provider: first.provider, pipeline: pipeline)
        // Set last: the failure report needs `self`.
        session = makeSession(first)
        serviceNotices = notices?.listen { [weak self] text in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.noticeSource.value = .info(text) }
            }
        }
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
        if activity.value != .idle || prefetcher.isFetching || live.isBusy { return true }
        if detail?.state.value.isPending == true { return true }
        return (cells + prefetchedCells.value + (albums.value?.cells ?? [])).contains { $0.state.value.isPending }
    }

    public func statistics() -> DownloadStatistics { factory.statistics() }

    // MARK: - Commands

    /// Starts a new search, dropping the previous results and their downloads.
    /// Filters typed in `text` (`license:cc0 sort:newest`) apply with the
    /// ones `/filter` set, which stay until changed.
    public func search(_ text: String) {
        // A link of the service pasted at the prompt opens what it points at.
        if followIfLink(text) { return }
        let query: SearchQuery?
        do {
            query = try searchQuery(typed: text)
        } catch {
            noticeSource.value = .error(error.description)
            return
        }
        guard let query else {
            noticeSource.value = .warning("Type some words to search for.")
            return
        }
        standingFilters = query.filters
        start(.search(query))
    }

    /// What `text` searches for: its words and filters, with the filters
    /// `/filter` set; nil when it holds nothing.
    func searchQuery(typed text: String) throws(QueryError) -> SearchQuery? {
        guard let parsed = try SearchQuery.parse(text) else { return nil }
        return parsed.with(filters: standingFilters.merging(parsed.filters))
    }

    /// Shows the most recent uploads, dropping the previous results.
    public func showRecent() {
        start(.recent)
    }

    /// Loads the page after the last one shown.
    public func nextPage() {
        if refilterCurrentSearch() { return }
        if case .loading(_, let page) = activity.value {
            noticeSource.value = .info("Still loading page \(page)…")
            return
        }
        guard query.value != nil, let last = pages.value.last else {
            if case .unsupported(let sentence) = provider.capabilities.recent {
                noticeSource.value = .info(sentence)
            } else {
                noticeSource.value = .info("Type a query to search, or /recent for recent photos.")
            }
            return
        }
        guard hasMore else {
            noticeSource.value = .info(noMoreMessage(for: last))
            return
        }
        requestPage(last.number + 1)
    }

    /// Cancels the page request, the downloads still pending and the
    /// prefetched next page. Returns how many downloads were cancelled.
    @discardableResult
    public func cancel() -> Int {
        let hadPageRequest = activity.value != .idle
        let count = stopPending(includingDetail: true, keepingPrefetched: true) + live.cancelAll()
        activitySource.value = .idle
        if count == 0 && !hadPageRequest {
            noticeSource.value = .info("Nothing to cancel.")
        } else {
            let downloads = count == 1 ? "1 download" : "\(count) downloads"
            noticeSource.value = .info(hadPageRequest ? "Cancelled the page request and \(downloads)." : "Cancelled \(downloads).")
        }
        return count
    }

    /// Loads a page whose request failed again, and tries failed and
    /// cancelled thumbnails again. Returns the cells that restarted.
    @discardableResult
    public func retry() -> [ImageModel] {
        let restarted = cells.filter { $0.retry() }
        if let failedPage, activity.value == .idle {
            self.failedPage = nil
            noticeSource.value = .info("Loading page \(failedPage) again…")
            requestPage(failedPage)
        } else if restarted.isEmpty {
            noticeSource.value = .info("Nothing to retry.")
        }
        if !restarted.isEmpty {
            noticeSource.value = .info("Retrying \(restarted.count) thumbnail\(restarted.count == 1 ? "" : "s").")
        }
        return restarted
    }

    /// Shows the session saved by the last run, if any. Returns whether it did.
    @discardableResult
    public func restoreSession() -> Bool {
        switch session?.restore() {
        case .failure(let error):
            noticeSource.value = .warning(error.description)
            return false
        case .success(let saved?):
            generation += 1
            querySource.value = saved.query
            if case .search(let query) = saved.query { standingFilters = query.filters }
            restoredPerPage = saved.perPage
            firstNumber = saved.firstNumber
            for page in saved.pages { publish(page, cells: nil, restored: true) }
            return true
        case .success(nil), nil:
            return false
        }
    }

    /// Saves the session and stops every download, and the details of an
    /// opened photo still on their way. Call before exiting.
    public func shutdown() {
        saveSession()
        stopPending(includingDetail: true)
        detailFacts?.cancel()
        session?.flush()
    }

    // MARK: - Paging

    /// Stops the page request, the prefetch and the downloads of the
    /// results (and of the opened photo's large image, when asked); what
    /// they would still deliver is dropped. Returns how many downloads of
    /// the results and the opened photo were cancelled.
    /// A next page that has already arrived is kept when asked (`/cancel`
    /// keeps finished work); only its pending downloads stop.
    @discardableResult
    func stopPending(includingDetail: Bool, keepingPrefetched: Bool = false) -> Int {
        generation += 1
        pageTask?.cancel()
        pageTask = nil
        lookupTask?.cancel()
        lookupTask = nil
        let prefetched = keepingPrefetched ? prefetcher.keepIfArrived() : []
        if prefetched.isEmpty { prefetcher.drop() }
        let opened = includingDetail ? detail.map { [$0] } ?? [] : []
        // Album covers still loading stop too (they are kept once in).
        let covers = albums.value?.cells ?? []
        return factory.reset(cells + prefetched + opened + covers, keeping: includingDetail ? nil : detail)
    }

    func start(_ newQuery: ResultQuery) {
        if case .recent = newQuery, case .unsupported(let sentence) = provider.capabilities.recent {
            // Not asked for at all (Openverse): on a fresh launch this is
            // the first thing shown, and an error no retry would change is
            // no way to open. What is shown stays.
            activitySource.value = .idle
            noticeSource.value = .info(sentence)
            return
        }
        // The opened photo stays: a new query does not close it.
        stopPending(includingDetail: false)
        restoredPerPage = nil
        firstNumber = 1
        failedPage = nil
        cellTokens.removeAll()
        progressSource.value = DownloadProgress()
        activitySource.value = .idle
        querySource.value = newQuery
        pagesSource.value = []
        requestPage(1)
    }

    /// How a requested page arrived.
    private enum Arrival {
        case fetched(PhotoPage)
        case prefetched(PagePrefetcher.Prefetched)
        case failed(any Error)
    }

    private func requestPage(_ number: Int) {
        guard let query = query.value else { return }
        if let prefetched = prefetcher.takeIfReady(number) {
            // Shown at once, from memory.
            publish(prefetched.page, cells: prefetched.cells, restored: false)
            return
        }
        if number == 1, let found = takeLivePage(for: query) {
            // Found while the query was typed: no request.
            publish(found.page, cells: found.cells, restored: false)
            return
        }
        // Typed and Enter pressed before the live search answered: wait for
        // that answer rather than ask the same again.
        let joined = number == 1 ? joinLiveSearch(for: query) : nil
        let expected = generation
        activitySource.value = .loading(query, page: number)
        let provider = self.provider
        let perPage = pageSize
        pageTask = Task { [weak self] in
            guard let prefetcher = self?.prefetcher else { return }
            let arrival: Arrival
            if let joined {
                do {
                    arrival = .fetched(try await withTaskCancellationHandler {
                        try await joined.value
                    } onCancel: {
                        joined.cancel()
                    })
                } catch {
                    arrival = .failed(error)
                }
            } else if let prefetched = await prefetcher.take(number) {
                arrival = .prefetched(prefetched)
            } else {
                do {
                    arrival = .fetched(try await query.page(number, perPage: perPage, from: provider))
                } catch {
                    arrival = .failed(error)
                }
            }
            guard let self, self.generation == expected else { return }
            self.finish(arrival, page: number)
        }
    }

    /// Ends a page request: publishes the page, or reports why it failed.
    private func finish(_ arrival: Arrival, page number: Int) {
        pageTask = nil
        activitySource.value = .idle
        switch arrival {
        case .fetched(let page):
            publish(page, cells: nil, restored: false)
        case .prefetched(let prefetched):
            publish(prefetched.page, cells: prefetched.cells, restored: false)
        case .failed(let error):
            if error is CancellationError { return }
            failedPage = number
            noticeSource.value = .error(userMessage(for: error) + " /retry loads page \(number) again.")
        }
    }

    private func publish(_ page: PhotoPage, cells prefetched: [ImageModel]?, restored: Bool) {
        for previous in cells where previous.state.value.isPending {
            previous.setPriority(.low)
        }
        let newCells = prefetched ?? factory.cells(for: page.photos, startingAt: nextNumber)
        let result = ResultPage(
            source: provider.displayName, number: page.page, pages: page.pages,
            lastServedPage: query.value?.lastServedPage(pages: page.pages, perPage: max(page.perPage, 1), from: provider) ?? page.pages,
            total: page.total, cells: newCells, restored: restored)

        cellTokens.removeAll()
        for cell in newCells {
            cell.state.observeChanges { [weak self] _ in self?.cellsChanged() }.store(in: &cellTokens)
        }
        pagesSource.value.append(result)
        progressSource.value = DownloadProgress(cells: newCells.filter(\.fetchesImage))
        for cell in newCells { cell.load(priority: .high) }

        if page.photos.isEmpty && page.page == 1 {
            noticeSource.value = .info("No photos match \(query.value?.description ?? "that").")
        }
        if !restored { saveSession() }
        cellsChanged()
    }

    private func cellsChanged() {
        guard let newest = pages.value.last else { return }
        // Thumbnails not drawn are not fetched: they count for nothing.
        progressSource.value = DownloadProgress(cells: newest.cells.filter(\.fetchesImage))
        // A page whose downloads were cancelled was abandoned: nothing to read ahead for.
        if progress.value.isComplete && progress.value.cancelled == 0 { prefetchNextPage() }
    }

    /// Fetches the next page's metadata and thumbnails at low priority.
    private func prefetchNextPage() {
        guard !prefetcher.isActive, activity.value == .idle, hasMore,
              let query = query.value, let last = pages.value.last
        else { return }
        let provider = self.provider
        let perPage = pageSize
        let number = last.number + 1
        prefetcher.start(
            number: number,
            fetch: { try await query.page(number, perPage: perPage, from: provider) },
            makeCells: { [weak self] page in
                guard let self else { return [] }
                return self.factory.cells(for: page.photos, startingAt: self.nextNumber)
            })
    }

    private func noMoreMessage(for last: ResultPage) -> String {
        if last.lastServedPage < last.pages, let cap = provider.maxResults {
            return "No more results: \(provider.displayName) serves only the first \(cap.formatted()) of \(last.total.formatted()) photos. Narrow the search to see others."
        }
        return "No more results."
    }

    /// The page size the shown query is paged with.
    var pageSize: Int { restoredPerPage ?? perPage }

    /// The result number of the next cell made.
    private var nextNumber: Int { cells.last.map { $0.number + 1 } ?? firstNumber }
}
