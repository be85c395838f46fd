import FlickrKit
import Foundation
import ImagePipeline
import NIOConcurrencyHelpers

/// `flickr download`: fetches pages one ahead of the images being downloaded
/// and feeds each page's images to the pipeline, keeping every transfer slot
/// busy across page boundaries. A page that cannot be fetched is counted and
/// skipped; a failed image is counted; the job goes on past both.
public final class DownloadJob: Sendable {
    public struct Request: Sendable {
        public var query: SearchQuery
        public var pages: Int
        public var perPage: Int
        public var size: PhotoSize
        public var folder: URL
        /// Transfers at once; the pipeline's slots.
        public var concurrency: Int
        /// `NAME.json` and `NAME.xmp` beside each file.
        public var sidecars: Bool

        public init(
            query: SearchQuery, pages: Int, perPage: Int, size: PhotoSize, folder: URL, concurrency: Int, sidecars: Bool = true
        ) {
            self.sidecars = sidecars
            self.query = query
            self.pages = pages
            self.perPage = perPage
            self.size = size
            self.folder = folder
            self.concurrency = concurrency
        }
    }

    /// What happened besides the counted files.
    public struct Result: Sendable {
        public var tally: DownloadTally
        public var notes: [String] = []
        public var cancelled = false
    }

    private let request: Request
    private let provider: any PhotoProvider
    private let pipeline: ImageDownloadManager
    private let reporter: any DownloadReporter
    private let files: DownloadFolder
    private let credits: DownloadCredits
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let state = NIOLockedValueBox(State())

    private struct State {
        var cancelled = false
        var tally = DownloadTally()
        var pageTasks: [Int: Task<PhotoPage, any Error>] = [:]
        /// Photos already handed out: a provider may list one on two pages.
        var seenPhotoIDs: Set<String> = []
    }

    /// Page requests in flight at once, counting the one being consumed; they
    /// overlap each other and the image transfers.
    private static let pagesAhead = 3

    public init(request: Request, provider: any PhotoProvider, pipeline: ImageDownloadManager, reporter: any DownloadReporter) {
        self.request = request
        self.provider = provider
        self.pipeline = pipeline
        self.reporter = reporter
        self.files = DownloadFolder(url: request.folder)
        self.credits = DownloadCredits(
            folder: request.folder, provider: provider, sidecars: request.sidecars, size: request.size.rawValue)
        (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    var isCancelled: Bool { state.withLockedValue { $0.cancelled } }

    /// Stops everything: the page requests and every transfer. Safe from any thread.
    public func cancel() {
        state.withLockedValue { $0.cancelled = true }
        dropPages(after: 0)
        pipeline.cancelAll()
        wake.yield()
    }

    public func run() async -> Result {
        var notes: [String] = []
        var wakeIterator = wakeups.makeAsyncIterator()
        let perPage = request.perPage
        // Before page 1 answers, the provider's cap is the only bound we know.
        var lastPage = provider.lastServedPage(pages: request.pages, perPage: perPage)
        requestPages(1...min(lastPage, Self.pagesAhead))
        var number = 1
        while number <= lastPage, !isCancelled, let current = pageRequest(number) {
            let page: PhotoPage
            do {
                page = try await current.value
                finishPage(number)
            } catch {
                finishPage(number)
                if isCancelled { break }
                let tally = state.withLockedValue { state in
                    state.tally.failedPages += 1
                    return state.tally
                }
                reporter.pageFailed(number, reason: userMessage(for: error), tally: tally)
                if number == 1 { break }
                number += 1
                if number <= lastPage { requestPages(number...min(lastPage, number + Self.pagesAhead - 1)) }
                continue
            }
            if number == 1 {
                if page.total == 0 || page.photos.isEmpty {
                    notes.append("No photos match \(request.query).")
                    break
                }
                let served = provider.lastServedPage(pages: page.pages, perPage: perPage)
                if served < request.pages {
                    lastPage = max(1, served)
                    notes.append(served < page.pages
                        ? "Stopped at page \(lastPage): \(provider.displayName) serves only the first \(provider.maxResults ?? page.total) results of a query."
                        : "Stopped at page \(lastPage), the last page (\(page.total) results).")
                }
                dropPages(after: lastPage)
            }
            if page.photos.isEmpty {
                // The provider promised this page and sent nothing: the pages
                // from here on are missing, and the exit status says so.
                state.withLockedValue { $0.tally.failedPages += 1 }
                notes.append(number == lastPage
                    ? "Page \(number) came back empty; its photos are missing."
                    : "Page \(number) came back empty, so the download stopped there; pages \(number)–\(lastPage) are missing.")
                break
            }
            // Keep the next pages coming while this page's images download.
            if number < lastPage { requestPages((number + 1)...min(lastPage, number + Self.pagesAhead)) }
            let (photos, tally) = state.withLockedValue { state in
                let photos = page.photos.filter { state.seenPhotoIDs.insert($0.id).inserted }
                state.tally.expected += photos.count
                return (photos, state.tally)
            }
            reporter.pageStarted(number, of: lastPage, photos: photos.count, tally: tally)

            // Queue this page's images once the previous page's queue has drained
            // into the running slots: no slot idles at the page boundary, and only
            // a few pages of requests are alive at once.
            while state.withLockedValue({ $0.tally.outstanding }) > request.concurrency, !isCancelled {
                _ = await wakeIterator.next()
            }
            if isCancelled { break }
            for photo in photos { download(photo) }
            number += 1
        }
        dropPages(after: 0)
        while state.withLockedValue({ $0.tally.outstanding }) > 0, !isCancelled {
            _ = await wakeIterator.next()
        }
        let (tally, cancelled) = state.withLockedValue { ($0.tally, $0.cancelled) }
        do {
            try credits.finish()
        } catch {
            notes.append("Could not write CREDITS.md: \(userMessage(for: error))")
        }
        return Result(tally: tally, notes: notes, cancelled: cancelled)
    }

    // MARK: - Pages

    private func requestPages(_ numbers: ClosedRange<Int>) {
        let provider = self.provider
        let query = request.query
        let perPage = request.perPage
        state.withLockedValue { state in
            for number in numbers where state.pageTasks[number] == nil {
                state.pageTasks[number] = Task {
                    try await provider.search(query, page: number, perPage: perPage)
                }
            }
        }
    }

    /// The request for page `number`; it stays cancellable until `finishPage`.
    private func pageRequest(_ number: Int) -> Task<PhotoPage, any Error>? {
        state.withLockedValue { $0.pageTasks[number] }
    }

    private func finishPage(_ number: Int) {
        _ = state.withLockedValue { $0.pageTasks.removeValue(forKey: number) }
    }

    /// Cancels requests for pages past `last`.
    private func dropPages(after last: Int) {
        let dropped = state.withLockedValue { state in
            let extra = state.pageTasks.filter { $0.key > last }
            for number in extra.keys { state.pageTasks[number] = nil }
            return Array(extra.values)
        }
        for task in dropped { task.cancel() }
    }

    // MARK: - Images

    private func download(_ photo: Photo) {
        let name = DownloadFolder.baseName(for: photo, size: request.size)
        if let existing = files.completeImage(baseName: name) {
            credit(photo, baseName: name, file: existing)
            record(.kept)
            return
        }
        state.withLockedValue { $0.tally.outstanding += 1 }
        let size = request.size
        // The big sizes have secrets of their own: when the search answer did
        // not carry one, ask the service for the photo's sizes (cached per photo).
        if !size.isBuildable, photo.rendition(labelled: size.rawValue) == nil {
            let provider = self.provider
            Task { [self] in
                let url = try? await provider.resolveImageURL(for: photo, covering: size.requirement)
                fetch(url, for: photo, named: name)
            }
        } else {
            fetch(provider.imageURL(for: photo, size: size), for: photo, named: name)
        }
    }

    /// The work's sidecars and its line in CREDITS.md; a sidecar that cannot
    /// be written is reported once per file, and the image stays.
    private func credit(_ photo: Photo, baseName: String, file: String) {
        do {
            try credits.record(photo, baseName: baseName, file: file)
        } catch {
            reporter.imageSettled(
                tally: state.withLockedValue { $0.tally }, failure: "\(baseName): sidecar not written: \(userMessage(for: error))")
        }
    }

    private func fetch(_ url: URL?, for photo: Photo, named name: String) {
        guard let url, !isCancelled else {
            record(isCancelled ? .cancelled : .failed("\(name): the provider gave no URL for size \(request.size.rawValue)"))
            wake.yield()
            return
        }
        let files = self.files
        pipeline.load(url, priority: .normal) { [self] event in
            switch event {
            case .progress:
                return
            case .completed(.success(let response)):
                do {
                    let file = DownloadFolder.fileName(name, format: response.format)
                    try files.write(response.data, named: file)
                    credit(photo, baseName: name, file: file)
                    record(.downloaded(bytes: response.data.count, fromCache: response.source != .network))
                } catch {
                    record(.failed("\(name): \(userMessage(for: error))"))
                }
            case .completed(.failure(.cancelled)):
                record(.cancelled)
            case .completed(.failure(let error)):
                record(.failed("\(name): \(error)"))
            }
            wake.yield()
        }
    }

    private func record(_ outcome: DownloadOutcome) {
        let tally = state.withLockedValue { state in
            state.tally.record(outcome)
            return state.tally
        }
        if case .failed(let reason) = outcome {
            reporter.imageSettled(tally: tally, failure: reason)
        } else {
            reporter.imageSettled(tally: tally, failure: nil)
        }
    }
}
