import Foundation
import Platform

/// The prompt's history on disk: one entry per line, newest last.
///
/// Several instances may share one file (two windows, one HOME). Each saves
/// by merging: under a lock it reads the file as it is now, appends only the
/// lines typed in this session, keeps the newest `limit`, and replaces the
/// file atomically. So neither instance loses the other's lines, and a crash
/// mid-save leaves the old file whole.
struct HistoryFile {
    let url: URL
    let limit: Int

    /// Why the file cannot be written, worded for a person.
    struct SaveError: Error, Equatable, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "Could not save history to \(path): \(reason)." }
    }

    /// The saved entries, oldest first; empty when there is no file yet. An
    /// unreadable file only costs recall, so it reads as empty.
    func load() -> [String] {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        return Self.entries(in: data)
    }

    /// Creates the folder (user-only) if needed and says why the file could
    /// not be written, or nil when it can.
    func writeProblem() -> SaveError? {
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var info = stat()
        guard stat(folder.path, &info) == 0 else {
            // Missing after all: mkdir says why it cannot be made.
            let code = errno
            return failure(code == ENOENT && mkdir(folder.path, 0o700) != 0 ? errno : code)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return failure(ENOTDIR) }
        if access(folder.path, W_OK) != 0 { return failure(errno) }
        if access(url.path, F_OK) == 0, access(url.path, W_OK) != 0 { return failure(errno) }
        return nil
    }

    /// Appends `added` to the entries in the file now, keeps the newest
    /// `limit`, and replaces the file in one rename.
    func save(adding added: [String]) throws(SaveError) {
        let folder = url.deletingLastPathComponent()
        if let problem = writeProblem() { throw problem }
        // Serialises savers of this folder; the file itself is replaced, so it cannot carry the lock.
        let lock = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { throw failure(errno) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure(errno) }
        }
        var entries = load()
        for line in added.map(Self.oneLine) where !line.isEmpty && line != entries.last {
            entries.append(line)
        }
        let kept = entries.suffix(limit)
        let text = kept.isEmpty ? "" : kept.joined(separator: "\n") + "\n"
        try replace(with: Array(text.utf8), in: folder)
    }

    // MARK: - Writing

    private func replace(with bytes: [UInt8], in folder: URL) throws(SaveError) {
        let temporary = folder.appendingPathComponent(".history-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(errno) }
        var code: Int32?
        if !Platform.writeAll(bytes, to: descriptor) || fsync(descriptor) != 0 { code = errno }
        if close(descriptor) != 0, code == nil { code = errno }
        if code == nil, rename(temporary, url.path) != 0 { code = errno }
        if let code {
            unlink(temporary)
            throw failure(code)
        }
    }

    private func failure(_ code: Int32) -> SaveError {
        SaveError(path: url.path, reason: Self.reason(code))
    }

    // MARK: - Format

    static func entries(in data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
    }

    /// An entry must stay one line in the file (a paste can carry newlines).
    static func oneLine(_ entry: String) -> String {
        entry.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The system's reason in lower case ("permission denied").
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or folder"
        case EACCES, EPERM: return "permission denied"
        case ENOSPC: return "the disk is full"
        case EROFS: return "the disk is read-only"
        case ENOTDIR: return "a part of the path is not a folder"
        case EISDIR: return "it is a folder"
        default:
            let text = Platform.errorText(code)
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}
