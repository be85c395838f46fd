import CTurboJPEG
import Foundation

/// Decoded pixels, 8-bit RGBA (unassociated alpha, always opaque for JPEG),
/// rows packed with no padding.
public struct DecodedImage: Sendable {
    /// Decoded size (after scaling).
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes.
    public let rgba: [UInt8]
    /// Size stored in the file, before the scaled decode.
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// The file format the pixels came from; nil for pixels made in memory.
    public let format: ImageFileFormat?

    public init(
        width: Int, height: Int, rgba: [UInt8], sourceWidth: Int, sourceHeight: Int,
        format: ImageFileFormat? = nil
    ) {
        self.width = width
        self.height = height
        self.rgba = rgba
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.format = format
    }
}

/// Why image bytes could not be turned into pixels. The description is shown
/// in the failed cell, so it is short and says what was wrong.
public enum ImageDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// A valid image of a kind we do not decode (PNG, GIF, …).
    case unsupportedFormat(String)
    /// Not an image: no JPEG signature.
    case notJPEG
    /// A JPEG that ends early, typically a transfer that was cut short.
    case truncated
    /// A JPEG libjpeg-turbo rejected; the associated text is its reason.
    case corrupt(String)
    /// Dimensions beyond what we are willing to allocate for.
    case tooLarge(width: Int, height: Int)
    /// None of the formats `ImageDecoder` reads (JPEG, PNG, GIF, WebP).
    case notAnImage
    /// A PNG, GIF or WebP its library rejected (cut short or damaged); the
    /// text is the library's reason.
    case damaged(ImageFileFormat, String)

    public var description: String {
        switch self {
        case .empty: "empty image data"
        case .unsupportedFormat(let format): "\(format) images are not supported"
        case .notJPEG: "not a JPEG image"
        case .truncated: "truncated JPEG"
        case .corrupt(let reason): "corrupt JPEG: \(reason)"
        case .tooLarge(let width, let height): "image too large (\(width)×\(height))"
        case .notAnImage: "not a JPEG, PNG, GIF or WebP image"
        case .damaged(let format, let reason): "damaged \(format.name): \(reason)"
        }
    }
}

/// JPEG decoding with TurboJPEG (libjpeg-turbo 2.1's `tj*` API).
///
/// Thread-safe: each thread uses its own decompressor handle (TurboJPEG
/// handles must not be shared between concurrent calls), created on first
/// use and destroyed when the thread exits.
public enum JPEGDecoder {
    /// Largest pixel count a header may claim (64 Mpx): TurboJPEG scales
    /// while decoding, so a large JPEG costs only its scaled pixels, but
    /// larger claims are refused outright. The pixels kept are bounded by
    /// `DecodeBudget`.
    public static let maxPixels = 64 << 20

    /// Width and height stored in the JPEG header, without decoding pixels.
    public static func dimensions(of data: Data) throws(ImageDecodeError) -> (width: Int, height: Int) {
        let header = try withJPEGBytes(data) { handle, bytes throws(ImageDecodeError) in
            try readHeader(handle: handle, bytes: bytes)
        }
        return (header.width, header.height)
    }

    /// Decodes `data` to RGBA.
    ///
    /// - Parameter fitting: the box (in pixels) the image will be shown in,
    ///   keeping its aspect. The decode uses the smallest TurboJPEG scale
    ///   factor whose output still covers the fitted size, which is much
    ///   cheaper than decoding at full size and downscaling. Nil or a box
    ///   larger than the image: full size (never upscaled).
    ///   When that would still be more than `budget` pixels, the largest
    ///   smaller factor within it is used; when none is, the file is
    ///   refused before any pixel is allocated.
    public static func decode(
        _ data: Data, fitting: (width: Int, height: Int)? = nil,
        budget: Int = DecodeBudget.ceilingPixels
    ) throws(ImageDecodeError) -> DecodedImage {
        try withJPEGBytes(data) { handle, bytes throws(ImageDecodeError) in
            let header = try readHeader(handle: handle, bytes: bytes)
            let wanted = scalingFactor(
                width: header.width, height: header.height, fitting: fitting)
            let within = reducingFactors.last {
                $0.num * wanted.denom <= wanted.num * $0.denom
                    && DecodeBudget.pixelCount(width: scaled(header.width, $0), height: scaled(header.height, $0))
                        <= min(budget, DecodeBudget.ceilingPixels)
            }
            guard let factor = within else { throw .tooLarge(width: header.width, height: header.height) }
            let width = scaled(header.width, factor)
            let height = scaled(header.height, factor)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let flags = TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE
            let status = pixels.withUnsafeMutableBufferPointer { output in
                tjDecompress2(
                    handle, bytes.baseAddress, UInt(bytes.count), output.baseAddress,
                    Int32(width), Int32(width * 4), Int32(height),
                    Int32(TJPF_RGBA.rawValue), flags)
            }
            if status != 0 {
                try checkDecompressFailure(handle: handle)
            }
            return DecodedImage(
                width: width, height: height, rgba: pixels,
                sourceWidth: header.width, sourceHeight: header.height, format: .jpeg)
        }
    }

    /// Checks that `data` is a whole JPEG by decoding all of it at the
    /// smallest scale (1/8: every coefficient is still read, so a cut or a
    /// hole shows, but almost no pixels are made). Unlike `decode`, any
    /// warning fails: a JPEG whose middle is missing only warns.
    public static func validate(_ data: Data) throws(ImageDecodeError) {
        try withJPEGBytes(data) { handle, bytes throws(ImageDecodeError) in
            let header = try readHeader(handle: handle, bytes: bytes)
            let factor = reducingFactors[0]
            let width = scaled(header.width, factor)
            let height = scaled(header.height, factor)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let flags = TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE | TJFLAG_STOPONWARNING
            let status = pixels.withUnsafeMutableBufferPointer { output in
                tjDecompress2(
                    handle, bytes.baseAddress, UInt(bytes.count), output.baseAddress,
                    Int32(width), Int32(width * 4), Int32(height),
                    Int32(TJPF_RGBA.rawValue), flags)
            }
            if status != 0 { throw classify(message: errorMessage(handle)) }
        }
    }

    // MARK: - Scaling

    /// A TurboJPEG scale factor `num/denom`.
    struct ScaleFactor: Equatable {
        var num: Int
        var denom: Int
    }

    /// The scale factors this libjpeg-turbo supports that shrink or keep the
    /// size (it also offers enlargements, which we never want), smallest first.
    static let reducingFactors: [ScaleFactor] = {
        var count: Int32 = 0
        guard let list = tjGetScalingFactors(&count), count > 0 else {
            return [ScaleFactor(num: 1, denom: 1)]
        }
        var factors: [ScaleFactor] = []
        for index in 0..<Int(count) {
            let factor = ScaleFactor(num: Int(list[index].num), denom: Int(list[index].denom))
            if factor.num > 0, factor.denom > 0, factor.num <= factor.denom {
                factors.append(factor)
            }
        }
        factors.sort { $0.num * $1.denom < $1.num * $0.denom }
        return factors.isEmpty ? [ScaleFactor(num: 1, denom: 1)] : factors
    }()

    /// TurboJPEG's `TJSCALED`: the scaled dimension, rounded up.
    static func scaled(_ dimension: Int, _ factor: ScaleFactor) -> Int {
        (dimension * factor.num + factor.denom - 1) / factor.denom
    }

    /// The smallest factor whose output covers `width×height` fitted into
    /// `fitting` keeping aspect, i.e. both scaled sides are at least the
    /// fitted sides.
    static func scalingFactor(
        width: Int, height: Int, fitting: (width: Int, height: Int)?
    ) -> ScaleFactor {
        let full = ScaleFactor(num: 1, denom: 1)
        guard let fitting, fitting.width > 0, fitting.height > 0, width > 0, height > 0 else {
            return full
        }
        let fit = min(Double(fitting.width) / Double(width), Double(fitting.height) / Double(height))
        guard fit < 1 else { return full }
        let neededWidth = Int((Double(width) * fit).rounded(.up))
        let neededHeight = Int((Double(height) * fit).rounded(.up))
        return reducingFactors.first {
            scaled(width, $0) >= neededWidth && scaled(height, $0) >= neededHeight
        } ?? full
    }

    // MARK: - TurboJPEG plumbing

    private struct Header {
        var width: Int
        var height: Int
    }

    private static func readHeader(
        handle: tjhandle, bytes: UnsafeBufferPointer<UInt8>
    ) throws(ImageDecodeError) -> Header {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            handle, bytes.baseAddress, UInt(bytes.count),
            &width, &height, &subsampling, &colorspace)
        guard status == 0 else {
            throw classify(message: errorMessage(handle))
        }
        guard width > 0, height > 0 else { throw .corrupt("no image dimensions") }
        guard DecodeBudget.pixelCount(width: Int(width), height: Int(height)) <= maxPixels else {
            throw .tooLarge(width: Int(width), height: Int(height))
        }
        return Header(width: Int(width), height: Int(height))
    }

    /// After a non-zero `tjDecompress2`: a warning about the data ending
    /// early is a truncated file (the rest of the picture would be grey);
    /// other warnings (stray bytes between markers and the like) leave a
    /// usable image, so they are accepted. Fatal errors always fail.
    private static func checkDecompressFailure(handle: tjhandle) throws(ImageDecodeError) {
        let message = errorMessage(handle)
        let isWarning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
        let error = classify(message: message)
        if isWarning, error != .truncated { return }
        throw error
    }

    private static func classify(message: String) -> ImageDecodeError {
        let lowered = message.lowercased()
        if lowered.contains("premature end") || lowered.contains("truncated") {
            return .truncated
        }
        return .corrupt(message.isEmpty ? "unknown error" : message)
    }

    private static func errorMessage(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "" }
        return String(cString: text)
    }

    /// Checks the signature, then runs `body` with this thread's handle and
    /// the bytes. Non-JPEG data is refused before TurboJPEG sees it, so the
    /// reason names the format when we recognise it.
    private static func withJPEGBytes<Result>(
        _ data: Data,
        _ body: (tjhandle, UnsafeBufferPointer<UInt8>) throws(ImageDecodeError) -> Result
    ) throws(ImageDecodeError) -> Result {
        guard !data.isEmpty else { throw .empty }
        guard data.count >= 3, data[data.startIndex] == 0xFF,
              data[data.startIndex + 1] == 0xD8, data[data.startIndex + 2] == 0xFF
        else {
            if let format = recognisedFormat(data) { throw .unsupportedFormat(format) }
            throw .notJPEG
        }
        guard let handle = DecompressorHandle.current() else {
            throw .corrupt("TurboJPEG could not be initialised")
        }
        let outcome: Swift.Result<Result, ImageDecodeError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            do throws(ImageDecodeError) {
                return .success(try body(handle, bytes))
            } catch {
                return .failure(error)
            }
        }
        if case .failure = outcome {
            // A failed decode can leave the handle mid-stream, and the next
            // image on this thread would then fail too: start afresh.
            DecompressorHandle.discardCurrent()
        }
        return try outcome.get()
    }

    private static func recognisedFormat(_ data: Data) -> String? {
        let prefix = [UInt8](data.prefix(8))
        if prefix.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "PNG" }
        if prefix.starts(with: Array("GIF8".utf8)) { return "GIF" }
        if prefix.count >= 4, prefix.starts(with: Array("RIFF".utf8)) { return "WebP" }
        return nil
    }
}

/// One TurboJPEG decompressor per thread, kept in thread-local storage.
private enum DecompressorHandle {
    /// The key's destructor frees a thread's handle when the thread exits.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { handle in
            if let handle { tjDestroy(handle) }
        }
        return status == 0 ? key : nil
    }()

    static func discardCurrent() {
        guard let key, let existing = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        tjDestroy(existing)
    }

    static func current() -> tjhandle? {
        guard let key else { return nil }
        if let existing = pthread_getspecific(key) { return existing }
        guard let handle = tjInitDecompress() else { return nil }
        guard pthread_setspecific(key, handle) == 0 else {
            tjDestroy(handle)
            return nil
        }
        return handle
    }
}
