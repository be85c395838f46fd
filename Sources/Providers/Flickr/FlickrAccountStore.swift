import Foundation
import Platform

/// Where the sign-in lives: `$XDG_CONFIG_HOME/flickr/` (`~/.config/flickr/`),
/// never the state or cache folders. The folder is made 0700 and each file is
/// written atomically with mode 0600, so a crash leaves the old token or the
/// new one and no other user can read either.
public struct FlickrAccountStore: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public init(environment: [String: String]) {
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? home.appendingPathComponent(".config", isDirectory: true)
        self.init(directory: base.appendingPathComponent("flickr", isDirectory: true))
    }

    public var accountFile: URL { directory.appendingPathComponent("flickr-account.json", isDirectory: false) }
    public var pendingFile: URL { directory.appendingPathComponent("flickr-pending-login.json", isDirectory: false) }

    public func account() throws(FlickrAccountError) -> FlickrAccount? { try read(FlickrAccount.self, from: accountFile) }
    public func pending() throws(FlickrAccountError) -> FlickrPendingLogin? { try read(FlickrPendingLogin.self, from: pendingFile) }

    public func save(_ account: FlickrAccount) throws(FlickrAccountError) { try write(account, to: accountFile) }
    public func save(_ pending: FlickrPendingLogin) throws(FlickrAccountError) { try write(pending, to: pendingFile) }

    /// Removes the stored token; whether there was one.
    @discardableResult
    public func removeAccount() throws(FlickrAccountError) -> Bool { try remove(accountFile) }

    @discardableResult
    public func removePending() throws(FlickrAccountError) -> Bool { try remove(pendingFile) }

    // MARK: - Files

    private func read<Value: Decodable>(_ type: Value.Type, from file: URL) throws(FlickrAccountError) -> Value? {
        try checkPrivate(file)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .storage("\(file.path) cannot be read as a Flickr sign-in. Run `flickr logout`, then `flickr login`.")
        }
    }

    /// Refuses a token file others may read, as ssh refuses such a key:
    /// changing the mode quietly would hide that the token may have been
    /// read already, and only the person can judge that. A folder or other
    /// non-file in its place is named rather than taken for "nobody".
    private func checkPrivate(_ file: URL) throws(FlickrAccountError) {
        var info = stat()
        guard stat(file.path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .storage("Could not read \(file.path): \(String(cString: strerror(errno))).")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .storage("\(file.path) should be the file holding the Flickr sign-in but is a folder or other non-file. Move it away, then run `flickr login`.")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw .storage("\(file.path) holds the Flickr sign-in but others may read it (mode 0\(String(mode, radix: 8))), so it is not used. Run `chmod 600 \(file.path)`; if someone else may have read it, run `flickr logout` and `flickr login` for a new token.")
        }
    }

    private func write(_ value: some Encodable, to file: URL) throws(FlickrAccountError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try AtomicFile.write(try encoder.encode(value), to: file, permissions: 0o600, durable: true)
        } catch {
            throw .storage("Could not save the Flickr sign-in in \(directory.path): \(error). Check that the folder is yours and writable.")
        }
    }

    private func remove(_ file: URL) throws(FlickrAccountError) -> Bool {
        // Unlinking a link would leave the token in the file it points at
        // while saying it is gone: that file is named instead.
        var link = stat()
        var target = stat()
        if lstat(file.path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, stat(file.path, &target) == 0 {
            let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)) ?? "another file"
            throw .storage("\(file.path) is a link to \(destination), which holds the token; nothing was deleted. Delete \(destination) yourself (flickr deletes only files in its own folder), then run `flickr logout` again.")
        }
        guard unlink(file.path) == 0 else {
            if errno == ENOENT { return false }
            throw .storage("Could not delete \(file.path): \(String(cString: strerror(errno))).")
        }
        return true
    }
}
