import Foundation
import PhotoCore
import Platform

/// What `flickr upload` sent before: the SHA-256 of each file's bytes and
/// the photo id it became, per server and account, so a second run over the
/// same folder uploads nothing again.
///
/// Kept in the state folder (`$XDG_STATE_HOME/flickr/uploads.json`): it is
/// the app's memory, not a setting and not a cache that may vanish. It holds
/// no token. Each change is written atomically after re-reading the file,
/// so two runs at once lose at most the other's last entry, never the file.
/// A file that cannot be read is moved aside and the run stops, so nothing in
/// it is lost and nothing is uploaded twice by mistake.
public struct FlickrUploadRecord: Sendable {
    public let file: URL
    /// `ISSUER USER_NSID`: the server that issued the sign-in, and the account.
    let account: String

    public init(stateDirectory: URL, issuer: String, userNSID: String) {
        file = stateDirectory.appendingPathComponent("uploads.json", isDirectory: false)
        account = issuer + " " + userNSID
    }

    /// The file's shape: photo ids by digest, by account.
    struct Stored: Codable {
        var format = 1
        var accounts: [String: [String: String]] = [:]
    }

    /// Only the version of a record, whatever else it holds.
    private struct Version: Decodable {
        var format: Int
    }

    /// The photo id `digest` became for this account, if it was uploaded.
    public func photoID(for digest: String) throws(FlickrUploadRecordError) -> String? {
        try read().accounts[account]?[digest]
    }

    /// Every photo id this account's uploads became: none of them can be a new upload's photo.
    public func photoIDs() throws(FlickrUploadRecordError) -> Set<String> {
        Set(try read().accounts[account]?.values.map { $0 } ?? [])
    }

    /// Reads the record once, so a damaged one stops the run before any upload.
    public func check() throws(FlickrUploadRecordError) {
        _ = try read()
    }

    /// Notes that `digest` became `photoID`. Runs at once take turns
    /// (a lock beside the record), so each re-reads what the other wrote and
    /// no entry is lost.
    public func remember(_ digest: String, photoID: String) throws(FlickrUploadRecordError) {
        do {
            try AppPaths.ensureDirectory(file.deletingLastPathComponent())
        } catch {
            throw .unwritable(userMessage(for: error))
        }
        let lock = open(file.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw .unwritable(Platform.errorText(errno)) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .unwritable(Platform.errorText(errno)) }
        }
        var stored = try read()
        stored.accounts[account, default: [:]][digest] = photoID
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            try AtomicFile.write(try encoder.encode(stored), to: file, permissions: 0o600, durable: true)
        } catch {
            throw .unwritable(userMessage(for: error))
        }
    }

    /// The record as stored; empty when there is none yet.
    private func read() throws(FlickrUploadRecordError) -> Stored {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            guard FileManager.default.fileExists(atPath: file.path) else { return Stored() }
            throw .unreadable(file.path)
        }
        // A later version's record is not damaged, whatever its shape: it is left as it is.
        if let version = try? JSONDecoder().decode(Version.self, from: data), version.format > 1 { throw .newer(file.path) }
        if let stored = try? JSONDecoder().decode(Stored.self, from: data) {
            // Photo ids are Flickr's digits; anything else was not written here.
            let ids = stored.accounts.values.flatMap(\.values)
            if stored.format == 1, ids.allSatisfy(Self.isPhotoID) { return stored }
        }
        throw .broken(file.path, keptAs: setAside())
    }

    static func isPhotoID(_ text: String) -> Bool {
        (1...20).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Moves a broken record to `uploads.json.broken-SECONDS[-N]` beside it,
    /// never over an earlier one; its new path, or nil when it could not be moved.
    private func setAside() -> String? {
        let stem = file.path + ".broken-\(Int(Date().timeIntervalSince1970))"
        for attempt in 0..<100 {
            let aside = attempt == 0 ? stem : stem + "-\(attempt)"
            // link() fails when the name is taken, where rename() would replace it.
            if link(file.path, aside) == 0 {
                unlink(file.path)
                return aside
            }
            guard errno == EEXIST else { return nil }
        }
        return nil
    }
}

/// Why the upload record could not be used, worded so the person knows what to do.
public enum FlickrUploadRecordError: WordedError, Equatable {
    /// Not the JSON this app writes; moved to `keptAs` (nil: left where it is).
    case broken(String, keptAs: String?)
    case unreadable(String)
    case unwritable(String)
    /// Written by a later version of flickr, whose record this one cannot read.
    case newer(String)

    public var description: String {
        switch self {
        case .broken(let path, let aside?):
            "The record of earlier uploads (\(path)) is damaged, so nothing was uploaded: it was moved to \(aside) and kept. "
                + "Run again to start a new record (files sent before will be sent again), or repair that file and move it back."
        case .broken(let path, nil):
            "The record of earlier uploads (\(path)) is damaged and could not be moved aside, so nothing was uploaded. Repair or move it, then run again."
        case .unreadable(let path):
            "The record of earlier uploads (\(path)) cannot be read, so nothing was uploaded. Check that the file is yours and readable."
        case .newer(let path):
            "The record of earlier uploads (\(path)) was written by a newer version of flickr, so nothing was uploaded "
                + "(this one could send files again that went up before). Upload with that version, or move the file away to start a new record."
        case .unwritable(let sentence):
            "The record of uploads was not updated: \(sentence) Check that the state folder is yours and writable."
        }
    }
}
