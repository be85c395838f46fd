import NIOConcurrencyHelpers

/// Decides which requests fail, per `FaultConfiguration`: the same URLs
/// fail on every run with the same fault seed.
final class FaultInjector: Sendable {
    let configuration: FaultConfiguration
    /// Requests seen per faulty key, for `times`.
    private let counts = NIOLockedValueBox<[String: Int]>([:])

    init(configuration: FaultConfiguration) {
        self.configuration = configuration
    }

    /// Whether this request should get the configured fault; counts it when
    /// its URL is faulty.
    func shouldFault(key: String, isImage: Bool) -> Bool {
        guard configuration.rate > 0 else { return false }
        switch configuration.scope {
        case .images where !isImage, .rest where isImage: return false
        default: break
        }
        guard isFaulty(key) else { return false }
        guard configuration.times > 0 else { return true }
        let seen = counts.withLockedValue { counts -> Int in
            counts[key, default: 0] += 1
            return counts[key, default: 0]
        }
        return seen <= configuration.times
    }

    /// Hash of seed and key, as a fraction of 2^64, under `rate`.
    func isFaulty(_ key: String) -> Bool {
        if configuration.rate >= 1 { return true }
        let fraction = Double(StableHash.hash(key, seed: configuration.seed) >> 11) / Double(1 << 53)
        return fraction < configuration.rate
    }
}
