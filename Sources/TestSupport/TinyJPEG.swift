import Foundation

/// The smallest real JPEG we can write by hand: one 8×8 grey block (a
/// baseline greyscale frame whose only Huffman codes are "DC difference 0"
/// and "end of block"), padded with comment segments to the size a test
/// asks for. It decodes cleanly, so it passes the pipeline's whole-image
/// check, and the padding's fill byte tells test images apart.
public enum TinyJPEG {
    /// SOI, a flat quantisation table, the frame, two one-code Huffman
    /// tables and the scan header; the scan data and EOI follow the padding.
    private static let head: [UInt8] = {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
        // DC table 0 and AC table 0: one code of length 1, for symbol 0.
        let oneCode: [UInt8] = [0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x00] + oneCode
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x10] + oneCode
        return bytes
    }()
    /// Start of scan, the one block (bits 0 0, padded with ones), EOI.
    private static let tail: [UInt8] = [
        0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x3F, 0xFF, 0xD9,
    ]

    /// The shortest such JPEG.
    public static let minimumSize = head.count + tail.count

    /// A JPEG of exactly `size` bytes when `size` leaves room for a comment
    /// segment (4 bytes or more beyond `minimumSize`), else the shortest one.
    public static func make(size: Int, fill: UInt8 = 0x42) -> Data {
        var data = Data(head)
        var padding = size - minimumSize
        while padding >= 4 {
            var payload = min(padding - 4, 65_533)
            // Never leave a remainder too small for a segment of its own.
            if (1..<4).contains(padding - payload - 4) { payload -= 4 }
            let length = payload + 2
            data.append(contentsOf: [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)])
            data.append(Data(repeating: fill, count: payload))
            padding -= payload + 4
        }
        data.append(contentsOf: tail)
        return data
    }
}
