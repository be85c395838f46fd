import CZlib

/// Writes 8-bit RGB PNGs: the chunks and their CRCs by hand, the pixel data
/// deflated by zlib. Every row uses the Sub filter, which turns the
/// renderer's flat runs of colour into zeros that deflate well.
enum PNGEncoder {
    enum EncodeError: Error { case compression(Int32) }

    static func encode(rgb pixels: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        let rowBytes = width * 3
        var filtered = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        filtered.withUnsafeMutableBufferPointer { target in
            pixels.withUnsafeBufferPointer { source in
                for row in 0..<height {
                    let out = row * (rowBytes + 1)
                    let input = row * rowBytes
                    target[out] = 1 // Sub: each byte minus the same channel of the pixel to its left
                    for column in 0..<rowBytes {
                        let left = column >= 3 ? source[input + column - 3] : 0
                        target[out + 1 + column] = source[input + column] &- left
                    }
                }
            }
        }
        let compressed = try zlibStream(filtered)

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        // Bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace.
        header += [8, 2, 0, 0, 0]
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", compressed, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Length, type, data, and the CRC-32 of type and data.
    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let typeBytes = Array(type.utf8)
        png += typeBytes
        png += data
        var crc = CRC32()
        crc.update(typeBytes)
        crc.update(data)
        png.appendBigEndian(crc.value)
    }

    static func zlibStream(_ bytes: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { throw EncodeError.compression(status) }
        output.removeLast(output.count - Int(length))
        return output
    }
}

/// CRC-32 as PNG (and gzip) define it: reflected polynomial 0xEDB88320.
struct CRC32 {
    private(set) var value: UInt32 = 0

    private static let table: [UInt32] = (0..<256).map { index in
        var entry = UInt32(index)
        for _ in 0..<8 { entry = entry & 1 == 1 ? 0xEDB8_8320 ^ (entry >> 1) : entry >> 1 }
        return entry
    }

    mutating func update(_ bytes: [UInt8]) {
        var crc = ~value
        for byte in bytes { crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        value = ~crc
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    mutating func appendLittleEndian(_ value: UInt16) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)])
    }
}
