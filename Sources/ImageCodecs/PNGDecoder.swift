import CPNG
import Foundation

/// PNG decoding with libpng's simplified API (`png_image_*`), which turns
/// every colour type, bit depth, palette and interlacing into 8-bit RGBA.
///
/// Thread-safe: each call has its own `png_image`.
enum PNGDecoder {
    /// `PNG_FORMAT_RGBA`: a macro built from flags, which Swift does not import.
    private static let rgba = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    static func dimensions(of data: Data) throws(ImageDecodeError) -> (width: Int, height: Int) {
        try withImage(data) { image throws(ImageDecodeError) in
            (Int(image.pointee.width), Int(image.pointee.height))
        }
    }

    /// Decodes every row; libpng checks each chunk's CRC and the IDAT stream
    /// as it goes, so a file cut short or damaged fails here.
    static func decode(_ data: Data) throws(ImageDecodeError) -> DecodedImage {
        try withImage(data) { image throws(ImageDecodeError) in
            let width = Int(image.pointee.width)
            let height = Int(image.pointee.height)
            image.pointee.format = rgba
            // libpng would take 16-bit samples without a gamma chunk for
            // linear light; in practice they are sRGB like 8-bit ones.
            image.pointee.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let finished = pixels.withUnsafeMutableBytes { output in
                png_image_finish_read(image, nil, output.baseAddress, Int32(width * 4), nil)
            }
            guard finished != 0 else { throw .damaged(.png, message(image)) }
            return DecodedImage(
                width: width, height: height, rgba: pixels,
                sourceWidth: width, sourceHeight: height, format: .png)
        }
    }

    /// A PNG's last chunk: length 0, type `IEND`, and its fixed CRC.
    private static let trailer: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Decodes every row, and checks that the file ends with its IEND chunk:
    /// libpng stops once it has the pixels, so a cut in that chunk alone
    /// would not show in the decode.
    static func validate(_ data: Data) throws(ImageDecodeError) {
        _ = try decode(data)
        guard data.suffix(trailer.count).elementsEqual(trailer) else { throw .damaged(.png, "no IEND chunk at the end") }
    }

    /// Reads the header into a `png_image`, checks the size, runs `body`,
    /// and frees what libpng allocated whatever happens.
    private static func withImage<Result>(
        _ data: Data, _ body: (UnsafeMutablePointer<png_image>) throws(ImageDecodeError) -> Result
    ) throws(ImageDecodeError) -> Result {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        return try data.withImageBytes { raw throws(ImageDecodeError) in
                guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                    throw .damaged(.png, message(&image))
                }
                let width = Int(image.width)
                let height = Int(image.height)
                guard width > 0, height > 0 else { throw .damaged(.png, "no image dimensions") }
                guard width * height <= JPEGDecoder.maxPixels else { throw .tooLarge(width: width, height: height) }
                // The memory stays valid: libpng reads it only inside this closure.
                return try withUnsafeMutablePointer(to: &image) { pointer throws(ImageDecodeError) in
                    try body(pointer)
                }
        }
    }

    /// The text libpng left in the image's message buffer.
    private static func message(_ image: UnsafeMutablePointer<png_image>) -> String {
        let text = withUnsafeBytes(of: image.pointee.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unknown error" : text
    }
}
