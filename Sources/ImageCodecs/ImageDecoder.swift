import Foundation

/// The one way in: JPEG, PNG, GIF (first frame) and WebP bytes to RGBA,
/// the format told by the bytes, never by a URL or a file name.
///
/// Thread-safe, like each decoder it calls.
public enum ImageDecoder {
    /// Width and height stored in the file, read from its header.
    public static func dimensions(of data: Data) throws(ImageDecodeError) -> (width: Int, height: Int) {
        switch try format(of: data) {
        case .jpeg: try JPEGDecoder.dimensions(of: data)
        case .png: try PNGDecoder.dimensions(of: data)
        case .gif: try GIFDecoder.dimensions(of: data)
        case .webp: try WebPDecoder.dimensions(of: data)
        }
    }

    /// Decodes `data` to RGBA; `DecodedImage.format` says what it was.
    ///
    /// - Parameter fitting: the box (in pixels) the image will be shown in.
    ///   A JPEG is decoded at the smallest TurboJPEG scale that covers it, a
    ///   lossy WebP scaled by libwebp; a PNG, GIF or lossless WebP within
    ///   `DecodeBudget.pixels(fitting:)` is decoded whole and shrunk by a
    ///   whole factor that still covers it, a larger non-interlaced PNG is
    ///   shrunk row by row as it is read, and the rest is refused as
    ///   `.tooLarge` before anything is allocated. Never upscaled.
    public static func decode(
        _ data: Data, fitting: (width: Int, height: Int)? = nil
    ) throws(ImageDecodeError) -> DecodedImage {
        let budget = DecodeBudget.pixels(fitting: fitting)
        switch try format(of: data) {
        case .jpeg: return try JPEGDecoder.decode(data, fitting: fitting, budget: budget)
        case .png: return try PNGDecoder.decode(data, fitting: fitting, budget: budget)
        case .gif: return ImageShrinker.shrink(try GIFDecoder.decode(data, budget: budget), fitting: fitting)
        case .webp: return try WebPDecoder.decode(data, fitting: fitting, budget: budget)
        }
    }

    /// Checks that `data` is a whole image of one of the four formats: all
    /// of it is decoded (a JPEG at 1/8 scale, a lossy WebP scaled, a PNG and
    /// every GIF frame a row at a time), so a file cut short, with a hole in
    /// it or with a bad checksum is refused, not just one whose first or
    /// last bytes are wrong. Nothing near the image's full size is
    /// allocated except for a lossless WebP or an interlaced PNG, which are
    /// refused above `DecodeBudget.ceilingPixels`.
    ///
    /// - Returns: the format.
    @discardableResult
    public static func validate(_ data: Data) throws(ImageDecodeError) -> ImageFileFormat {
        let format = try format(of: data)
        switch format {
        case .jpeg: try JPEGDecoder.validate(data)
        case .png: try PNGDecoder.validate(data)
        case .gif: try GIFDecoder.validate(data)
        case .webp: try WebPDecoder.validate(data)
        }
        return format
    }

    private static func format(of data: Data) throws(ImageDecodeError) -> ImageFileFormat {
        guard !data.isEmpty else { throw .empty }
        guard let format = ImageFileFormat.sniff(data) else { throw .notAnImage }
        return format
    }
}
