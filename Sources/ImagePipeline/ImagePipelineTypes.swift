import Networking
import Foundation

/// How urgently an image is wanted. Visible cells are `high`, preheated ones `low`.
public enum DownloadPriority: Int, Sendable, Comparable, CaseIterable {
    /// In the background: starts only while nothing more urgent runs
    /// (a prefetched page, a page the person moved on from).
    case low = 0
    case normal = 1
    /// The page shown.
    case high = 2
    /// Ahead of all: the photo the person opened.
    case veryHigh = 3

    public static func < (lhs: DownloadPriority, rhs: DownloadPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// Limits and policies of one `ImageDownloadManager`.
public struct ImagePipelineConfiguration: Sendable {
    /// Transfers running at once; the rest wait in the priority queue.
    public var maxConcurrentDownloads = 6
    /// A running transfer that receives nothing for this long while others
    /// wait stops counting against `maxConcurrentDownloads` (it goes on, and
    /// ends through the fetcher's idle timeout), so a stalled server cannot
    /// hold the healthy transfers back. At most `maxConcurrentDownloads`
    /// transfers are set aside so. `nil`: a transfer keeps its slot to the end.
    public var quietTransferPeriod: Duration? = .milliseconds(500)
    /// Memory cache limits: total bytes of image data, and number of images.
    public var memoryCostLimit = 20 << 20
    public var memoryCountLimit = 200
    /// Where the disk cache lives; `nil` disables it.
    public var diskCacheDirectory: URL? = nil
    /// When the disk cache grows past this many bytes it is trimmed to about 70%.
    public var diskSizeLimit = 150 << 20
    /// Extra attempts after a transient failure (5xx, 429, reset, time-out).
    public var maxRetries = 2
    /// Delay before the first retry; each further retry waits twice as long
    /// (at most 30 seconds).
    public var retryBaseDelay: Duration = .milliseconds(250)
    /// Called once, on some background thread, when the first disk-cache
    /// file cannot be written, with a message naming the file and the
    /// reason. Later failures only count (see `ImagePipelineStatistics`).
    public var onCacheWriteFailure: (@Sendable (String) -> Void)? = nil

    public init() {}
}

/// Where a response came from.
public enum ImageSource: String, Sendable {
    case memory, disk, network
}

/// A downloaded (or cached) image: its bytes, checked to be an image of `format`.
public struct ImageResponse: Sendable {
    public var url: URL
    public var data: Data
    public var format: ImageFormat
    public var source: ImageSource

    public init(url: URL, data: Data, format: ImageFormat, source: ImageSource) {
        self.url = url
        self.data = data
        self.format = format
        self.source = source
    }
}

/// Why an image could not be loaded.
public enum ImageLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    case network(NetworkError)
    /// The bytes arrived but are not a complete JPEG, PNG or GIF; says what was wrong.
    case invalidImage(String)
    case cancelled

    public var description: String {
        switch self {
        case .network(let error): error.description
        case .invalidImage(let reason): "Not a usable image: \(reason)."
        case .cancelled: "Cancelled."
        }
    }
}

/// What a requester hears about its image.
public enum ImageLoadEvent: Sendable {
    /// Bytes received so far, and the announced length when the server sent one.
    case progress(received: Int, expected: Int?)
    /// The last event of a request.
    case completed(Result<ImageResponse, ImageLoadError>)
}

/// Counters for `/stats` and the `download` summary.
///
/// `queued` and `running` are current values; the others count since the
/// manager was created.
public struct ImagePipelineStatistics: Sendable, Equatable {
    public var queued = 0
    /// Transfers under way, quiet ones included.
    public var running = 0
    /// Running transfers set aside because they received nothing for a while.
    public var quiet = 0
    /// Transfers that completed with a valid image.
    public var done = 0
    /// Transfers that ended in an error (after retries).
    public var failed = 0
    /// Transfers abandoned because every requester cancelled.
    public var cancelled = 0
    /// Requests that joined a transfer already under way for the same URL.
    public var coalesced = 0
    public var memoryHits = 0
    public var diskHits = 0
    /// Image bytes received from the network (valid or not).
    public var bytesDownloaded = 0
    /// Retries after transient failures.
    public var retries = 0
    /// Disk-cache files that could not be written (the images still load).
    public var cacheWriteFailures = 0
    /// The latest of those failures: the file and the reason, for a person.
    public var lastCacheError: String? = nil
    /// Images held in the memory cache, and their bytes.
    public var memoryCacheCount = 0
    public var memoryCacheBytes = 0

    public init() {}
}
