import Foundation
import Platform

/// How one image of a download ended.
public enum DownloadOutcome: Sendable, Equatable {
    case downloaded(bytes: Int, fromCache: Bool)
    /// A complete image was already in the folder.
    case kept
    case failed(String)
    case cancelled
    /// A video, left out because videos were not asked for.
    case videoSkipped
}

/// The counts of a download so far.
public struct DownloadTally: Sendable, Equatable {
    /// Images of the pages seen so far.
    public var expected = 0
    /// Handed to the pipeline and not settled yet.
    public var outstanding = 0
    public var downloaded = 0
    public var fromCache = 0
    /// Complete files already in the folder, from an earlier run.
    public var kept = 0
    public var failed = 0
    public var cancelled = 0
    public var bytes = 0
    /// Pages that could not be fetched even after retries.
    public var failedPages = 0
    /// Videos left out (no `--videos`).
    public var videosSkipped = 0
    /// Listed but never handed to a transfer: the download was stopped first.
    public var notStarted = 0

    public init() {}

    /// Photos accounted for: saved, found, failed, cancelled, (videos)
    /// skipped, or never started.
    public var settled: Int { downloaded + kept + failed + cancelled + videosSkipped + notStarted }

    /// The tally when the job stops: a transfer still running counts as
    /// cancelled, and every listed photo no transfer took as not started, so
    /// the summary accounts for each photo listed.
    func stopped() -> DownloadTally {
        var tally = self
        tally.cancelled += max(0, tally.outstanding)
        tally.outstanding = 0
        tally.notStarted = max(0, tally.expected - tally.settled)
        return tally
    }

    /// Something the person asked for is not in the folder.
    public var isIncomplete: Bool { failed > 0 || failedPages > 0 }

    mutating func record(_ outcome: DownloadOutcome) {
        switch outcome {
        case .downloaded(let size, let cached):
            outstanding -= 1
            downloaded += 1
            bytes += size
            if cached { fromCache += 1 }
        case .kept:
            kept += 1
        case .failed:
            outstanding -= 1
            failed += 1
        case .cancelled:
            outstanding -= 1
            cancelled += 1
        case .videoSkipped:
            videosSkipped += 1
        }
    }

    /// `Downloaded 120 (2 from cache), 380 already there, failed 0, 1.2 MB in 0.84 s.`
    public func summary(seconds: Double) -> String {
        var line = "Downloaded \(downloaded)"
        if fromCache > 0 { line += " (\(fromCache) from cache)" }
        line += ", \(kept) already there, failed \(failed)"
        if cancelled > 0 { line += ", cancelled \(cancelled)" }
        if notStarted > 0 { line += ", not started \(notStarted)" }
        if videosSkipped > 0 {
            line += ", \(videosSkipped) video\(videosSkipped == 1 ? "" : "s") skipped (--videos downloads them)"
        }
        if failedPages > 0 { line += ", \(failedPages) page\(failedPages == 1 ? "" : "s") not fetched" }
        line += ", \(ByteCount.format(bytes)) in \(String(format: "%.2f", seconds)) s."
        return line
    }
}

/// Hears how a download goes; the terminal layer draws it. Called from any
/// thread, one call at a time.
public protocol DownloadReporter: Sendable {
    /// Page `number` of `last` arrived with `photos` photos.
    func pageStarted(_ number: Int, of last: Int, photos: Int, tally: DownloadTally)
    /// An image settled; `failure` is set when it failed.
    func imageSettled(tally: DownloadTally, failure: String?)
    /// A page could not be fetched; the download goes on with the next one.
    func pageFailed(_ number: Int, reason: String, tally: DownloadTally)
}
