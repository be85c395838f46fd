import Foundation

/// FNV-1a, 64-bit: a small, fast, non-cryptographic hash. Names disk-cache
/// files after URLs and checksums their contents (a torn or flipped entry
/// shows up as a mismatch; nobody is adversarial here).
public struct FNV1a64 {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        value = hash
    }

    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hasher = FNV1a64()
        hasher.combine(bytes)
        return hasher.value
    }

    /// Hashes `Data`'s storage directly: its iterator, a byte at a time, was
    /// most of the cost of checking a cache entry.
    public static func hash(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { hash($0) }
    }
}
