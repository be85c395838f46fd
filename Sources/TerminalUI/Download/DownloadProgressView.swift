import Downloads
import Foundation
import NIOConcurrencyHelpers
import Platform

/// Draws a download's progress on standard error: a bar redrawn in place on
/// a terminal, plain lines (pages and failures) otherwise.
public final class DownloadProgressView: DownloadReporter {
    private let showsBar: Bool
    private let drawn = NIOLockedValueBox(Drawn())

    private struct Drawn {
        var lastDraw: ContinuousClock.Instant?
        var barShown = false
    }

    /// - Parameter showsBar: draw the in-place bar (stderr is a terminal).
    public init(showsBar: Bool) {
        self.showsBar = showsBar
    }

    /// Whether standard error is a terminal a bar can be drawn on.
    public static func standardErrorShowsBar(environment: [String: String]) -> Bool {
        Platform.isTerminal(Platform.standardError, environment: environment)
    }

    public func pageStarted(_ number: Int, of last: Int, photos: Int, tally: DownloadTally) {
        if !showsBar { writeLine("page \(number) of \(last): \(photos) photos") }
    }

    public func imageSettled(tally: DownloadTally, failure: String?) {
        drawn.withLockedValue { drawn in
            if let failure {
                if showsBar && drawn.barShown { write("\r\u{1B}[K") }
                writeLine("failed: " + TextSanitizer.sanitize(failure))
            }
            guard showsBar else { return }
            let now = ContinuousClock.now
            if failure == nil, let last = drawn.lastDraw, now - last < .milliseconds(80), tally.settled < tally.expected {
                return
            }
            drawn.lastDraw = now
            drawn.barShown = true
            write("\r" + Self.bar(tally))
        }
    }

    public func pageFailed(_ number: Int, reason: String, tally: DownloadTally) {
        drawn.withLockedValue { drawn in
            if showsBar && drawn.barShown { write("\r\u{1B}[K") }
            writeLine("failed: page \(number): " + TextSanitizer.sanitize(reason))
        }
    }

    /// Ends the bar's line so the summary starts on a fresh one.
    public func finish() {
        drawn.withLockedValue { drawn in
            if showsBar && drawn.barShown { write("\r\u{1B}[K") }
            drawn.barShown = false
        }
    }

    /// `[#########---------------------] 90/300 · 1.2 MB · 0 failed`
    static func bar(_ tally: DownloadTally) -> String {
        let width = 30
        let total = max(tally.expected, 1)
        let filled = min(width, tally.settled * width / total)
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + "\(tally.settled)/\(tally.expected) · \(ByteCount.format(tally.bytes)) · \(tally.failed) failed"
    }

    private func write(_ text: String) {
        Platform.writeAll(text.utf8, to: Platform.standardError)
    }

    private func writeLine(_ text: String) {
        write(text + "\n")
    }
}
