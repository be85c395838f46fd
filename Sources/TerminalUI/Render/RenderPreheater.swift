import Binding
import FlickrViewModels

/// Renders the pictures of the prefetched next page in the background as
/// their bytes arrive, so Enter prints that page from the render cache
/// instead of decoding 30 JPEGs while the person waits.
@MainActor
final class RenderPreheater {
    private var task: Task<Void, Never>?

    /// Starts rendering `cells` with `geometry`, replacing any earlier preheat.
    func start(_ cells: [ImageModel], geometry: PageGeometry, renderer: TerminalImageRenderer) {
        cancel()
        guard !cells.isEmpty, geometry.graphics.showsImages else { return }
        task = Task(priority: .utility) { @MainActor in
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
    }

    /// Stops the preheat under way, if any: when its page is printed (the
    /// printer renders what is not ready yet, and the few renders already
    /// running still land in the cache), or when the results are replaced.
    func cancel() {
        task?.cancel()
        task = nil
    }
}
