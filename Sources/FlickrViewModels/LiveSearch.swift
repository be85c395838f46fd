import Binding
import PhotoCore
import Foundation
import ImagePipeline

/// What the live line under the prompt says about the text typed so far.
public enum LiveResult: Sendable, Equatable {
    /// Nothing to show: live search is off, the text is a command or too
    /// short, or the line was submitted or cleared.
    case hidden
    case searching
    /// The total, and the first titles (unsanitised), in result order.
    case found(total: Int, titles: [String])
    case noResults
    /// The search failed; the message is the usual sentence.
    case failed(String)
}

/// The search behind the live line: started by a pause in typing, replaced
/// (its transfer aborted) by the next change, never asked twice for the
/// same query, and kept so that Enter on the same text shows its page at
/// once, with the first row's thumbnails already loading.
@MainActor
final class LiveSearch {
    /// What one search was for: the same key is never asked again.
    struct Key: Equatable {
        let provider: String
        let query: SearchQuery
        let perPage: Int
    }

    /// A page found while typing, waiting for Enter.
    struct Found {
        let key: Key
        let page: PhotoPage
        let cells: [ImageModel]
    }

    private let resultSource = MutableObservable(distinct: LiveResult.hidden)
    private let firstRowSource = MutableObservable<[ImageModel]>([])
    var result: Observable<LiveResult> { resultSource }
    /// The found page's first row, loading at low priority: the view gets
    /// their pictures ready too.
    var firstRow: Observable<[ImageModel]> { firstRowSource }

    /// How many cells a row of the grid holds (the first row loads ahead).
    var rowLength = 3
    /// A search waiting for the pause in typing to be long enough.
    private struct Waiting {
        let key: Key
        let due: ContinuousClock.Instant
        let search: @Sendable () async throws -> PhotoPage
        let makeCells: @MainActor (PhotoPage) -> [ImageModel]
    }

    private var waiting: Waiting?
    private var pause: Task<Void, Never>?
    /// A search sent: its request, and the task that shows its answer.
    private struct InFlight {
        let key: Key
        let request: Task<PhotoPage, any Error>
        let task: Task<Void, Never>
    }

    private var inFlight: InFlight?
    private(set) var found: Found?
    /// Counts searches sent (the benchmark and tests read it).
    private(set) var searchesSent = 0

    /// The text changed to `key`'s query (nil: nothing to search for);
    /// `search` runs it once the pause is over.
    func textChanged(
        to key: Key?, after delay: Duration,
        search: @escaping @Sendable () async throws -> PhotoPage,
        makeCells: @escaping @MainActor (PhotoPage) -> [ImageModel]
    ) {
        waiting = nil
        guard let key else {
            stopSearching()
            resultSource.value = .hidden
            return
        }
        if let found, found.key == key {
            stopSearching()
            show(found.page)
            return
        }
        if let inFlight, inFlight.key == key { return }
        stopSearching()
        // What the line said was about other text: it goes until the pause.
        resultSource.value = .hidden
        waiting = Waiting(key: key, due: .now + delay, search: search, makeCells: makeCells)
        // One task waits out the pause however many keys come: a key only
        // moves the time it waits for.
        guard pause == nil else { return }
        pause = Task { [weak self] in
            while let due = self?.waiting?.due {
                if ContinuousClock.now >= due {
                    guard let self, let waiting = self.waiting else { break }
                    self.waiting = nil
                    self.start(waiting.key, search: waiting.search, makeCells: waiting.makeCells)
                    break
                }
                try? await Task.sleep(until: due)
                if Task.isCancelled { return }
            }
            self?.pause = nil
        }
    }

    private func start(
        _ key: Key, search: @escaping @Sendable () async throws -> PhotoPage,
        makeCells: @escaping @MainActor (PhotoPage) -> [ImageModel]
    ) {
        resultSource.value = .searching
        searchesSent += 1
        // The request is its own task so that Enter can take it over while
        // it is still on its way (see `join`).
        let request = Task { try await search() }
        let task = Task { [weak self] in
            let outcome: Result<PhotoPage, any Error>
            do {
                outcome = .success(try await request.value)
            } catch {
                outcome = .failure(error)
            }
            guard let self, !Task.isCancelled, self.inFlight?.key == key else { return }
            self.inFlight = nil
            switch outcome {
            case .success(let page):
                self.keep(Found(key: key, page: page, cells: makeCells(page)))
                self.show(page)
            case .failure(let error):
                if error is CancellationError { return }
                self.resultSource.value = .failed(userMessage(for: error))
            }
        }
        inFlight = InFlight(key: key, request: request, task: task)
    }

    /// The search for `key` still on its way, handed over (Enter on the same
    /// text before it answered): it is no longer live search's to stop or
    /// show, and the caller waits for it instead of asking again.
    func join(_ key: Key) -> Task<PhotoPage, any Error>? {
        guard let inFlight, inFlight.key == key else { return nil }
        self.inFlight = nil
        inFlight.task.cancel()  // only the live line's side: the request goes on
        return inFlight.request
    }

    private func keep(_ page: Found) {
        dropFound()
        found = page
        let row = Array(page.cells.prefix(rowLength))
        for cell in row { cell.load(priority: .low) }
        firstRowSource.value = row
    }

    private func show(_ page: PhotoPage) {
        resultSource.value = page.photos.isEmpty
            ? .noResults
            : .found(total: page.total, titles: page.photos.prefix(8).map(\.title))
    }

    /// The page found for `key`, handed over (Enter on the same text).
    func take(_ key: Key) -> Found? {
        guard let found, found.key == key else { return nil }
        self.found = nil
        firstRowSource.value = []
        return found
    }

    /// The line was submitted or cleared, or left: the live line goes, and
    /// any search still on its way stops. A found page stays for Enter.
    func lineEnded() {
        waiting = nil
        pause?.cancel()
        pause = nil
        stopSearching()
        resultSource.value = .hidden
    }

    /// Ctrl-C or `/cancel`: stops everything, the found page's downloads too.
    /// Returns how many downloads it stopped.
    @discardableResult
    func cancelAll() -> Int {
        lineEnded()
        return dropFound()
    }

    /// Whether a search or the first row's downloads are under way.
    var isBusy: Bool {
        waiting != nil || inFlight != nil || firstRowSource.value.contains { $0.state.value.isPending }
    }

    private func stopSearching() {
        inFlight?.request.cancel()
        inFlight?.task.cancel()
        inFlight = nil
    }

    @discardableResult
    private func dropFound() -> Int {
        guard let found else { return 0 }
        self.found = nil
        firstRowSource.value = []
        return found.cells.reduce(0) { count, cell in cell.cancel() ? count + 1 : count }
    }
}
