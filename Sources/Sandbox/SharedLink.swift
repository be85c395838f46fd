import NIOConcurrencyHelpers

/// One line's bandwidth, shared by every response in flight (`--link`):
/// unlike `--throttle`, which paces each response on its own, twelve
/// transfers here share what one would get, as on a slow real line.
///
/// A virtual clock: each chunk books the line for its own transmission
/// time after every chunk booked before, so transfers that take turns
/// chunk by chunk each get an equal share. An idle line banks nothing.
final class SharedLink: Sendable {
    let bytesPerSecond: Double
    private let clock = ContinuousClock()
    /// When the line is free again after the chunks booked so far.
    private let freeAt: NIOLockedValueBox<ContinuousClock.Instant>

    /// `kBps` saturates at 1 KiB/s and 1 GiB/s.
    init(kBps: Int) {
        bytesPerSecond = Double(min(max(kBps, 1), 1 << 20)) * 1024
        freeAt = NIOLockedValueBox(clock.now)
    }

    /// Books the line for `count` bytes and returns when they have crossed it.
    func book(_ count: Int) -> ContinuousClock.Instant {
        let duration = Duration.seconds(Double(max(0, count)) / bytesPerSecond)
        return freeAt.withLockedValue { freeAt in
            freeAt = max(freeAt, clock.now) + duration
            return freeAt
        }
    }
}
