import Foundation
@testable import Sandbox
import Testing

extension EndToEnd {
    /// `--link`: one bandwidth for every response in flight, unlike
    /// `--throttle`, which gives each response its own.
    @Suite("Slow line: the shared link")
    struct SlowLineLink {
        @Test func responsesInFlightShareOneBudget() {
            // 1 KiB/s: each 512-byte chunk holds the line for half a second.
            let link = SharedLink(kBps: 1)
            let first = link.book(512)
            let second = link.book(512)
            let third = link.book(1024)
            // Booked one after another, whoever books: the second response's
            // chunk crosses after the first's, as on one real line (later
            // still if the machine paused between the bookings).
            #expect(second - first >= .milliseconds(500))
            #expect(third - second >= .seconds(1))
        }

        @Test func theRateSaturates() {
            #expect(SharedLink(kBps: -5).bytesPerSecond == 1024)
            #expect(SharedLink(kBps: .max).bytesPerSecond == Double(1 << 20) * 1024)
        }
    }
}
