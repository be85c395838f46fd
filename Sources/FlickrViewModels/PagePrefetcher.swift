import Binding
import PhotoCore
import ImagePipeline

/// The next page, fetched ahead of time with its thumbnails loading at low
/// priority, so Enter shows it at once.
@MainActor
final class PagePrefetcher {
    struct Prefetched {
        let page: PhotoPage
        let cells: [ImageModel]
    }

    private enum Phase {
        case fetching
        case ready(Prefetched)
        case failed
    }

    private struct Entry {
        let number: Int
        let task: Task<Void, Never>
        var phase: Phase
    }

    private var entry: Entry? {
        didSet {
            // Published only while waiting to be taken: the view gets those
            // cells ready (renders them) so Enter shows them from memory.
            let cells: [ImageModel]
            if let entry, case .ready(let prefetched) = entry.phase { cells = prefetched.cells } else { cells = [] }
            if cells.map(ObjectIdentifier.init) != readySource.value.map(ObjectIdentifier.init) {
                readySource.value = cells
            }
        }
    }
    private let readySource = MutableObservable<[ImageModel]>([])

    /// A prefetch is under way or waiting to be taken.
    var isActive: Bool { entry != nil }

    /// The page request is under way.
    var isFetching: Bool {
        if let entry, case .fetching = entry.phase { true } else { false }
    }

    /// The cells of the page that has arrived and waits to be taken; empty
    /// while fetching, after taking, and after a drop.
    var readyCells: Observable<[ImageModel]> { readySource }

    /// Starts fetching page `number`; its cells are made by `makeCells` and
    /// start loading at low priority as soon as the page arrives.
    func start(
        number: Int,
        fetch: @escaping @Sendable () async throws -> PhotoPage,
        makeCells: @escaping @MainActor (PhotoPage) -> [ImageModel]
    ) {
        drop()
        let task = Task { [weak self] in
            let page = try? await fetch()
            guard let self, let entry = self.entry, entry.number == number, !Task.isCancelled else { return }
            guard let page else {
                self.entry?.phase = .failed
                return
            }
            let cells = makeCells(page)
            self.entry?.phase = .ready(Prefetched(page: page, cells: cells))
            for cell in cells { cell.load(priority: .low) }
        }
        entry = Entry(number: number, task: task, phase: .fetching)
    }

    /// Page `number` if it has arrived already, without waiting.
    func takeIfReady(_ number: Int) -> Prefetched? {
        guard let current = entry, current.number == number, case .ready(let prefetched) = current.phase else { return nil }
        entry = nil
        return prefetched
    }

    /// Page `number` if it was prefetched (waiting for a fetch under way);
    /// nil when another page was prefetched, or the prefetch failed.
    func take(_ number: Int) async -> Prefetched? {
        guard let current = entry, current.number == number else { return nil }
        if case .fetching = current.phase { await current.task.value }
        guard let finished = entry, finished.number == number else { return nil }
        entry = nil
        if case .ready(let prefetched) = finished.phase { return prefetched }
        return nil
    }

    /// The cells of the page if it has arrived (it stays, to be taken);
    /// empty, and nothing kept, while it is still being fetched.
    func keepIfArrived() -> [ImageModel] {
        guard let entry, case .ready(let prefetched) = entry.phase else { return [] }
        return prefetched.cells
    }

    /// Cancels the prefetch and its downloads. Returns the cells it dropped.
    @discardableResult
    func drop() -> [ImageModel] {
        guard let entry else { return [] }
        self.entry = nil
        entry.task.cancel()
        guard case .ready(let prefetched) = entry.phase else { return [] }
        for cell in prefetched.cells { cell.cancel() }
        return prefetched.cells
    }
}
