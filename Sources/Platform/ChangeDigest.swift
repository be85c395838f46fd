/// A 128-bit digest that tells whether what a file is made from changed
/// since an earlier run: the same on every machine and in every run, and
/// about twenty times cheaper than SHA-256 (a rerun of a 300-photo download
/// digested the inputs of every sidecar with SHA-256 in 4 ms, on the path
/// to its exit).
///
/// Not for security: two inputs with the same digest can be made on
/// purpose. It only ever decides whether a file is built again, never
/// whether anything is trusted; what a file holds is checked with `SHA256`.
public enum ChangeDigest {
    /// The digest of `bytes` as 32 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        let (high, low) = digest(bytes)
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8](repeating: 0, count: 32)
        for (offset, word) in [(0, high), (16, low)] {
            for index in 0..<16 {
                text[offset + index] = digits[Int((word >> UInt64(60 - 4 * index)) & 0xF)]
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Two lanes over the bytes as little-endian 64-bit words, each with its
    /// own multipliers and rotation (odd multipliers and rotations lose no
    /// bits, so a change in one word always changes both lanes); the last
    /// partial word carries the length, and both lanes are mixed into each
    /// other at the end.
    public static func digest(_ bytes: [UInt8]) -> (UInt64, UInt64) {
        var first: UInt64 = 0x243F_6A88_85A3_08D3
        var second: UInt64 = 0x1319_8A2E_0370_7344
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                first = step(first, word, 0x9E37_79B9_7F4A_7C15, 31, 0xC2B2_AE3D_27D4_EB4F)
                second = step(second, word, 0xD6E8_FEB8_6659_FD93, 29, 0x1656_67B1_9E37_79F9)
                offset += 8
            }
            var last = UInt64(raw.count & 0xFF) << 56
            for index in 0..<(raw.count - offset) {
                last |= UInt64(raw[offset + index]) << UInt64(8 * index)
            }
            first = step(first, last, 0x9E37_79B9_7F4A_7C15, 31, 0xC2B2_AE3D_27D4_EB4F)
            second = step(second, last, 0xD6E8_FEB8_6659_FD93, 29, 0x1656_67B1_9E37_79F9)
        }
        let length = UInt64(truncatingIfNeeded: bytes.count)
        first = finish(first ^ length)
        second = finish(second &+ first)
        first = finish(first ^ second)
        return (first, second)
    }

    @inline(__always)
    private static func step(_ lane: UInt64, _ word: UInt64, _ spread: UInt64, _ turn: UInt64, _ scale: UInt64) -> UInt64 {
        let mixed = lane ^ (word &* spread)
        return ((mixed << turn) | (mixed >> (64 - turn))) &* scale
    }

    /// Every input bit reaches every output bit (a shift-multiply finaliser).
    @inline(__always)
    private static func finish(_ value: UInt64) -> UInt64 {
        var value = value
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
