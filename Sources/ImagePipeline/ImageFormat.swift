import Foundation

/// The image formats the pipeline accepts, recognised by their signature bytes.
public enum ImageFormat: String, Sendable {
    case jpeg, png, gif

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// A PNG's last chunk: length 0, type `IEND`, and its fixed CRC.
    private static let pngTrailer: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// The format whose signature `data` starts with, or `nil` when it is none of them.
    public static func sniff(_ data: Data) -> ImageFormat? {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if data.starts(with: pngSignature) { return .png }
        if data.starts(with: Array("GIF87a".utf8)) || data.starts(with: Array("GIF89a".utf8)) { return .gif }
        return nil
    }

    /// Whether `data` is a whole JPEG, PNG or GIF (signature and end marker).
    public static func isComplete(_ data: Data) -> Bool {
        if case .success = validate(data) { return true }
        return false
    }

    /// Checks that `data` is a whole image: a known signature, and the format's
    /// end marker, so a body cut short is caught before anyone caches or shows it.
    ///
    /// - Returns: the format, or a reason a person can read.
    static func validate(_ data: Data) -> Result<ImageFormat, ImageLoadError> {
        guard let format = sniff(data) else {
            if data.isEmpty { return .failure(.invalidImage("the response was empty")) }
            return .failure(.invalidImage("the bytes are not a JPEG, PNG or GIF (\(data.count) bytes)"))
        }
        switch format {
        case .jpeg:
            guard data.count >= 4, data.suffix(2).elementsEqual([0xFF, 0xD9]) else {
                return .failure(.invalidImage("the JPEG is truncated (no end-of-image marker)"))
            }
        case .png:
            guard data.count >= pngSignature.count + pngTrailer.count, data.suffix(pngTrailer.count).elementsEqual(pngTrailer) else {
                return .failure(.invalidImage("the PNG is truncated (no IEND chunk)"))
            }
        case .gif:
            guard data.count > 13, data.last == 0x3B else {
                return .failure(.invalidImage("the GIF is truncated (no trailer)"))
            }
        }
        return .success(format)
    }
}
