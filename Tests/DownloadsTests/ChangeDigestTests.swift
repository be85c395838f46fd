import Platform
import Sandbox
import Testing

/// The digest a download's manifest records for what each sidecar and
/// CREDITS.md are made from: it must stay the same from run to run (or every
/// rerun rebuilds every sidecar) and move with any change of the bytes.
@Suite struct ChangeDigestTests {
    /// Recorded in manifests on disk: a change to the function makes every
    /// earlier stamp stale (each rerun after it rebuilds every sidecar once),
    /// so these values change only on purpose.
    @Test(arguments: [
        ("", "27650a2dbbedb9a0b346f6152b63f94c"),
        ("abc", "8a26de1217dbb7a49dcafaac09c9eb61"),
        ("a sidecar's inputs, 40 bytes long ......", "ea16f5c164d67b8605b1b1bb399abd9f"),
    ])
    func theDigestOfKnownBytesIsTheOneRecordedBefore(text: String, digest: String) {
        #expect(ChangeDigest.hex(Array(text.utf8)) == digest)
    }

    /// Every single-bit change of inputs of every length up to three words
    /// and a bit moves the digest, as does any change of length by a zero byte.
    @Test func everyBitAndEveryLengthMovesTheDigest() {
        var source = SplitMix64(seed: 7)
        for length in 0...25 {
            let bytes = Self.take(length, from: &source)
            let digest = ChangeDigest.digest(bytes)
            for bit in 0..<(length * 8) {
                var flipped = bytes
                flipped[bit / 8] ^= UInt8(1 << (bit % 8))
                #expect(ChangeDigest.digest(flipped) != digest, "length \(length), bit \(bit)")
            }
            #expect(ChangeDigest.digest(bytes + [0]) != digest, "length \(length) and a zero byte")
        }
    }

    /// No two of many generated inputs (random, and near-copies of one
    /// another as a photo's fields are) share a digest, nor half of one.
    @Test func generatedInputsNeverShareADigest() {
        var source = SplitMix64(seed: 11)
        let base = Self.take(1_500, from: &source)
        var seen = Set<String>()
        var halves = Set<UInt64>()
        for index in 0..<20_000 {
            var bytes: [UInt8]
            if index % 2 == 0 {
                bytes = Self.take(source.below(300), from: &source)
            } else {
                bytes = base
                bytes[source.below(1_500)] = UInt8(truncatingIfNeeded: source.next())
            }
            let (high, low) = ChangeDigest.digest(bytes)
            let hex = ChangeDigest.hex(bytes)
            if seen.contains(hex) { continue } // the same bytes again (a no-op change)
            seen.insert(hex)
            #expect(halves.insert(high).inserted, "case \(index): the first half repeats")
            #expect(halves.insert(low).inserted, "case \(index): the second half repeats")
        }
        #expect(seen.count > 15_000)
    }

    private static func take(_ count: Int, from source: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: source.next()) }
    }
}
