import PhotoCore
import Foundation
import Platform

/// What a person was looking at, saved so the next launch can show it at once.
///
/// Holds photo metadata and image URLs only; never the API key (request URLs
/// are not stored, and image URLs do not carry it).
public struct SessionSnapshot: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    public var version = SessionSnapshot.currentVersion
    /// `displayName` of the provider the pages came from.
    public var provider: String
    public var query: ResultQuery
    public var pages: [PhotoPage]
    public var savedAt: Date
    /// The result number of the first photo of `pages` (pages before them
    /// were dropped to keep the file small); nil in files saved before it
    /// was kept, which numbered from 1.
    public var firstNumber: Int?
    /// The id of the person signed in when the pages were fetched: they
    /// may hold that person's non-public photos, so they come back only to
    /// the same sign-in and `flickr logout` drops them. Nil: fetched unsigned.
    public var signedInAs: String?

    public init(
        provider: String, query: ResultQuery, pages: [PhotoPage], savedAt: Date = Date(), firstNumber: Int? = nil,
        signedInAs: String? = nil
    ) {
        self.provider = provider
        self.query = query
        self.pages = pages
        self.savedAt = savedAt
        self.firstNumber = firstNumber
        self.signedInAs = signedInAs
    }
}

/// Reads and writes the last session, atomically.
public struct SessionStore: Sendable {
    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String)

        public var description: String {
            switch self {
            case .unreadable(let reason): "The saved session could not be read (\(reason)); starting fresh."
            }
        }
    }

    /// Only the most recent pages are kept, so the file stays small.
    public static let maxPages = 10

    public let file: URL

    public init(file: URL) {
        self.file = file
    }

    /// The saved session, `nil` when there is none, or an error for a broken file.
    public func load() -> Result<SessionSnapshot?, LoadError> {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return .success(nil)
        } catch {
            return .failure(.unreadable("cannot read \(file.lastPathComponent)"))
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            let snapshot = try decoder.decode(SessionSnapshot.self, from: data)
            guard snapshot.version == SessionSnapshot.currentVersion else {
                return .failure(.unreadable("saved by another version"))
            }
            return .success(snapshot)
        } catch {
            return .failure(.unreadable("\(file.lastPathComponent) is damaged"))
        }
    }

    /// Deletes the saved session when it was fetched signed in (signing out
    /// must not leave the person's listings for the next launch); whether
    /// it did. A session fetched unsigned, or a damaged file, stays.
    @discardableResult
    public func forgetSignedListings() throws -> Bool {
        guard case .success(let snapshot?) = load(), snapshot.signedInAs != nil else { return false }
        do {
            try FileManager.default.removeItem(at: file)
        } catch let error as CocoaError where error.code == .fileNoSuchFile {
            return false
        }
        return true
    }

    /// Replaces the file atomically and syncs it, so a crash mid-write leaves
    /// the old session intact.
    public func save(_ snapshot: SessionSnapshot) throws {
        var snapshot = snapshot
        let dropped = snapshot.pages.dropLast(Self.maxPages)
        if !dropped.isEmpty {
            snapshot.firstNumber = (snapshot.firstNumber ?? 1) + dropped.reduce(0) { $0 + $1.photos.count }
        }
        snapshot.pages = Array(snapshot.pages.suffix(Self.maxPages))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let data = try encoder.encode(snapshot)
        try AppPaths.ensureDirectory(file.deletingLastPathComponent())
        try AtomicFile.write(data, to: file, durable: true)
    }
}
