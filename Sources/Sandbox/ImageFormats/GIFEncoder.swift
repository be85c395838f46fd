/// Writes single-frame GIF89a images with its own LZW coder. Colours are
/// mapped to a fixed 6×6×6 cube (216 colours, padded to a 256-entry table),
/// which is plenty for the renderer's gradients and shapes.
enum GIFEncoder {
    static func encode(rgb pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        var gif = Array("GIF89a".utf8)
        gif.appendLittleEndian(UInt16(width))
        gif.appendLittleEndian(UInt16(height))
        // Global colour table of 2^(7+1) entries, 8 bits of colour resolution.
        gif += [0xF7, 0, 0]
        for index in 0..<256 {
            if index < 216 {
                gif += [UInt8(index / 36 * 51), UInt8(index / 6 % 6 * 51), UInt8(index % 6 * 51)]
            } else {
                gif += [0, 0, 0]
            }
        }
        // Image descriptor: the whole screen, no local table, not interlaced.
        gif.append(0x2C)
        gif.appendLittleEndian(0)
        gif.appendLittleEndian(0)
        gif.appendLittleEndian(UInt16(width))
        gif.appendLittleEndian(UInt16(height))
        gif.append(0)
        gif.append(8) // LZW minimum code size
        let data = LZWEncoder.encode(indexes(of: pixels))
        var start = 0
        while start < data.count {
            let count = min(255, data.count - start)
            gif.append(UInt8(count))
            gif += data[start..<start + count]
            start += count
        }
        gif.append(0) // block terminator
        gif.append(0x3B) // trailer
        return gif
    }

    /// Each pixel's index in the colour cube (channel × 5 / 255, rounded).
    static func indexes(of pixels: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: pixels.count / 3)
        pixels.withUnsafeBufferPointer { source in
            for pixel in 0..<result.count {
                func level(_ value: UInt8) -> Int { (Int(value) * 5 + 127) / 255 }
                result[pixel] = UInt8(level(source[pixel * 3]) * 36 + level(source[pixel * 3 + 1]) * 6 + level(source[pixel * 3 + 2]))
            }
        }
        return result
    }
}

/// GIF's variable-width LZW (codes of 9 to 12 bits, least significant bit
/// first) for 8-bit indexes: clear code 256, end code 257. The string table
/// is an open-addressing hash of (prefix code, next byte).
enum LZWEncoder {
    private static let clearCode = 256
    private static let endCode = 257
    private static let maxCode = 4095
    private static let tableSize = 8_192

    static func encode(_ indexes: [UInt8]) -> [UInt8] {
        var output = BitWriter()
        var keys = [Int32](repeating: -1, count: tableSize)
        var codes = [UInt16](repeating: 0, count: tableSize)
        var nextCode = endCode + 1
        var codeSize = 9

        func emit(_ code: Int) {
            output.write(code, bits: codeSize)
            // Widen once the next code to be assigned no longer fits; the
            // decoder, one entry behind, widens at the same point.
            if nextCode >= 1 << codeSize, codeSize < 12 { codeSize += 1 }
        }
        func slot(for key: Int32) -> Int {
            var index = Int((UInt32(bitPattern: key) &* 2_654_435_761) >> 19) & (tableSize - 1)
            while keys[index] != -1 && keys[index] != key { index = (index + 1) & (tableSize - 1) }
            return index
        }

        emit(clearCode)
        guard var prefix = indexes.first.map(Int.init) else {
            emit(endCode)
            return output.finish()
        }
        for byte in indexes.dropFirst() {
            let key = Int32(prefix << 8 | Int(byte))
            let index = slot(for: key)
            if keys[index] == key {
                prefix = Int(codes[index])
                continue
            }
            emit(prefix)
            prefix = Int(byte)
            if nextCode >= maxCode {
                emit(clearCode)
                for position in keys.indices { keys[position] = -1 }
                nextCode = endCode + 1
                codeSize = 9
            } else {
                keys[index] = key
                codes[index] = UInt16(nextCode)
                nextCode += 1
            }
        }
        emit(prefix)
        emit(endCode)
        return output.finish()
    }
}

/// Packs codes least significant bit first, as GIF wants.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var buffer: UInt32 = 0
    private var count = 0

    mutating func write(_ code: Int, bits: Int) {
        buffer |= UInt32(code) << UInt32(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func finish() -> [UInt8] {
        if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
        return bytes
    }
}
