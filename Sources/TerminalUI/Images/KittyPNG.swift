import CZlib

/// A minimal PNG writer (8-bit RGB, no interlace) for kitty's `f=100`.
///
/// PNG is zlib plus a per-row filter that stores each byte as a difference
/// from its neighbours. Photos and gradients are smooth, so the differences
/// are small numbers that deflate packs far better than raw pixels: a
/// 150 px gradient that raw `o=z` leaves at 40 KB becomes about 1 KB.
enum KittyPNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG file of `rgb` (`width × height`, 3 bytes a pixel), or nil if
    /// zlib fails.
    static func encode(rgb: [UInt8], width: Int, height: Int) -> [UInt8]? {
        guard width > 0, height > 0, rgb.count >= width * height * 3 else { return nil }
        guard let compressed = KittyEncoder.compress(filtered(rgb, width: width, height: height)) else { return nil }
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits, truecolour, deflate, adaptive filters, no interlace
        return signature + chunk("IHDR", header) + chunk("IDAT", compressed) + chunk("IEND", [])
    }

    /// Each row prefixed by the filter that makes it smallest by the usual
    /// heuristic (least sum of the differences as signed bytes).
    static func filtered(_ rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        let stride = width * 3
        var output: [UInt8] = []
        output.reserveCapacity((stride + 1) * height)
        var candidate = [UInt8](repeating: 0, count: stride)
        var best = [UInt8](repeating: 0, count: stride)
        rgb.withUnsafeBufferPointer { pixels in
            for row in 0..<height {
                let line = row * stride
                var bestFilter: UInt8 = 0
                var bestCost = Int.max
                for filter in UInt8(0)...4 {
                    var cost = 0
                    for index in 0..<stride {
                        let left = index >= 3 ? Int(pixels[line + index - 3]) : 0
                        let up = row > 0 ? Int(pixels[line - stride + index]) : 0
                        let upLeft = row > 0 && index >= 3 ? Int(pixels[line - stride + index - 3]) : 0
                        let value = Int(pixels[line + index])
                        let predicted: Int
                        switch filter {
                        case 1: predicted = left
                        case 2: predicted = up
                        case 3: predicted = (left + up) / 2
                        case 4: predicted = paeth(left, up, upLeft)
                        default: predicted = 0
                        }
                        let byte = UInt8(truncatingIfNeeded: value - predicted)
                        candidate[index] = byte
                        cost += Int(Int8(bitPattern: byte).magnitude)
                    }
                    if cost < bestCost {
                        bestCost = cost
                        bestFilter = filter
                        swap(&best, &candidate)
                    }
                }
                output.append(bestFilter)
                output += best
            }
        }
        return output
    }

    static func paeth(_ left: Int, _ up: Int, _ upLeft: Int) -> Int {
        let estimate = left + up - upLeft
        let toLeft = abs(estimate - left)
        let toUp = abs(estimate - up)
        let toUpLeft = abs(estimate - upLeft)
        if toLeft <= toUp && toLeft <= toUpLeft { return left }
        return toUp <= toUpLeft ? up : upLeft
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let body = typeBytes + data
        let checksum = body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(UInt32(truncatingIfNeeded: checksum))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
