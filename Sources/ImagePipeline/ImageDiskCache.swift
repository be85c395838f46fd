import FlickrKit
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Images on disk, one file per URL, shared safely between processes.
///
/// - File names are the FNV-1a 64 hash of the URL; the entry repeats the URL,
///   so two URLs with the same hash are told apart (the later write wins).
/// - Each entry starts with a header (magic, version, URL, length, checksum):
///   a truncated, torn or corrupted entry is detected, deleted and reported as
///   a miss, never served.
/// - Writes go to a temporary file in the same directory and are renamed into
///   place, so readers (in this or another process) see a whole entry or none.
///   A process killed mid-write leaves only a temporary file, removed later.
/// - The modification time records the last use; when the directory grows
///   past the limit, least recently used entries are removed down to 70%.
///
/// `data(for:)` blocks on file I/O: call it off the main thread. Writes run
/// on a private queue, off the caller's path.
final class ImageDiskCache: Sendable {
    let directory: URL
    let sizeLimit: Int
    /// Trimming stops once the total is at or below this.
    var trimTarget: Int { sizeLimit / 10 * 7 }

    static let fileExtension = "img"
    private static let temporaryPrefix = ".tmp-"
    /// A temporary file this old belongs to a writer that died.
    private static let staleTemporaryAge: TimeInterval = 10 * 60

    private let writes = DispatchQueue(label: "flickr.image-disk-cache.writes", qos: .utility)
    private let state = Mutex(State())

    private struct State {
        /// Bytes in the directory as this process last knew it; `nil` until scanned.
        var knownSize: Int?
        /// Entries accepted by `store` but not yet on disk, so reads see them at once.
        var pending: [String: Data] = [:]
        var directoryReady = false
    }

    /// `directory` as a path with a trailing slash: reads build file paths
    /// from strings, as URL's path accessors cost microseconds each.
    private let directoryPrefix: String

    init(directory: URL, sizeLimit: Int) {
        self.directory = directory
        let path = directory.path
        self.directoryPrefix = path.hasSuffix("/") ? path : path + "/"
        self.sizeLimit = max(0, sizeLimit)
    }

    /// The file that holds (or would hold) `url`'s entry.
    func fileURL(for url: URL) -> URL {
        directory.appendingPathComponent(Self.fileName(for: url), isDirectory: false)
    }

    static func fileName(for url: URL) -> String {
        let hash = FNV1a64.hash(url.absoluteString.utf8)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "." + fileExtension
    }

    // MARK: - Reading

    /// The cached bytes of `url`, or `nil`. A damaged entry is deleted.
    func data(for url: URL) -> Data? {
        let name = Self.fileName(for: url)
        if let pending = state.withLock({ $0.pending[name] }) { return pending }
        let path = directoryPrefix + name
        guard let contents = FileManager.default.contents(atPath: path) else { return nil }
        switch CacheEntry.decode(contents) {
        case .success(let entry):
            guard entry.url == url.absoluteString else { return nil }
            // Marks the entry as just used: its modification time drives
            // trimming (access times are unreliable on noatime mounts).
            utimensat(AT_FDCWD, path, nil, 0)
            return entry.data
        case .failure:
            unlink(path)
            return nil
        }
    }

    // MARK: - Writing

    /// Queues `data` to be written as `url`'s entry and returns at once.
    func store(_ data: Data, for url: URL) {
        let name = Self.fileName(for: url)
        state.withLock { $0.pending[name] = data }
        writes.async { [self] in
            write(data, url: url, name: name)
            state.withLock { state in
                if state.pending[name] == data { state.pending[name] = nil }
            }
        }
    }

    /// Returns once every write queued before the call is on disk.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            writes.async { continuation.resume() }
        }
    }

    /// Deletes `url`'s entry.
    func remove(_ url: URL) {
        let name = Self.fileName(for: url)
        state.withLock { _ = $0.pending.removeValue(forKey: name) }
        writes.async { [self] in
            unlink(directoryPrefix + name)
        }
    }

    private func write(_ data: Data, url: URL, name: String) {
        guard prepareDirectory() else { return }
        let entry = CacheEntry.encode(url: url.absoluteString, data: data)
        let target = directory.appendingPathComponent(name, isDirectory: false)
        let replaced = Self.fileSize(target)
        do {
            try AtomicFile.write(entry, to: target, temporaryPrefix: Self.temporaryPrefix)
        } catch {
            return
        }
        let total = state.withLock { state -> Int? in
            guard let known = state.knownSize else { return nil }
            let updated = known + entry.count - (replaced ?? 0)
            state.knownSize = updated
            return updated
        }
        if total.map({ $0 > sizeLimit }) ?? true {
            trim()
        }
    }

    private func prepareDirectory() -> Bool {
        if state.withLock({ $0.directoryReady }) { return true }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            return false
        }
        state.withLock { $0.directoryReady = true }
        return true
    }

    // MARK: - Trimming

    /// Rescans the directory (other processes write to it too) and, when it
    /// holds more than the limit, deletes least recently used entries until
    /// it is at or below 70% of the limit. Also removes stale temporary files.
    func trim() {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard let files = try? FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: keys, options: [])
        else { return }
        struct Entry { let url: URL; let size: Int; let used: Date }
        var entries: [Entry] = []
        var total = 0
        let now = Date()
        for file in files {
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let size = values.fileSize ?? 0
            let used = values.contentModificationDate ?? .distantPast
            let name = file.lastPathComponent
            if name.hasPrefix(Self.temporaryPrefix) {
                if now.timeIntervalSince(used) > Self.staleTemporaryAge { unlink(file.path) }
                continue
            }
            guard file.pathExtension == Self.fileExtension else { continue }
            entries.append(Entry(url: file, size: size, used: used))
            total += size
        }
        if total > sizeLimit {
            entries.sort { $0.used < $1.used }
            for entry in entries {
                if total <= trimTarget { break }
                unlink(entry.url.path)
                total -= entry.size
            }
        }
        state.withLock { $0.knownSize = total }
    }

    /// Total bytes of entries on disk now (a fresh scan; for statistics and tests).
    func diskUsage() -> Int {
        let files = (try? FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: [.fileSizeKey], options: [])) ?? []
        return files.filter { $0.pathExtension == Self.fileExtension }
            .reduce(0) { $0 + (Self.fileSize($1) ?? 0) }
    }

    // MARK: - File helpers

    private static func fileSize(_ file: URL) -> Int? {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }
}

/// The on-disk layout of one entry (little-endian):
/// magic `FLKRIMG` + version (8 bytes), URL length (4), data length (8),
/// FNV-1a 64 of the data (8), the URL in UTF-8, then the data.
enum CacheEntry {
    static let magic: [UInt8] = Array("FLKRIMG".utf8)
    static let version: UInt8 = 1
    static let headerSize = 28
    /// No real URL is longer; a bigger value means the header is damaged.
    static let maxURLLength = 64 << 10

    struct Decoded {
        var url: String
        var data: Data
    }

    enum Damage: Error, Equatable {
        case badMagic, unsupportedVersion, badLength, checksumMismatch, notAnImage
    }

    static func encode(url: String, data: Data) -> Data {
        let urlBytes = Array(url.utf8)
        var out = Data(capacity: headerSize + urlBytes.count + data.count)
        out.append(contentsOf: magic)
        out.append(version)
        appendLittleEndian(UInt32(urlBytes.count), to: &out)
        appendLittleEndian(UInt64(data.count), to: &out)
        appendLittleEndian(FNV1a64.hash(data), to: &out)
        out.append(contentsOf: urlBytes)
        out.append(data)
        return out
    }

    static func decode(_ entry: Data) -> Result<Decoded, Damage> {
        let bytes = [UInt8](entry.prefix(headerSize))
        guard bytes.count == headerSize, bytes.starts(with: magic) else { return .failure(.badMagic) }
        guard bytes[7] == version else { return .failure(.unsupportedVersion) }
        let urlLength = Int(readLittleEndian(UInt32.self, bytes, at: 8))
        let dataLength = readLittleEndian(UInt64.self, bytes, at: 12)
        let checksum = readLittleEndian(UInt64.self, bytes, at: 20)
        guard urlLength <= maxURLLength, dataLength <= UInt64(Int.max / 2),
              entry.count == headerSize + urlLength + Int(dataLength)
        else { return .failure(.badLength) }
        let start = entry.startIndex + headerSize
        let urlData = entry[start ..< start + urlLength]
        let data = Data(entry[(start + urlLength)...])
        guard FNV1a64.hash(data) == checksum else { return .failure(.checksumMismatch) }
        guard case .success = ImageFormat.validate(data) else { return .failure(.notAnImage) }
        return .success(Decoded(url: String(decoding: urlData, as: UTF8.self), data: data))
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func readLittleEndian<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        var value: T = 0
        for index in 0 ..< MemoryLayout<T>.size {
            value |= T(bytes[offset + index]) << (8 * index)
        }
        return value
    }
}
