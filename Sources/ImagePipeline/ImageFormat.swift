import Foundation
import ImageCodecs

/// The image formats the pipeline accepts, recognised by their signature bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp

    /// The format whose signature `data` starts with, or `nil` when it is none of them.
    public static func sniff(_ data: Data) -> ImageFormat? {
        ImageFileFormat.sniff(data).map(ImageFormat.init)
    }

    /// The extension a file of this format is saved under, without the dot.
    public var fileExtension: String { ImageFileFormat(self).fileExtension }

    /// Whether `data` is a whole JPEG, PNG, GIF or WebP.
    public static func isComplete(_ data: Data) -> Bool {
        if case .success = validate(data) { return true }
        return false
    }

    /// Checks that `data` is a whole image by decoding all of it (a JPEG at
    /// 1/8 scale, which still reads every byte of the scan), so a body cut
    /// short, with a hole, or with a bad checksum is caught before anyone
    /// caches, saves or shows it.
    ///
    /// - Returns: the format, or a reason a person can read.
    static func validate(_ data: Data) -> Result<ImageFormat, ImageLoadError> {
        guard let format = sniff(data) else {
            if data.isEmpty { return .failure(.invalidImage("the response was empty")) }
            return .failure(.invalidImage("the bytes are not a JPEG, PNG, GIF or WebP (\(data.count) bytes)"))
        }
        do {
            try ImageDecoder.validate(data)
        } catch {
            let name = ImageFileFormat(format).name
            if error == .truncated { return .failure(.invalidImage("the \(name) is truncated")) }
            return .failure(.invalidImage("the \(name) does not decode (\(error))"))
        }
        return .success(format)
    }
}

extension ImageFormat {
    init(_ format: ImageFileFormat) {
        switch format {
        case .jpeg: self = .jpeg
        case .png: self = .png
        case .gif: self = .gif
        case .webp: self = .webp
        }
    }
}

extension ImageFileFormat {
    init(_ format: ImageFormat) {
        switch format {
        case .jpeg: self = .jpeg
        case .png: self = .png
        case .gif: self = .gif
        case .webp: self = .webp
        }
    }
}
