import CZlib

/// Turns decoded pixels into a kitty payload that fits a byte budget: a
/// PNG of the RGB pixels (photos have no transparency), whose row filters
/// make smooth pictures far smaller than zlib on raw pixels (`o=z`).
///
/// The terminal scales an image into the cells of its placement, so when a
/// picture does not compress into the budget it is sent with fewer pixels
/// rather than more bytes: a page must not stall an ssh session or tmux.
enum KittyEncoder {
    struct Payload: Sendable, Equatable {
        /// A PNG file of `width × height` pixels.
        var bytes: [UInt8]
        var width: Int
        var height: Int
    }

    /// Budget for an image of `cells` terminal cells, in compressed bytes
    /// (base64 adds a third on the wire). A thumbnail gets 20 KiB, so a page
    /// of 30 stays under 1 MiB whatever the photos hold; a large view
    /// (`/open`) gets up to 256 KiB, since it is one image at a time.
    static func budget(cells: Int) -> Int {
        cells <= 1_000 ? 20 << 10 : min(256 << 10, max(20 << 10, cells * 64))
    }

    /// The pixels of `rgba` (`width × height`, 4 bytes each) as a PNG of at
    /// most `budget` bytes, downscaled as often as needed (never below 8
    /// pixels a side). Nil if zlib fails (out of memory).
    static func encode(rgba: [UInt8], width: Int, height: Int, budget: Int) -> Payload? {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { return nil }
        var rgb = dropAlpha(rgba, pixels: width * height)
        var size = (width: width, height: height)
        for _ in 0..<6 {
            guard let compressed = KittyPNG.encode(rgb: rgb, width: size.width, height: size.height) else {
                return nil
            }
            let smallest = size.width <= 8 || size.height <= 8
            if compressed.count <= budget || smallest {
                return Payload(bytes: compressed, width: size.width, height: size.height)
            }
            // Compressed size grows about with the pixel count; aim a little low.
            let scale = min(0.9, (Double(budget) / Double(compressed.count)).squareRoot() * 0.92)
            let next = (width: max(8, Int(Double(size.width) * scale)), height: max(8, Int(Double(size.height) * scale)))
            rgb = downscale(rgb, from: size, to: next)
            size = next
        }
        return KittyPNG.encode(rgb: rgb, width: size.width, height: size.height).map {
            Payload(bytes: $0, width: size.width, height: size.height)
        }
    }

    static func dropAlpha(_ rgba: [UInt8], pixels: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: pixels * 3)
        rgba.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for pixel in 0..<pixels {
                    target[pixel * 3] = source[pixel * 4]
                    target[pixel * 3 + 1] = source[pixel * 4 + 1]
                    target[pixel * 3 + 2] = source[pixel * 4 + 2]
                }
            }
        }
        return rgb
    }

    /// Area-averaging downscale of RGB pixels: every source pixel counts
    /// toward the target pixel it falls in, so no detail aliases into noise
    /// (which would also compress worse).
    static func downscale(
        _ rgb: [UInt8], from source: (width: Int, height: Int), to target: (width: Int, height: Int)
    ) -> [UInt8] {
        var sums = [UInt32](repeating: 0, count: target.width * target.height * 3)
        var counts = [UInt32](repeating: 0, count: target.width * target.height)
        for y in 0..<source.height {
            let targetY = y * target.height / source.height
            for x in 0..<source.width {
                let targetX = x * target.width / source.width
                let from = (y * source.width + x) * 3
                let to = targetY * target.width + targetX
                sums[to * 3] += UInt32(rgb[from])
                sums[to * 3 + 1] += UInt32(rgb[from + 1])
                sums[to * 3 + 2] += UInt32(rgb[from + 2])
                counts[to] += 1
            }
        }
        var result = [UInt8](repeating: 0, count: sums.count)
        for index in 0..<counts.count where counts[index] > 0 {
            let count = counts[index]
            for channel in 0..<3 {
                result[index * 3 + channel] = UInt8((sums[index * 3 + channel] + count / 2) / count)
            }
        }
        return result
    }

    /// A zlib stream (RFC 1950) of `bytes`, as PNG's data and `o=z` expect.
    static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { return nil }
        output.removeLast(output.count - Int(length))
        return output
    }

    /// The bytes of a zlib stream, or nil if it is not one (tests use this
    /// to check what the terminal would decode).
    static func decompress(_ bytes: [UInt8], expectedCount: Int) -> [UInt8]? {
        var length = uLong(expectedCount)
        var output = [UInt8](repeating: 0, count: max(1, expectedCount))
        let status = output.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                uncompress(target.baseAddress, &length, source.baseAddress, uLong(source.count))
            }
        }
        guard status == Z_OK, Int(length) == expectedCount else { return nil }
        return Array(output.prefix(expectedCount))
    }
}
