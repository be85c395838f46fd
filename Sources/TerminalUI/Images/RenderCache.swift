import NIOConcurrencyHelpers

/// A bounded least-recently-used cache of rendered images, safe to use from
/// any thread.
///
/// Bounded by entry count and by total bytes, because one kitty image is
/// ~200 KB while a symbol thumbnail is ~10 KB. Eviction scans for the oldest
/// entry, which is cheap at the few hundred entries it holds.
final class RenderCache: Sendable {
    /// One rendering: which image, the cell box it was fitted into, and
    /// everything about the output that differs between terminals (mode,
    /// colours, cell pixel size), so a renderer whose terminal description
    /// changes never serves output made for another.
    struct Key: Hashable, Sendable {
        var cacheKey: String
        var columns: Int
        var rows: Int
        var mode: ImageMode
        var colors: ColorDepth
        var cellPixelSize: TerminalGraphics.CellPixelSize
        var repeatsCharacters: Bool

        init(cacheKey: String, columns: Int, rows: Int, graphics: TerminalGraphics) {
            self.cacheKey = cacheKey
            self.columns = columns
            self.rows = rows
            self.mode = graphics.mode
            self.colors = graphics.colors
            self.cellPixelSize = graphics.cellPixelSize
            self.repeatsCharacters = graphics.repeatsCharacters
        }
    }

    private struct Entry {
        var image: RenderedImage
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var totalCost = 0
        var clock: UInt64 = 0
    }

    let countLimit: Int
    let costLimit: Int
    private let state = NIOLockedValueBox(State())

    init(countLimit: Int, costLimit: Int) {
        self.countLimit = max(0, countLimit)
        self.costLimit = max(0, costLimit)
    }

    func value(for key: Key) -> RenderedImage? {
        state.withLockedValue { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.image
        }
    }

    /// Stores `image`; an image bigger than the whole cost limit is not kept.
    func insert(_ image: RenderedImage, for key: Key) {
        let cost = image.byteCount
        guard cost <= costLimit, countLimit > 0 else { return }
        state.withLockedValue { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(image: image, lastUse: state.clock), forKey: key) {
                state.totalCost -= old.image.byteCount
            }
            state.totalCost += cost
            while state.entries.count > countLimit || state.totalCost > costLimit {
                guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
                state.entries[oldest.key] = nil
                state.totalCost -= oldest.value.image.byteCount
            }
        }
    }

    func removeAll() {
        state.withLockedValue { state in
            state.entries.removeAll()
            state.totalCost = 0
        }
    }

    var count: Int { state.withLockedValue { $0.entries.count } }
    var totalCost: Int { state.withLockedValue { $0.totalCost } }
}
