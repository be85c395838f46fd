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

    /// The hostile case this request gets: nil unless the fault is
    /// `hostile`, the URL is faulty and an allowed case applies to it. The
    /// case is drawn by the hash of the seed and the key, so a URL keeps it.
    func hostileCase(key: String, isImage: Bool) -> HostileCase? {
        guard configuration.kind == .hostile else { return nil }
        let candidates = configuration.hostileCases.filter { $0.applies(toImages: isImage) }
        guard !candidates.isEmpty, shouldFault(key: key, isImage: isImage) else { return nil }
        let draw = StableHash.hash(key, seed: configuration.seed ^ 0x4057_11E)
        return candidates[Int(draw % UInt64(candidates.count))]
    }

    /// Hash of seed and key, as a fraction of 2^64, under `rate`.
    func isFaulty(_ key: String) -> Bool {
        if configuration.rate >= 1 { return true }
        let fraction = Double(StableHash.hash(key, seed: configuration.seed) >> 11) / Double(1 << 53)
        return fraction < configuration.rate
    }
}
