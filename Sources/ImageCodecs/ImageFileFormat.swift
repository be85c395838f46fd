import Foundation

/// The image file formats the decoders read, recognised by their first bytes.
public enum ImageFileFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp

    /// The format whose signature `data` starts with, or nil for anything else.
    public static func sniff(_ data: Data) -> ImageFileFormat? {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if data.starts(with: Array("GIF87a".utf8)) || data.starts(with: Array("GIF89a".utf8)) { return .gif }
        // RIFF, a 4-byte size, then the form type WEBP.
        if data.count >= 12, data.starts(with: Array("RIFF".utf8)),
           data.dropFirst(8).starts(with: Array("WEBP".utf8)) {
            return .webp
        }
        return nil
    }

    /// The name people know the format by.
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .webp: "WebP"
        }
    }

    /// The usual file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .webp: "webp"
        }
    }
}

extension Data {
    /// `withUnsafeBytes` for a body that throws `ImageDecodeError` (the
    /// Foundation method only rethrows untyped errors).
    func withImageBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(ImageDecodeError) -> Result
    ) throws(ImageDecodeError) -> Result {
        let outcome: Swift.Result<Result, ImageDecodeError> = withUnsafeBytes { raw in
            do throws(ImageDecodeError) {
                return .success(try body(raw))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
