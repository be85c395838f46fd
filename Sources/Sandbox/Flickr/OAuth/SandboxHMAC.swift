/// The sandbox's own HMAC-SHA1, written apart from the app's signer on
/// purpose: a mistake in one cannot hide in the other, and the peer tests
/// (oauthlib, flickrapi) check each against Python's.
enum SandboxHMAC {
    static func sha1(_ input: [UInt8]) -> [UInt8] {
        var h0: UInt32 = 0x6745_2301, h1: UInt32 = 0xEFCD_AB89, h2: UInt32 = 0x98BA_DCFE
        var h3: UInt32 = 0x1032_5476, h4: UInt32 = 0xC3D2_E1F0
        let bitLength = UInt64(truncatingIfNeeded: input.count) &* 8
        let zeros = (55 &- input.count % 64 + 64) % 64
        let message = input + [0x80] + [UInt8](repeating: 0, count: zeros)
            + (0..<8).reversed().map { UInt8(truncatingIfNeeded: bitLength >> (UInt64($0) * 8)) }
        func rol(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
        var schedule = [UInt32](repeating: 0, count: 16)
        var chunk = 0
        while chunk < message.count {
            var a = h0, b = h1, c = h2, d = h3, e = h4
            for round in 0..<80 {
                let slot = round & 15
                if round < 16 {
                    let at = chunk + round * 4
                    schedule[slot] = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(message[at + $1]) }
                } else {
                    schedule[slot] = rol(schedule[(round - 3) & 15] ^ schedule[(round - 8) & 15]
                        ^ schedule[(round - 14) & 15] ^ schedule[slot], 1)
                }
                let mix: UInt32
                let constant: UInt32
                if round < 20 {
                    mix = d ^ (b & (c ^ d)); constant = 0x5A82_7999
                } else if round < 40 {
                    mix = b ^ c ^ d; constant = 0x6ED9_EBA1
                } else if round < 60 {
                    mix = (b & c) | (d & (b | c)); constant = 0x8F1B_BCDC
                } else {
                    mix = b ^ c ^ d; constant = 0xCA62_C1D6
                }
                let next = rol(a, 5) &+ mix &+ e &+ constant &+ schedule[slot]
                e = d; d = c; c = rol(b, 30); b = a; a = next
            }
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e
            chunk += 64
        }
        return [h0, h1, h2, h3, h4].flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> (UInt32($0) * 8)) } }
    }

    static func mac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let short = key.count > 64 ? sha1(key) : key
        let padded = short + [UInt8](repeating: 0, count: 64 - short.count)
        return sha1(padded.map { $0 ^ 0x5C } + sha1(padded.map { $0 ^ 0x36 } + message))
    }
}
