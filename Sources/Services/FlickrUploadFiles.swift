import Foundation
import ImageCodecs
import PhotoCore
import Platform

/// What `flickr upload FILE|FOLDER…` sends: each file named, as named, and
/// the images of each folder named.
///
/// A file named on the command line is sent whatever it holds: the person
/// chose it, and Flickr judges it (it takes more than the four formats
/// below, videos too). A folder gives its JPEG, PNG, GIF and WebP files,
/// recognised by their first bytes, not their names (a `.jpg` that is text
/// is skipped, a photo without an extension is sent), in name order; the
/// rest is skipped and counted. Folders inside a folder are not searched
/// (skipped and counted): a photographer's folder of exports is flat, and
/// sending a whole tree by one slip is worse than naming each folder.
public enum FlickrUploadFiles {
    public enum Entry: Sendable, Equatable {
        /// A file to send: its path and its length in bytes.
        case file(path: String, length: Int)
        case skipped(path: String, reason: String)
        /// A named path that cannot be sent, with the sentence why.
        case missing(path: String, reason: String)
    }

    static let notAnImage = "not a JPEG, PNG, GIF or WebP image"
    static let innerFolder = "a folder inside a folder (not searched)"

    /// Every path in order, each folder's entries sorted by name.
    public static func entries(_ paths: [String]) -> [Entry] {
        paths.flatMap { path -> [Entry] in
            switch kind(of: path) {
            case .folder: folder(path)
            case .file(let length): [.file(path: path, length: length)]
            case .other: [.missing(path: path, reason: "It is neither a file nor a folder.")]
            case .absent(let reason): [.missing(path: path, reason: reason)]
            }
        }
    }

    private static func folder(_ path: String) -> [Entry] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            return [.missing(path: path, reason: "The folder cannot be read. " + userMessage(for: error))]
        }
        return names.sorted().map { name in
            let inside = (path as NSString).appendingPathComponent(name)
            switch kind(of: inside) {
            case .file(let length): return isImage(inside) ? .file(path: inside, length: length) : .skipped(path: inside, reason: notAnImage)
            case .folder: return .skipped(path: inside, reason: innerFolder)
            case .other, .absent: return .skipped(path: inside, reason: notAnImage)
            }
        }
    }

    private enum Kind {
        case file(length: Int)
        case folder
        case other
        case absent(String)
    }

    /// What is at `path`, following symbolic links.
    private static func kind(of path: String) -> Kind {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return .absent(errno == ENOENT ? "There is no such file or folder." : "It cannot be read: \(Platform.errorText(errno)).")
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file(length: Int(clamping: status.st_size))
        default: return .other
        }
    }

    /// Whether the file starts as one of the four image formats.
    static func isImage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 16) else { return false }
        return ImageFileFormat.sniff(head) != nil
    }

    /// The file's format as Flickr names an original's (`jpg`, `png`,
    /// `gif`); nil for WebP (Flickr's word for it is not known) and the rest.
    public static func originalFormat(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        switch (try? handle.read(upToCount: 16)).flatMap({ ImageFileFormat.sniff($0) }) {
        case .jpeg?: return "jpg"
        case .png?: return "png"
        case .gif?: return "gif"
        case .webp?, nil: return nil
        }
    }

    /// SHA-256 of the file's bytes, read a piece at a time (never the whole file at once).
    /// What says a file is unchanged: its length and when it was last written.
    public struct Stamp: Equatable, Sendable {
        let length: Int64
        let seconds: Int64
        let nanoseconds: Int64
    }

    /// The file's stamp, or nil when it cannot be seen.
    public static func stamp(of path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(length: Int64(info.st_size), seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    public static func digest(of path: String) throws(FlickrUploadFileError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(Platform.errorText(errno)) }
        defer { try? handle.close() }
        var hasher = SHA256.Hasher()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw .unreadable("\(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(chunk)
        }
        return hasher.finalizeHex()
    }
}

/// A file that could not be read to be sent.
public enum FlickrUploadFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "The file cannot be read: \(reason)."
        }
    }
}
