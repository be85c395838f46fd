import CWebP
import Foundation

/// WebP decoding with libwebp: lossy, lossless and alpha, to RGBA. The
/// decoder needs the whole file (the RIFF size must match), so a file cut
/// short fails.
///
/// A lossy picture is scaled by libwebp while it decodes (it works a few
/// rows at a time), so any size the header may claim costs only the pixels
/// kept. A lossless or animated one is refused above the budget: its
/// decoder holds the whole picture, however small the output.
///
/// Thread-safe: each call has its own decoder configuration.
enum WebPDecoder {
    static func dimensions(of data: Data) throws(ImageDecodeError) -> (width: Int, height: Int) {
        try data.withImageBytes { raw throws(ImageDecodeError) in
            let features = try self.features(of: raw)
            return (Int(features.width), Int(features.height))
        }
    }

    /// Within `budget` pixels, the whole picture shrunk by a whole factor
    /// (as before budgets existed, so small pictures decode as they did);
    /// above it, a lossy picture scaled by libwebp to cover `fitting` within
    /// the budget; anything else is refused.
    static func decode(
        _ data: Data, fitting: (width: Int, height: Int)?, budget: Int
    ) throws(ImageDecodeError) -> DecodedImage {
        let allowed = min(budget, DecodeBudget.ceilingPixels)
        return try data.withImageBytes { raw throws(ImageDecodeError) in
            let features = try features(of: raw)
            let width = Int(features.width)
            let height = Int(features.height)
            if DecodeBudget.pixelCount(width: width, height: height) <= allowed {
                return ImageShrinker.shrink(try decodeWhole(raw, width: width, height: height), fitting: fitting)
            }
            guard isScalable(features) else { throw .tooLarge(width: width, height: height) }
            let factor = ImageShrinker.factor(width: width, height: height, fitting: fitting, budget: allowed)
            return try decodeScaled(raw, width: width, height: height, to: (width / factor, height / factor))
        }
    }

    /// Decodes all of `data` scaled to a few pixels (every block is still
    /// decoded). A lossless picture is held whole inside libwebp, so it is
    /// refused above the ceiling; libwebp's own buffers are touched only as
    /// far as the data goes, so a short file claiming a big size costs
    /// little.
    static func validate(_ data: Data) throws(ImageDecodeError) {
        try data.withImageBytes { raw throws(ImageDecodeError) in
            let features = try features(of: raw)
            let width = Int(features.width)
            let height = Int(features.height)
            guard isScalable(features)
                || DecodeBudget.pixelCount(width: width, height: height) <= DecodeBudget.ceilingPixels
            else {
                throw .tooLarge(width: width, height: height)
            }
            let factor = ImageShrinker.factor(width: width, height: height, fitting: (64, 64))
            _ = try decodeScaled(raw, width: width, height: height, to: (width / factor, height / factor))
        }
    }

    /// Lossy and still: libwebp's VP8 decoder keeps only a few rows.
    private static func isScalable(_ features: WebPBitstreamFeatures) -> Bool {
        features.format == 1 && features.has_animation == 0
    }

    private static func decodeWhole(
        _ raw: UnsafeRawBufferPointer, width: Int, height: Int
    ) throws(ImageDecodeError) -> DecodedImage {
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

    /// libwebp's own scaling while decoding, into a buffer of the scaled size.
    private static func decodeScaled(
        _ raw: UnsafeRawBufferPointer, width: Int, height: Int, to size: (width: Int, height: Int)
    ) throws(ImageDecodeError) -> DecodedImage {
        guard size.width > 0, size.height > 0 else { throw .tooLarge(width: width, height: height) }
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .damaged(.webp, "libwebp could not start") }
        config.options.use_scaling = 1
        config.options.scaled_width = Int32(size.width)
        config.options.scaled_height = Int32(size.height)
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let status = pixels.withUnsafeMutableBufferPointer { output in
            config.output.u.RGBA.rgba = output.baseAddress
            config.output.u.RGBA.stride = Int32(size.width * 4)
            config.output.u.RGBA.size = output.count
            defer { WebPFreeDecBuffer(&config.output) }
            return WebPDecode(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &config)
        }
        guard status == VP8_STATUS_OK else { throw .damaged(.webp, "the image data is cut short or damaged") }
        return DecodedImage(
            width: size.width, height: size.height, rgba: pixels,
            sourceWidth: width, sourceHeight: height, format: .webp)
    }

    private static func features(of raw: UnsafeRawBufferPointer) throws(ImageDecodeError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        guard WebPGetFeatures(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &features)
                == VP8_STATUS_OK
        else {
            throw .damaged(.webp, "unreadable header")
        }
        guard features.width > 0, features.height > 0 else { throw .damaged(.webp, "no image dimensions") }
        let pixels = DecodeBudget.pixelCount(width: Int(features.width), height: Int(features.height))
        guard pixels <= JPEGDecoder.maxPixels else {
            throw .tooLarge(width: Int(features.width), height: Int(features.height))
        }
        return features
    }
}
