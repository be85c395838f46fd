import Networking
import Foundation
import NIOConcurrencyHelpers

import Platform

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
/// - The folder is private to the user (0700; a wider existing one is
///   narrowed on first write). A file that cannot be written is counted and
///   the first such failure reported, naming the file and the reason.
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
    private let state = NIOLockedValueBox(State())
    private let onFirstWriteFailure: (@Sendable (String) -> Void)?

    private struct State {
        /// Bytes in the directory as this process last knew it; `nil` until scanned.
        var knownSize: Int?
        /// Entries accepted by `store` but not yet on disk, so reads see them at once.
        var pending: [String: Data] = [:]
        var directoryReady = false
        var failures = WriteFailures()
    }

    /// Writes that failed: how many, and what the latest said.
    struct WriteFailures: Sendable, Equatable {
        var count = 0
        var last: String?
    }

    /// `directory` as a path with a trailing slash: reads build file paths
    /// from strings, as URL's path accessors cost microseconds each.
    private let directoryPrefix: String

    /// - Parameter onFirstWriteFailure: called once, on the writer queue,
    ///   with the message of the first write that fails.
    init(directory: URL, sizeLimit: Int, onFirstWriteFailure: (@Sendable (String) -> Void)? = nil) {
        self.directory = directory
        self.onFirstWriteFailure = onFirstWriteFailure
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
        if let pending = state.withLockedValue({ $0.pending[name] }) { return pending }
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
        state.withLockedValue { $0.pending[name] = data }
        writes.async { [self] in
            write(data, url: url, name: name)
            state.withLockedValue { state in
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
        state.withLockedValue { _ = $0.pending.removeValue(forKey: name) }
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
            recordFailure("Cannot write the image cache file \(target.path): \(Self.reason(error.code)).")
            return
        }
        let total = state.withLockedValue { state -> Int? in
            guard let known = state.knownSize else { return nil }
            let updated = known + entry.count - (replaced ?? 0)
            state.knownSize = updated
            return updated
        }
        if total.map({ $0 > sizeLimit }) ?? true {
            trim()
        }
    }

    /// Creates the folder private to the user, or narrows an existing one
    /// that others may read; false (reported) when it cannot be used.
    private func prepareDirectory() -> Bool {
        if state.withLockedValue({ $0.directoryReady }) { return true }
        let path = directory.path
        // Parents get the usual permissions; only the cache folder itself is private.
        try? FileManager.default.createDirectory(
            at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            recordFailure("Cannot create the image cache folder \(path): \(Self.reason(errno)).")
            return false
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            recordFailure("Cannot use the image cache folder \(path): \(Self.reason(errno)).")
            return false
        }
        guard info.st_mode & 0o170000 == 0o040000 else {
            recordFailure("Cannot use \(path) as the image cache folder: it is not a folder.")
            return false
        }
        if info.st_mode & 0o077 != 0, chmod(path, info.st_mode & 0o700) != 0 {
            // Still usable, but others may read it: say so once, and go on.
            recordFailure("Cannot make the image cache folder \(path) private: \(Self.reason(errno)).")
        }
        state.withLockedValue { $0.directoryReady = true }
        return true
    }

    /// Counts a failed write; the first one is also reported.
    private func recordFailure(_ message: String) {
        let first = state.withLockedValue { state in
            state.failures.count += 1
            state.failures.last = message
            return state.failures.count == 1
        }
        if first { onFirstWriteFailure?(message) }
    }

    /// Writes that failed so far.
    func writeFailures() -> WriteFailures {
        state.withLockedValue { $0.failures }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
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
        state.withLockedValue { $0.knownSize = total }
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
