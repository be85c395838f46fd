import CPNG
import CPNGRows
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
    /// as it goes, so a file cut short or damaged fails here. Within
    /// `budget` pixels the image is read whole (libpng's simplified reader)
    /// and shrunk; above it, a non-interlaced image is shrunk row by row as
    /// it is read, into at most `budget` pixels. An interlaced one above it
    /// is refused: its rows come in seven passes spread over the whole
    /// picture, so reading it needs all of it at once.
    static func decode(
        _ data: Data, fitting: (width: Int, height: Int)?, budget: Int
    ) throws(ImageDecodeError) -> DecodedImage {
        let (width, height) = try dimensions(of: data)
        if DecodeBudget.pixelCount(width: width, height: height) <= min(budget, DecodeBudget.ceilingPixels) {
            return ImageShrinker.shrink(try decodeWhole(data), fitting: fitting)
        }
        guard !isInterlaced(data) else { throw .tooLarge(width: width, height: height) }
        let factor = ImageShrinker.factor(
            width: width, height: height, fitting: fitting, budget: min(budget, DecodeBudget.ceilingPixels))
        let shrunkWidth = width / factor
        let shrunkHeight = height / factor
        guard shrunkWidth > 0, shrunkHeight > 0 else { throw .tooLarge(width: width, height: height) }
        var pixels = [UInt8](repeating: 0, count: shrunkWidth * shrunkHeight * 4)
        try data.withImageBytes { raw throws(ImageDecodeError) in
            try readRows(raw, factor: factor, into: &pixels, width: shrunkWidth, height: shrunkHeight)
        }
        return DecodedImage(
            width: shrunkWidth, height: shrunkHeight, rgba: pixels,
            sourceWidth: width, sourceHeight: height, format: .png)
    }

    /// The whole image at its own size, through libpng's simplified reader.
    static func decodeWhole(_ data: Data) throws(ImageDecodeError) -> DecodedImage {
        try withImage(data) { image throws(ImageDecodeError) in
            let width = Int(image.pointee.width)
            let height = Int(image.pointee.height)
            guard DecodeBudget.pixelCount(width: width, height: height) <= DecodeBudget.ceilingPixels else {
                throw .tooLarge(width: width, height: height)
            }
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

    /// The interlace method, the last byte of the IHDR chunk that libpng
    /// has already checked comes first.
    private static func isInterlaced(_ data: Data) -> Bool {
        let offset = data.startIndex + 28
        return data.count > 28 && data[offset] != 0
    }

    /// Reads every row through the C shim (libpng's errors longjmp, which
    /// Swift cannot catch); with no output, rows are only checked.
    private static func readRows(
        _ raw: UnsafeRawBufferPointer, factor: Int, output pixels: UnsafeMutablePointer<UInt8>?,
        width: Int, height: Int
    ) throws(ImageDecodeError) {
        var reason = [CChar](repeating: 0, count: 128)
        let status = reason.withUnsafeMutableBufferPointer { text in
            flickr_png_read_shrunk(
                raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, UInt32(clamping: factor),
                pixels, width, height, text.baseAddress, text.count)
        }
        guard status != 0 else {
            let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .damaged(.png, text.isEmpty ? "unknown error" : text)
        }
    }

    private static func readRows(
        _ raw: UnsafeRawBufferPointer, factor: Int, into pixels: inout [UInt8], width: Int, height: Int
    ) throws(ImageDecodeError) {
        let outcome: Swift.Result<Void, ImageDecodeError> = pixels.withUnsafeMutableBufferPointer { output in
            do throws(ImageDecodeError) {
                return .success(try readRows(raw, factor: factor, output: output.baseAddress, width: width, height: height))
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    /// A PNG's last chunk: length 0, type `IEND`, and its fixed CRC.
    private static let trailer: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Decodes every row, and checks that the file ends with its IEND chunk:
    /// libpng stops once it has the pixels, so a cut in that chunk alone
    /// would not show in the decode.
    ///
    /// Every row is read through one row's memory, whatever the size.
    static func validate(_ data: Data) throws(ImageDecodeError) {
        _ = try dimensions(of: data)
        try data.withImageBytes { raw throws(ImageDecodeError) in
            try readRows(raw, factor: 0, output: nil, width: 0, height: 0)
        }
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
                guard DecodeBudget.pixelCount(width: width, height: height) <= JPEGDecoder.maxPixels else { throw .tooLarge(width: width, height: height) }
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
