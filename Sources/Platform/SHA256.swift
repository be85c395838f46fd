import Foundation

/// SHA-256 (FIPS 180-4): how a later download tells that the file under a
/// name is still the one this app wrote there, and how an upload knows a
/// file it sent before. The project links no crypto library for this.
public enum SHA256 {
    /// The digest as 64 lowercase hex digits.
    public static func hex(_ data: Data) -> String {
        var hasher = Hasher()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    public static func digest(_ data: Data) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(data)
        return hasher.finalize()
    }

    /// A digest fed piece by piece, so a file is hashed without holding it whole.
    public struct Hasher: Sendable {
        private var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        /// Bytes not yet making a whole block.
        private var pending: [UInt8] = []
        /// Bytes fed so far (the padding states it in bits, modulo 2^64).
        private var length: UInt64 = 0

        public init() {}

        public mutating func update(_ data: some DataProtocol) {
            length &+= UInt64(data.count)
            for region in data.regions {
                region.withUnsafeBytes { bytes in feed(bytes) }
            }
        }

        private mutating func feed(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            // Top up a partial block first, then whole blocks straight from the bytes.
            if !pending.isEmpty {
                let taken = min(64 - pending.count, bytes.count)
                pending += bytes[0..<taken]
                offset = taken
                guard pending.count == 64 else { return }
                pending.withUnsafeBytes { block in SHA256.compress(&state, blocks: block) }
                pending.removeAll(keepingCapacity: true)
            }
            let whole = (bytes.count - offset) / 64 * 64
            if whole > 0 {
                SHA256.compress(&state, blocks: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + whole]))
                offset += whole
            }
            pending += bytes[offset...]
        }

        /// The digest of everything fed; the hasher is spent after it.
        public mutating func finalize() -> [UInt8] {
            // The tail, the 0x80 marker and the length in bits: one or two blocks.
            var tail = pending
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            let bits = length.multipliedReportingOverflow(by: 8).partialValue
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
            tail.withUnsafeBytes { padded in SHA256.compress(&state, blocks: padded) }
            pending = []
            return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
        }

        /// `finalize()` as 64 lowercase hex digits.
        public mutating func finalizeHex() -> String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(64)
            for byte in finalize() {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    /// Runs the compression function over `blocks` (a whole number of 64-byte blocks).
    fileprivate static func compress(_ state: inout [UInt32], blocks: UnsafeRawBufferPointer) {
        // Through pointers, the schedule on the stack and the state touched
        // once per run of blocks: array subscripts checked on every round
        // and a heap schedule per block made the digest of a sidecar's
        // inputs cost more than the rest of a rerun's check of it.
        guard let base = blocks.baseAddress, blocks.count >= 64 else { return }
        state.withUnsafeMutableBufferPointer { state in
            roundConstants.withUnsafeBufferPointer { constants in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                    var offset = 0
                    while offset + 64 <= blocks.count {
                        compress(state, w, constants, base + offset)
                        offset += 64
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func compress(
        _ state: UnsafeMutableBufferPointer<UInt32>, _ w: UnsafeMutableBufferPointer<UInt32>, _ roundConstants: UnsafeBufferPointer<UInt32>,
        _ block: UnsafeRawPointer
    ) {
        for index in 0..<16 {
            w[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
        }
        for index in 16..<64 {
            let s0 = rotate(w[index - 15], 7) ^ rotate(w[index - 15], 18) ^ (w[index - 15] >> 3)
            let s1 = rotate(w[index - 2], 17) ^ rotate(w[index - 2], 19) ^ (w[index - 2] >> 10)
            w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ roundConstants[index] &+ w[index]
            let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }
}
