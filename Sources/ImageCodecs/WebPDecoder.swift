import CWebP
import Foundation

/// WebP decoding with libwebp: lossy, lossless and alpha, to RGBA. The
/// decoder needs the whole file (the RIFF size must match), so a file cut
/// short fails.
///
/// Thread-safe: libwebp's one-shot decoder keeps no shared state.
enum WebPDecoder {
    static func dimensions(of data: Data) throws(ImageDecodeError) -> (width: Int, height: Int) {
        try data.withImageBytes { raw throws(ImageDecodeError) in
            try size(of: raw)
        }
    }

    static func decode(_ data: Data) throws(ImageDecodeError) -> DecodedImage {
        try data.withImageBytes { raw throws(ImageDecodeError) in
            let (width, height) = try size(of: raw)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let decoded = pixels.withUnsafeMutableBufferPointer { output in
                WebPDecodeRGBAInto(
                    raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count,
                    output.baseAddress, output.count, Int32(width * 4))
            }
            guard decoded != nil else { throw .damaged(.webp, "the image data is cut short or damaged") }
            return DecodedImage(
                width: width, height: height, rgba: pixels,
                sourceWidth: width, sourceHeight: height, format: .webp)
        }
    }

    private static func size(of raw: UnsafeRawBufferPointer) throws(ImageDecodeError) -> (Int, Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        guard WebPGetInfo(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &width, &height) != 0 else {
            throw .damaged(.webp, "unreadable header")
        }
        guard width > 0, height > 0 else { throw .damaged(.webp, "no image dimensions") }
        guard Int(width) * Int(height) <= JPEGDecoder.maxPixels else {
            throw .tooLarge(width: Int(width), height: Int(height))
        }
        return (Int(width), Int(height))
    }
}
