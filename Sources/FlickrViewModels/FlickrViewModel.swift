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
    let querySource = MutableObservable<ResultQuery?>(nil)
    let pagesSource = MutableObservable<[ResultPage]>([])
    // Internal, not private, here and below: the +Paging, +Services,
    // +Browse, +Detail and +Account extensions use them.
    let activitySource = MutableObservable(distinct: Activity.idle)
    let noticeSource = MutableObservable<Notice?>(nil)
    let progressSource = MutableObservable(distinct: DownloadProgress())
    // Internal, not private: FlickrViewModel+Browse publishes them.
    let albumsSource = MutableObservable<AlbumListing?>(nil)
    let linkedPhotoSource = MutableObservable<PhotoDetail?>(nil)
    /// `/login` waiting for the code the sign-in page shows (FlickrViewModel+Account).
    let signInSource = MutableObservable(distinct: SignInStep.idle)
    var signInTask: Task<Void, Never>?

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
    /// Where `/login` is: while it waits for a code, the next line typed is that code.
    public var signIn: Observable<SignInStep> { signInSource }

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
    var restoredPerPage: Int?
    /// The result number the first cell gets (a restored session goes on
    /// with its own numbering).
    var firstNumber = 1
    var factory: ImageModelFactory
    let prefetcher = PagePrefetcher()
    var session: SessionPersistence?
    // Internal, not private, from here to `generation`: the +Browse and
    // +Detail extensions use them.
    var pageTask: Task<Void, Never>?
    /// Asking who or what a name or link is (FlickrViewModel+Browse).
    var lookupTask: Task<Void, Never>?
    /// The page whose request failed last, for `/retry`.
    var failedPage: Int?
    var detail: ImageModel?
    var detailFacts: PhotoDetail?
    /// Bumped by every new query and cancel; late results of an older one are dropped.
    var generation = 0
    var cellTokens: [ObservationToken] = []
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
        switch session?.restore(signedInAs: signedInAs) {
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
}
