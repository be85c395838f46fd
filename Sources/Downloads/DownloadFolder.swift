import PhotoCore
import Foundation
import Platform
import ImagePipeline

/// The folder `flickr download` writes into: file names, the check that a
/// file already there is a whole image, and atomic writes.
public struct DownloadFolder: Sendable {
    public let url: URL
    /// `url`'s path, once: URL's accessors cost microseconds each, and a
    /// rerun looks at each of its works' files.
    let path: String
    /// The names in the folder when it was listed, or nil when it was not:
    /// a name not among them needs no look on disk.
    private var names: Set<String>?

    public init(url: URL) {
        self.url = url
        path = url.path
    }

    /// The same folder, listed once now, so the checks for earlier files
    /// skip the names that are not there (a resumed download of 300 photos
    /// would otherwise try four extensions and a sidecar for each).
    func listed() -> DownloadFolder {
        var folder = self
        folder.names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)).map(Set.init)
        return folder
    }

    private func mayHold(_ name: String) -> Bool {
        names?.contains(name) ?? true
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

    /// The name of the complete image saved as `baseName` with its format's
    /// extension, or nil. Complete means the bytes decode to the end as the
    /// format their extension names: a file cut short (by another tool, a
    /// full disk or a crash of the system) or one whose name does not match
    /// its bytes is fetched again. This run's own writes are atomic, so they
    /// never leave a part behind.
    func completeImage(baseName: String) -> String? {
        ImageFormat.allCases.lazy.map { Self.fileName(baseName, format: $0) }.first { name in
            guard mayHold(name) else { return false }
            let target = url.appendingPathComponent(name, isDirectory: false)
            guard let data = try? Data(contentsOf: target, options: .mappedIfSafe),
                  let format = ImageFormat.sniff(data)
            else { return false }
            return name == Self.fileName(baseName, format: format) && ImageFormat.isComplete(data)
        }
    }

    /// The name of the complete video saved as `baseName`, or nil. A video
    /// cannot be decoded here, so: when its JSON sidecar recorded the file's
    /// length, the file must have that length; otherwise it must be a whole
    /// ISO media file (MP4, MOV), its boxes adding up to its length.
    func completeVideo(baseName: String) -> String? {
        let record = sidecar(baseName: baseName)
        return VideoFile.fileExtensions.lazy.map { "\(baseName).\($0)" }.first { name in
            guard mayHold(name) else { return false }
            let target = url.appendingPathComponent(name, isDirectory: false)
            guard let data = try? Data(contentsOf: target, options: .mappedIfSafe) else { return false }
            if let record, record.file == name, let bytes = record.bytes { return data.count == bytes }
            return VideoFile.isWholeISOMedia(data)
        }
    }

    /// What a `NAME.json` sidecar says of the file it describes.
    struct SidecarRecord: Decodable {
        var provider: String
        var id: String
        var file: String?
        var bytes: Int?
        var sha256: String?
    }

    /// The sidecar of `baseName`, when there is one that reads as ours.
    func sidecar(baseName: String) -> SidecarRecord? {
        guard mayHold(baseName + ".json") else { return nil }
        let target = url.appendingPathComponent(baseName + ".json", isDirectory: false)
        guard let data = try? Data(contentsOf: target) else { return nil }
        return try? JSONDecoder().decode(SidecarRecord.self, from: data)
    }

    /// Which photo `baseName` holds: the manifest's record, else its sidecar's.
    func record(baseName: String, manifest: DownloadManifest) -> DownloadManifest.Record? {
        if let record = manifest.earlier[baseName] { return record }
        return sidecar(baseName: baseName).map {
            DownloadManifest.Record(provider: $0.provider, id: $0.id, file: $0.file, bytes: $0.bytes, sha256: $0.sha256)
        }
    }

    /// The extensions a file of this app may have: images, videos, sidecars.
    private static let ownExtensions = ImageFormat.allCases.map(\.fileExtension) + VideoFile.fileExtensions + ["json", "xmp"]

    /// Whether `baseName` belongs to something other than `photo`: a record
    /// names another photo, or a file is there under it that no record
    /// accounts for (another tool's, or a run that kept none). Such a name
    /// is never overwritten nor taken for this photo's; the photo gets the
    /// next numbered name. Except `ownName` (asked for only when a file is
    /// there that no record accounts for): the name made of the photo's
    /// own id, secret and size, which only this photo's file bears, whoever
    /// saved it (an earlier run whose manifest and sidecars a full disk
    /// lost, or another tool that names files as Flickr does). It stays the
    /// photo's when its bytes prove to be the photo's once fetched (see
    /// `mayReplaceUnrecorded`); otherwise the photo gets the next name then.
    func isTaken(baseName: String, by photo: Photo, provider: String, manifest: DownloadManifest, ownName: () -> String? = { nil }) -> Bool {
        // The manifest names this photo: its files are the photo's or absent,
        // so no look on disk is needed (a re-run of 300 works saves 900).
        if let record = manifest.earlier[baseName], record.provider == provider, record.id == photo.id { return false }
        guard !entries(under: baseName).isEmpty else { return false }
        guard let record = record(baseName: baseName, manifest: manifest) else {
            // Once the photo was saved under another name beside that file, it is found there.
            return baseName != ownName() || manifest.recordsPhoto(photo.id, provider: provider)
        }
        return record.provider != provider || record.id != photo.id
    }

    /// The file saved as `baseName` when it is still exactly what was saved
    /// for `photo`: its record names the photo, the length matches, and the
    /// bytes hash to the recorded SHA-256 (not read at all when the file's
    /// time is still the one recorded). A sidecar of an earlier version,
    /// with no hash, is trusted when the length matches and the file is
    /// whole. Nil means fetch it again.
    func keptFile(
        baseName: String, for photo: Photo, provider: String, manifest: DownloadManifest
    ) -> (file: String, record: DownloadManifest.Record)? {
        guard let record = record(baseName: baseName, manifest: manifest), record.provider == provider, record.id == photo.id,
              let file = record.file, let bytes = record.bytes,
              // The record names a file of this name, never a path elsewhere.
              file.hasPrefix(baseName + "."), !file.utf8.contains(UInt8(ascii: "/")), mayHold(file),
              let status = Self.status("\(path)/\(file)"), status.size == bytes
        else { return nil }
        var current = record
        current.modified = status.modified
        if let digest = record.sha256 {
            if record.modified == status.modified { return (file, current) }
            guard let data = try? Data(contentsOf: url.appendingPathComponent(file, isDirectory: false), options: .mappedIfSafe),
                  SHA256.hex(data) == digest
            else { return nil }
            return (file, current)
        }
        let whole = photo.isVideo ? completeVideo(baseName: baseName) : completeImage(baseName: baseName)
        guard whole == file,
              let data = try? Data(contentsOf: url.appendingPathComponent(file, isDirectory: false), options: .mappedIfSafe)
        else { return nil }
        current.sha256 = SHA256.hex(data)
        return (file, current)
    }

    /// Whether the files under `baseName` that nothing recorded may give way
    /// to `data` saved as `file`: the one there is `file` alone, a regular
    /// file (no link, no folder) holding exactly these bytes. Anything else
    /// (a sidecar of someone else's, say) is not this photo's to replace.
    func mayReplaceUnrecorded(baseName: String, with data: Data, as file: String) -> Bool {
        entries(under: baseName).allSatisfy { name, info in
            // The length first: a 2 GB file under the name is not read.
            name == file && (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) == data.count
                && (try? Data(contentsOf: URL(fileURLWithPath: "\(path)/\(name)", isDirectory: false), options: .mappedIfSafe)) == data
        }
    }

    /// What is there under `baseName` with one of the extensions this folder
    /// holds, as `lstat` sees it: anything counts, a dangling link too
    /// (`fileExists` follows links).
    private func entries(under baseName: String) -> [(name: String, info: stat)] {
        Self.ownExtensions.compactMap { ext in
            let name = baseName + "." + ext
            var info = stat()
            guard mayHold(name), lstat("\(path)/\(name)", &info) == 0 else { return nil }
            return (name, info)
        }
    }

    /// Length and modification time of `path`, one `stat`.
    static func status(_ path: String) -> (size: Int, modified: Double)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
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
        // The provider's `secret` key (Flickr's), as its own file names carry it.
        if let secret = photo.providerKeys["secret"], !secret.isEmpty { parts.append(safeComponent(secret)) }
        if let suffix = size.urlSuffix { parts.append(suffix) }
        return fitted(parts.joined(separator: "_"))
    }

    /// `name` within `SafeFileName.maxBytes`, so that with ` (2)`, an
    /// extension and the atomic writer's temporary suffix it stays a name
    /// the file system takes (255 bytes): a server's 300-character id failed
    /// with ENAMETOOLONG. The cut is marked by a digest of the whole name,
    /// so two long ids that start alike keep two names, run after run.
    static func fitted(_ name: String) -> String {
        guard name.utf8.count > SafeFileName.maxBytes else { return name }
        let digest = SHA256.hex(Data(name.utf8)).prefix(12)
        return SafeFileName.fitted(name, bytes: SafeFileName.maxBytes - digest.count - 1) + "-" + digest
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
