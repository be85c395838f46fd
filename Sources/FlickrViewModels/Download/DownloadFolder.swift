import FlickrKit
import Foundation
import Platform
import ImagePipeline

/// The folder `flickr download` writes into: file names, the check that a
/// file already there is a whole image, and atomic writes.
public struct DownloadFolder: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// Creates the folder if needed and checks that files can be written
    /// there, before any transfer starts.
    ///
    /// - Throws: `DownloadFolderError` with a sentence naming the path.
    public func prepare() throws(DownloadFolderError) {
        let path = url.path
        guard !path.isEmpty else { throw DownloadFolderError(message: "--out is empty: name a folder to write the images to.") }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw DownloadFolderError(message: "Cannot create \(path): \(userMessage(for: error))")
        }
        let probe = url.appendingPathComponent(".flickr-write-check-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: false)
        do {
            try AtomicFile.write(Data(), to: probe)
            try? FileManager.default.removeItem(at: probe)
        } catch {
            throw DownloadFolderError(message: "Cannot write to \(path): \(userMessage(for: error))")
        }
    }

    /// Whether `baseName` is already saved as a whole image under the
    /// extension its bytes call for (a file cut short by an earlier run, or
    /// one whose name does not match its bytes, is fetched again).
    /// The name of the complete image saved as `baseName` with its format's
    /// extension, or nil.
    func completeImage(baseName: String) -> String? {
        ImageFormat.allCases.lazy.map { Self.fileName(baseName, format: $0) }.first { name in
            let target = url.appendingPathComponent(name, isDirectory: false)
            guard let data = try? Data(contentsOf: target, options: .mappedIfSafe),
                  let format = ImageFormat.sniff(data)
            else { return false }
            return name == Self.fileName(baseName, format: format) && ImageFormat.isComplete(data)
        }
    }

    /// Writes under a temporary name and renames, so no reader ever sees half a file.
    func write(_ data: Data, named name: String) throws {
        // Readable like any downloaded file (0644 under the usual umask).
        try AtomicFile.write(data, to: url.appendingPathComponent(name, isDirectory: false), permissions: 0o666)
    }

    /// `{id}_{secret}_{suffix}.jpg` as Flickr names them (the 500 px size has
    /// no suffix); without a secret (other providers) `{id}_{suffix}.jpg`.
    /// The extension is the format's, told by the bytes, never by the URL.
    public static func fileName(for photo: Photo, size: PhotoSize, format: ImageFormat = .jpeg) -> String {
        fileName(baseName(for: photo, size: size), format: format)
    }

    /// The file name without its extension.
    public static func baseName(for photo: Photo, size: PhotoSize) -> String {
        var parts = [safeComponent(photo.id)]
        if !photo.secret.isEmpty { parts.append(safeComponent(photo.secret)) }
        if let suffix = size.urlSuffix { parts.append(suffix) }
        return parts.joined(separator: "_")
    }

    static func fileName(_ baseName: String, format: ImageFormat) -> String {
        baseName + "." + format.fileExtension
    }

    /// Ids and secrets come from the server: keep only characters that cannot
    /// leave the folder or confuse a shell.
    static func safeComponent(_ text: String) -> String {
        let kept = text.utf8.filter { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"): true
            default: false
            }
        }
        return kept.isEmpty ? "unknown" : String(decoding: kept, as: UTF8.self)
    }
}

/// Why the download folder cannot be used.
public struct DownloadFolderError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
