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
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .storage("\(file.path) cannot be read as a Flickr sign-in. Run `flickr logout`, then `flickr login`.")
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
        guard unlink(file.path) == 0 else {
            if errno == ENOENT { return false }
            throw .storage("Could not delete \(file.path): \(String(cString: strerror(errno))).")
        }
        return true
    }
}
