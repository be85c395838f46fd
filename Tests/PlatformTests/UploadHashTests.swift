import Foundation
import Platform
import Testing

/// The SHA-256 the upload record keys files by, fed piece by piece as a
/// file is read: NIST's examples, whatever the pieces.
@Suite struct UploadHashTests {
    /// FIPS 180-4's examples (NIST's "SHA256.pdf" and the long message of the test vectors).
    static let vectors: [(String, String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ]

    @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 1_000])
    func piecesOfAnySizeGiveNISTsDigests(pieceSize: Int) {
        for (message, digest) in Self.vectors {
            var hasher = SHA256.Hasher()
            let bytes = Array(message.utf8)
            var start = 0
            while start < bytes.count {
                hasher.update(bytes[start..<min(start + pieceSize, bytes.count)])
                start += pieceSize
            }
            #expect(hasher.finalizeHex() == digest, "\(message.prefix(10))… in pieces of \(pieceSize)")
        }
    }

    @Test func aMillionAsInUnevenPieces() {
        var hasher = SHA256.Hasher()
        var left = 1_000_000
        var piece = 1
        while left > 0 {
            let size = min(piece, left)
            hasher.update(Data(repeating: UInt8(ascii: "a"), count: size))
            left -= size
            piece = piece * 3 % 70_001 + 1
        }
        #expect(hasher.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA256.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
