import CWebP

/// Lossy WebP through libwebp's simple encoding API.
enum WebPEncoder {
    enum EncodeError: Error { case failed }

    static func encode(rgb pixels: [UInt8], width: Int, height: Int, quality: Float = 80) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let length = pixels.withUnsafeBufferPointer { source in
            WebPEncodeRGB(source.baseAddress, Int32(width), Int32(height), Int32(width * 3), quality, &output)
        }
        defer { if let output { WebPFree(output) } }
        guard length > 0, let output else { throw EncodeError.failed }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
