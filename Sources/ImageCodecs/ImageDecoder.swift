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
    ///   A JPEG is decoded at the smallest TurboJPEG scale that covers it;
    ///   the other formats are decoded whole and then shrunk by a whole
    ///   factor that still covers it, so the renderer never works on many
    ///   times the pixels it shows. Never upscaled.
    public static func decode(
        _ data: Data, fitting: (width: Int, height: Int)? = nil
    ) throws(ImageDecodeError) -> DecodedImage {
        let full: DecodedImage
        switch try format(of: data) {
        case .jpeg: return try JPEGDecoder.decode(data, fitting: fitting)
        case .png: full = try PNGDecoder.decode(data)
        case .gif: full = try GIFDecoder.decode(data)
        case .webp: full = try WebPDecoder.decode(data)
        }
        return ImageShrinker.shrink(full, fitting: fitting)
    }

    /// Checks that `data` is a whole image of one of the four formats: all
    /// of it is decoded (a JPEG at 1/8 scale), so a file cut short, with a
    /// hole in it or with a bad checksum is refused, not just one whose
    /// first or last bytes are wrong.
    ///
    /// - Returns: the format.
    @discardableResult
    public static func validate(_ data: Data) throws(ImageDecodeError) -> ImageFileFormat {
        let format = try format(of: data)
        switch format {
        case .jpeg: try JPEGDecoder.validate(data)
        case .png: try PNGDecoder.validate(data)
        case .gif: _ = try GIFDecoder.decode(data)
        case .webp: _ = try WebPDecoder.decode(data)
        }
        return format
    }

    private static func format(of data: Data) throws(ImageDecodeError) -> ImageFileFormat {
        guard !data.isEmpty else { throw .empty }
        guard let format = ImageFileFormat.sniff(data) else { throw .notAnImage }
        return format
    }
}
