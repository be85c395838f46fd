import Binding

/// How far the current page's thumbnails have come, for the status line.
public struct DownloadProgress: Sendable, Equatable {
    public var total = 0
    public var loaded = 0
    public var failed = 0
    public var cancelled = 0
    /// Bytes of the images loaded so far.
    public var bytes = 0

    public init(total: Int = 0, loaded: Int = 0, failed: Int = 0, cancelled: Int = 0, bytes: Int = 0) {
        self.total = total
        self.loaded = loaded
        self.failed = failed
        self.cancelled = cancelled
        self.bytes = bytes
    }

    public var settled: Int { loaded + failed + cancelled }
    public var isComplete: Bool { settled == total }

    /// The progress of `cells`, counted from their current states.
    @MainActor
    public init(cells: [ImageModel]) {
        self.init(total: cells.count)
        for cell in cells {
            switch cell.state.value {
            case .loaded(let response):
                loaded += 1
                bytes += response.data.count
            case .failed: failed += 1
            case .cancelled: cancelled += 1
            case .idle, .queued, .loading: break
            }
        }
    }
}
