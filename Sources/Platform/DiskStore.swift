import Foundation
import NIOConcurrencyHelpers

/// Byte strings on disk, one file per key, shared safely between processes:
/// the image pipeline keeps downloaded images in one, the view keeps
/// rendered thumbnails in another.
///
/// - File names are the FNV-1a 64 hash of the key; the entry repeats the key,
///   so two keys with the same hash are told apart (the later write wins).
/// - Each entry starts with a header (magic, version, key, length, checksum):
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
public final class DiskStore: Sendable {
    /// What a store holds and how its files are named and spoken of.
    public struct Kind: Sendable {
        /// The header every entry starts with, and the check of its data.
        public var entry: DiskStoreEntry
        /// File extension of entries, such as `img`.
        public var fileExtension: String
        /// How messages name the store, such as "image cache".
        public var noun: String

        public init(entry: DiskStoreEntry, fileExtension: String, noun: String) {
            self.entry = entry
            self.fileExtension = fileExtension
            self.noun = noun
        }
    }

    public let directory: URL
    public let sizeLimit: Int
    public let kind: Kind
    /// Trimming stops once the total is at or below this.
    public var trimTarget: Int { sizeLimit / 10 * 7 }

    private static let temporaryPrefix = ".tmp-"
    /// A temporary file this old belongs to a writer that died.
    private static let staleTemporaryAge: TimeInterval = 10 * 60

    private let writes: DispatchQueue
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
    public struct WriteFailures: Sendable, Equatable {
        public var count = 0
        public var last: String?
    }

    /// `directory` as a path with a trailing slash: reads build file paths
    /// from strings, as URL's path accessors cost microseconds each.
    private let directoryPrefix: String

    /// - Parameter onFirstWriteFailure: called once, on the writer queue,
    ///   with the message of the first write that fails.
    public init(directory: URL, sizeLimit: Int, kind: Kind, onFirstWriteFailure: (@Sendable (String) -> Void)? = nil) {
        self.directory = directory
        self.kind = kind
        self.writes = DispatchQueue(label: "flickr.disk-store.\(kind.fileExtension).writes", qos: .utility)
        self.onFirstWriteFailure = onFirstWriteFailure
        let path = directory.path
        self.directoryPrefix = path.hasSuffix("/") ? path : path + "/"
        self.sizeLimit = max(0, sizeLimit)
    }

    /// The file that holds (or would hold) `key`'s entry.
    public func fileURL(for key: String) -> URL {
        directory.appendingPathComponent(fileName(for: key), isDirectory: false)
    }

    public func fileName(for key: String) -> String {
        Self.fileName(for: key, fileExtension: kind.fileExtension)
    }

    /// The file name of `key`'s entry in a store whose entries end in `fileExtension`.
    public static func fileName(for key: String, fileExtension: String) -> String {
        let hash = FNV1a64.hash(key.utf8)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "." + fileExtension
    }

    // MARK: - Reading

    /// The stored bytes of `key`, or `nil`. A damaged entry is deleted.
    public func data(for key: String) -> Data? {
        let name = fileName(for: key)
        if let pending = state.withLockedValue({ $0.pending[name] }) { return pending }
        let path = directoryPrefix + name
        guard let contents = FileManager.default.contents(atPath: path) else { return nil }
        switch kind.entry.decode(contents) {
        case .success(let entry):
            guard entry.key == key else { return nil }
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

    /// Queues `data` to be written as `key`'s entry and returns at once.
    public func store(_ data: Data, for key: String) {
        let name = fileName(for: key)
        state.withLockedValue { $0.pending[name] = data }
        writes.async { [self] in
            write(data, key: key, name: name)
            state.withLockedValue { state in
                if state.pending[name] == data { state.pending[name] = nil }
            }
        }
    }

    /// Returns once every write queued before the call is on disk.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            writes.async { continuation.resume() }
        }
    }

    private func write(_ data: Data, key: String, name: String) {
        guard prepareDirectory() else { return }
        let entry = kind.entry.encode(key: key, data: data)
        let target = directory.appendingPathComponent(name, isDirectory: false)
        let replaced = Self.fileSize(target)
        do {
            try AtomicFile.write(entry, to: target, temporaryPrefix: Self.temporaryPrefix)
        } catch {
            recordFailure("Cannot write the \(kind.noun) file \(target.path): \(Self.reason(error.code)).")
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
            recordFailure("Cannot create the \(kind.noun) folder \(path): \(Self.reason(errno)).")
            return false
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            recordFailure("Cannot use the \(kind.noun) folder \(path): \(Self.reason(errno)).")
            return false
        }
        guard info.st_mode & 0o170000 == 0o040000 else {
            recordFailure("Cannot use \(path) as the \(kind.noun) folder: it is not a folder.")
            return false
        }
        if info.st_mode & 0o077 != 0, chmod(path, info.st_mode & 0o700) != 0 {
            // Still usable, but others may read it: say so once, and go on.
            recordFailure("Cannot make the \(kind.noun) folder \(path) private: \(Self.reason(errno)).")
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
    public func writeFailures() -> WriteFailures {
        state.withLockedValue { $0.failures }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    // MARK: - Trimming

    /// Rescans the directory (other processes write to it too) and, when it
    /// holds more than the limit, deletes least recently used entries until
    /// it is at or below 70% of the limit. Also removes stale temporary files.
    public func trim() {
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
            guard file.pathExtension == kind.fileExtension else { continue }
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
    public func diskUsage() -> Int {
        let files = (try? FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: [.fileSizeKey], options: [])) ?? []
        return files.filter { $0.pathExtension == kind.fileExtension }
            .reduce(0) { $0 + (Self.fileSize($1) ?? 0) }
    }

    // MARK: - File helpers

    private static func fileSize(_ file: URL) -> Int? {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }
}
