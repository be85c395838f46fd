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
    ///
    /// - Parameter shown: the pixels the placement covers on screen (its
    ///   cells times the cell size). The terminal scales the image to
    ///   exactly that, so any pixel beyond it on either side is sent only
    ///   to be thrown away; the picture is resampled to it first (never
    ///   enlarged: a smaller picture is left for the terminal to stretch).
    static func encode(
        rgba: [UInt8], width: Int, height: Int, shown: (width: Int, height: Int)? = nil, budget: Int
    ) -> Payload? {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { return nil }
        var rgb = dropAlpha(rgba, pixels: width * height)
        var size = (width: width, height: height)
        if let shown, shown.width > 0, shown.height > 0 {
            let target = (width: min(width, shown.width), height: min(height, shown.height))
            if target != size {
                rgb = downscale(rgb, from: size, to: target)
                size = target
            }
        }
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

    /// Area-averaging downscale of RGB pixels: each target pixel is the
    /// mean of the source area it covers, partly covered source pixels
    /// weighted by how much of them it covers, so no detail aliases into
    /// noise (which would also compress worse) and a shrink by a few per
    /// cent (400 px into 380) blends neighbours as the terminal's own
    /// scaling would instead of dropping every twentieth pixel.
    static func downscale(
        _ rgb: [UInt8], from source: (width: Int, height: Int), to target: (width: Int, height: Int)
    ) -> [UInt8] {
        guard source.width > 0, source.height > 0, target.width > 0, target.height > 0,
              target.width <= source.width, target.height <= source.height
        else { return rgb }
        let columns = AreaWeights(source: source.width, target: target.width)
        let rows = AreaWeights(source: source.height, target: target.height)
        // Rows first into a narrow buffer of sums, then down the columns.
        var narrow = [UInt32](repeating: 0, count: source.height * target.width * 3)
        rgb.withUnsafeBufferPointer { pixels in
            narrow.withUnsafeMutableBufferPointer { output in
                for y in 0..<source.height {
                    let line = y * source.width * 3
                    let out = y * target.width * 3
                    for x in 0..<target.width {
                        var sums: (UInt32, UInt32, UInt32) = (0, 0, 0)
                        for (index, weight) in columns.taps(x) {
                            let at = line + index * 3
                            sums.0 += UInt32(pixels[at]) * weight
                            sums.1 += UInt32(pixels[at + 1]) * weight
                            sums.2 += UInt32(pixels[at + 2]) * weight
                        }
                        output[out + x * 3] = sums.0
                        output[out + x * 3 + 1] = sums.1
                        output[out + x * 3 + 2] = sums.2
                    }
                }
            }
        }
        var result = [UInt8](repeating: 0, count: target.width * target.height * 3)
        let stride = target.width * 3
        // Both passes weigh in 1/256ths, so the sums carry 2^16 per unit.
        narrow.withUnsafeBufferPointer { input in
            result.withUnsafeMutableBufferPointer { output in
                for y in 0..<target.height {
                    let taps = rows.taps(y)
                    for index in 0..<stride {
                        var sum: UInt64 = 0
                        for (row, weight) in taps { sum += UInt64(input[row * stride + index]) * UInt64(weight) }
                        output[y * stride + index] = UInt8(min(255, (sum + (1 << 15)) >> 16))
                    }
                }
            }
        }
        return result
    }

    /// For each target index along one axis, the source indices it covers
    /// and their weights in 1/256ths, summing to exactly 256.
    struct AreaWeights {
        private var starts: [Int] = []
        private var entries: [(index: Int, weight: UInt32)] = []

        init(source: Int, target: Int) {
            for position in 0..<target {
                starts.append(entries.count)
                // Target pixel `position` covers source [position·s/t, (position+1)·s/t).
                let from = position * source, to = (position + 1) * source
                var given: UInt32 = 0
                var index = from / target
                var taps: [(index: Int, weight: UInt32)] = []
                while index * target < to {
                    let covered = min(to, (index + 1) * target) - max(from, index * target)
                    let weight = UInt32(covered * 256 / source)
                    taps.append((index, weight))
                    given += weight
                    index += 1
                }
                // Rounding leftovers go to the largest share.
                if let largest = taps.indices.max(by: { taps[$0].weight < taps[$1].weight }) {
                    taps[largest].weight += 256 - given
                }
                entries += taps
            }
            starts.append(entries.count)
        }

        func taps(_ position: Int) -> ArraySlice<(index: Int, weight: UInt32)> {
            entries[starts[position]..<starts[position + 1]]
        }
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
