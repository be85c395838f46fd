/// SplitMix64: tiny, fast and fully deterministic across platforms, which is
/// what a reproducible catalog needs (the standard library's generator is not
/// seedable).
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound` (bound > 0); the tiny modulo bias is irrelevant here.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// Uniform in `0..<1`.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Stable 64-bit hashing (FNV-1a then a SplitMix finaliser); Swift's `Hasher`
/// is seeded per process, so it cannot choose faulty URLs reproducibly.
enum StableHash {
    static func hash(_ text: String, seed: UInt64) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        return mix(value)
    }

    static func mix(_ input: UInt64) -> UInt64 {
        var generator = SplitMix64(seed: input)
        return generator.next()
    }
}
