import CTurboJPEG
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Synthesises each photo's JPEGs: a per-photo sky and ground gradient, a
/// sun and a hill or tower, drawn in relative coordinates so every size of
/// one photo shows the same picture and different photos look different.
/// Encoded bytes are kept in a byte-bounded LRU, so repeats cost a lookup.
final class ImageRenderer: Sendable {
    enum RenderError: Error { case encoder(String) }

    private struct Entry {
        var bytes: ByteBuffer
        var lastUse: UInt64
    }

    private struct Cache {
        var entries: [String: Entry] = [:]
        var totalBytes = 0
        var clock: UInt64 = 0
    }

    private let seed: UInt64
    private let byteLimit: Int
    private let cache = NIOLockedValueBox(Cache())

    init(seed: UInt64, byteLimit: Int = 64 << 20) {
        self.seed = seed
        self.byteLimit = byteLimit
    }

    /// The JPEG of one size of `photo`, from the cache or freshly encoded.
    func jpeg(for photo: CatalogPhoto, size: SandboxImageSize) throws -> ByteBuffer {
        let (width, height) = photo.dimensions(size)
        return try jpeg(for: photo, width: width, height: height, variant: size.rawValue)
    }

    /// The picture of `photo` at any pixel size; `variant` names the size in the cache.
    func jpeg(for photo: CatalogPhoto, width: Int, height: Int, variant: String) throws -> ByteBuffer {
        try image(for: photo, width: width, height: height, variant: variant, format: .jpeg)
    }

    /// The picture of `photo` in any of the sandbox's formats.
    func image(
        for photo: CatalogPhoto, width: Int, height: Int, variant: String, format: SandboxImageFormat
    ) throws -> ByteBuffer {
        let key = format == .jpeg ? "\(photo.index)/\(variant)" : "\(photo.index)/\(variant).\(format.rawValue)"
        let cached = cache.withLockedValue { cache -> ByteBuffer? in
            guard var entry = cache.entries[key] else { return nil }
            cache.clock += 1
            entry.lastUse = cache.clock
            cache.entries[key] = entry
            return entry.bytes
        }
        if let cached { return cached }
        let pixels = Self.paint(width: width, height: height, scene: Scene(photo: photo, seed: seed))
        let bytes: ByteBuffer
        switch format {
        case .jpeg: bytes = try Self.encode(pixels, width: width, height: height)
        case .png: bytes = ByteBuffer(bytes: try PNGEncoder.encode(rgb: pixels, width: width, height: height))
        case .gif: bytes = ByteBuffer(bytes: GIFEncoder.encode(rgb: pixels, width: width, height: height))
        case .webp: bytes = ByteBuffer(bytes: try WebPEncoder.encode(rgb: pixels, width: width, height: height))
        }
        store(bytes, key: key)
        return bytes
    }

    private func store(_ bytes: ByteBuffer, key: String) {
        cache.withLockedValue { cache in
            cache.clock += 1
            if let old = cache.entries.updateValue(Entry(bytes: bytes, lastUse: cache.clock), forKey: key) {
                cache.totalBytes -= old.bytes.readableBytes
            }
            cache.totalBytes += bytes.readableBytes
            guard cache.totalBytes > byteLimit else { return }
            // Evict in one batch down to 3/4 of the limit: amortised, no per-hit list upkeep.
            let oldestFirst = cache.entries.sorted { $0.value.lastUse < $1.value.lastUse }
            for (oldKey, entry) in oldestFirst where cache.totalBytes > byteLimit * 3 / 4 {
                cache.entries[oldKey] = nil
                cache.totalBytes -= entry.bytes.readableBytes
            }
        }
    }

    /// What one photo's picture is made of, in relative coordinates (0...1).
    struct Scene {
        var skyTop: (Int, Int, Int)
        var skyBottom: (Int, Int, Int)
        var groundTop: (Int, Int, Int)
        var groundBottom: (Int, Int, Int)
        var sun: (Int, Int, Int)
        var shape: (Int, Int, Int)
        var horizon: Double
        var sunX: Double
        var sunY: Double
        var sunRadius: Double
        var shapeIsTower: Bool
        var shapeX: Double
        var shapeWidth: Double
        var shapeHeight: Double

        init(photo: CatalogPhoto, seed: UInt64) {
            var random = SplitMix64(seed: StableHash.hash(photo.id, seed: seed))
            func color(_ minimum: Int, _ maximum: Int) -> (Int, Int, Int) {
                (minimum + random.below(maximum - minimum), minimum + random.below(maximum - minimum),
                 minimum + random.below(maximum - minimum))
            }
            skyTop = color(20, 200)
            skyBottom = color(120, 255)
            groundTop = color(30, 180)
            groundBottom = color(0, 90)
            sun = color(180, 255)
            shape = color(0, 120)
            horizon = 0.45 + random.unit() * 0.3
            sunX = 0.1 + random.unit() * 0.8
            sunY = 0.1 + random.unit() * (horizon - 0.15)
            sunRadius = 0.05 + random.unit() * 0.12
            shapeIsTower = random.chance(0.4)
            shapeX = 0.05 + random.unit() * 0.7
            shapeWidth = 0.08 + random.unit() * (shapeIsTower ? 0.1 : 0.4)
            shapeHeight = 0.15 + random.unit() * 0.3
        }
    }

    /// Paints the scene as packed RGB.
    static func paint(width: Int, height: Int, scene: Scene) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let horizonRow = Int(scene.horizon * Double(height))
        let sunCenterX = scene.sunX * Double(width)
        let sunCenterY = scene.sunY * Double(height)
        let sunRadius = scene.sunRadius * Double(min(width, height))
        let shapeLeft = scene.shapeX * Double(width)
        let shapeRight = shapeLeft + scene.shapeWidth * Double(width)
        let shapeTop = scene.horizon - scene.shapeHeight
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<height {
                let isSky = row < horizonRow
                let t = isSky
                    ? Double(row) / Double(max(1, horizonRow))
                    : Double(row - horizonRow) / Double(max(1, height - horizonRow))
                let top = isSky ? scene.skyTop : scene.groundTop
                let bottom = isSky ? scene.skyBottom : scene.groundBottom
                let red = UInt8(Double(top.0) + (Double(bottom.0) - Double(top.0)) * t)
                let green = UInt8(Double(top.1) + (Double(bottom.1) - Double(top.1)) * t)
                let blue = UInt8(Double(top.2) + (Double(bottom.2) - Double(top.2)) * t)
                fillRow(buffer, row: row, width: width, color: (red, green, blue))
                let y = Double(row)
                // Sun: a disc, only above the horizon.
                let dy = y - sunCenterY
                if isSky, abs(dy) < sunRadius {
                    let half = (sunRadius * sunRadius - dy * dy).squareRoot()
                    fill(buffer, row: row, width: width, from: sunCenterX - half, to: sunCenterX + half, color: scene.sun)
                }
                // A tower (rectangle) or a hill (triangle) standing on the horizon.
                let relative = y / Double(height)
                if relative >= shapeTop && row < horizonRow + 1 {
                    if scene.shapeIsTower {
                        fill(buffer, row: row, width: width, from: shapeLeft, to: shapeRight, color: scene.shape)
                    } else {
                        let progress = (relative - shapeTop) / max(0.001, scene.shapeHeight)
                        let middle = (shapeLeft + shapeRight) / 2
                        let half = (shapeRight - shapeLeft) / 2 * progress
                        fill(buffer, row: row, width: width, from: middle - half, to: middle + half, color: scene.shape)
                    }
                }
            }
        }
        return pixels
    }

    private static func fillRow(
        _ buffer: UnsafeMutableBufferPointer<UInt8>, row: Int, width: Int, color: (UInt8, UInt8, UInt8)
    ) {
        fillSpan(buffer, at: row * width, count: width, color: color)
    }

    private static func fill(
        _ buffer: UnsafeMutableBufferPointer<UInt8>, row: Int, width: Int, from: Double, to: Double,
        color: (Int, Int, Int)
    ) {
        let first = max(0, Int(from))
        let last = min(width - 1, Int(to))
        guard first <= last else { return }
        fillSpan(buffer, at: row * width + first, count: last - first + 1,
                 color: (UInt8(color.0), UInt8(color.1), UInt8(color.2)))
    }

    /// `count` pixels of one colour from pixel `at`: the first pixel, then
    /// doubling copies (originals reach 24 megapixels, and a per-pixel loop
    /// is slow in debug builds).
    private static func fillSpan(
        _ buffer: UnsafeMutableBufferPointer<UInt8>, at pixel: Int, count: Int, color: (UInt8, UInt8, UInt8)
    ) {
        guard let base = buffer.baseAddress, count > 0 else { return }
        let start = base + pixel * 3
        start[0] = color.0
        start[1] = color.1
        start[2] = color.2
        let total = count * 3
        var filled = 3
        while filled < total {
            let chunk = min(filled, total - filled)
            (start + filled).update(from: start, count: chunk)
            filled += chunk
        }
    }

    /// Baseline JPEG, quality 80, 4:2:0, through TurboJPEG.
    static func encode(_ pixels: [UInt8], width: Int, height: Int) throws -> ByteBuffer {
        guard let handle = tjInitCompress() else { throw RenderError.encoder("tjInitCompress failed") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(handle, source.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                        &output, &length, Int32(TJSAMP_420.rawValue), 80, TJFLAG_FASTDCT)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw RenderError.encoder(String(cString: tjGetErrorStr2(handle)))
        }
        return ByteBuffer(bytes: UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
