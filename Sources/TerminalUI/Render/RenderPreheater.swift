import Binding
import FlickrViewModels
import ImageCodecs

/// Renders the pictures of the prefetched next page in the background as
/// their bytes arrive, so Enter prints that page from the render cache
/// instead of decoding 30 JPEGs while the person waits.
@MainActor
final class RenderPreheater {
    private var task: Task<Void, Never>?
    /// The first cell of the page being preheated.
    private var first: ObjectIdentifier?
    /// Every preheat whose task has not returned, the current one and those
    /// cancelled while a render was running: `stop` waits for them all.
    private let unfinished = RunningTasks()

    /// Starts rendering `cells` with `geometry`, replacing any earlier preheat.
    func start(_ cells: [ImageModel], geometry: PageGeometry, renderer: TerminalImageRenderer) {
        cancel()
        guard let head = cells.first, geometry.graphics.showsImages else { return }
        first = ObjectIdentifier(head)
        task = unfinished.run(priority: .utility) {
            await Self.render(cells, geometry: geometry, renderer: renderer)
        }
    }

    /// Renders each cell once it settles, as many at a time as have settled.
    private static func render(_ cells: [ImageModel], geometry: PageGeometry, renderer: TerminalImageRenderer) async {
        var start = 0
        while start < cells.count {
            await cells[start].settled()
            guard !Task.isCancelled else { return }
            // Everything settled by now renders as one parallel batch.
            var end = start + 1
            while end < cells.count, cells[end].state.value.isSettled { end += 1 }
            let jobs = cells[start..<end].map { geometry.job(for: $0) }
            await OrderedParallel.forEach(count: jobs.count, operation: { index in
                _ = jobs[index].run(with: renderer)
            }, deliver: { _, _ in })
            start = end
        }
    }

    /// Stops the preheat of the page starting with `cells`, now that it is
    /// printed: the printer renders what is not ready yet, and the few
    /// renders already running still land in the cache.
    func cancel(ifPreheating cells: ArraySlice<ImageModel>) {
        guard let head = cells.first, ObjectIdentifier(head) == first else { return }
        cancel()
    }

    /// Stops the preheat and returns once its renders already running have
    /// ended (they cannot be interrupted), so nothing is left holding the
    /// page when the app exits.
    func stop() async {
        cancel()
        await unfinished.waitForAll()
    }

    /// Stops the preheat under way, if any (the results were replaced).
    func cancel() {
        task?.cancel()
        task = nil
        first = nil
    }

    /// Draws a tiny picture off the main actor so chafa builds its tables
    /// (symbol bitmaps, colour lookups: tens of milliseconds on first use)
    /// while the app starts, not while the first page waits.
    nonisolated static func warmUp(_ renderer: TerminalImageRenderer) {
        guard renderer.graphics.showsImages else { return }
        Task.detached(priority: .userInitiated) {
            let pixels = DecodedImage(
                width: 16, height: 16, rgba: [UInt8](repeating: 128, count: 16 * 16 * 4),
                sourceWidth: 16, sourceHeight: 16)
            _ = renderer.render(pixels, columns: 2, rows: 1)
        }
    }
}
