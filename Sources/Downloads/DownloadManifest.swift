import Foundation
import NIOConcurrencyHelpers
import Platform

/// Which photo each file in a download folder is, kept in the folder as
/// `.flickr-manifest.json` (with or without sidecars): provider, id, the
/// file's name and length, the SHA-256 of its bytes, and the file's
/// modification time when it was written. A later run keeps a file only
/// when this says it is the photo wanted and its bytes are still those;
/// the time lets a warm re-run trust an untouched file without reading it.
final class DownloadManifest: Sendable {
    static let fileName = ".flickr-manifest.json"

    /// What is known of one file, by its name without extension.
    struct Record: Codable, Sendable, Equatable {
        var provider: String
        var id: String
        var file: String?
        var bytes: Int?
        var sha256: String?
        /// Seconds since 1970 of the file's last change when it was written.
        var modified: Double?
    }

    private struct Contents: Codable {
        var version = 1
        var files: [String: Record] = [:]
    }

    private let url: URL
    /// What the folder held when the job began.
    let earlier: [String: Record]
    /// This run's files, written over the earlier ones at the end.
    private let written = NIOLockedValueBox<[String: Record]>([:])

    init(folder: URL) {
        url = folder.appendingPathComponent(Self.fileName, isDirectory: false)
        earlier = Self.read(url)
    }

    private static func read(_ url: URL) -> [String: Record] {
        read(try? Data(contentsOf: url))
    }

    private static func read(_ data: Data?) -> [String: Record] {
        guard let data, let contents = try? JSONDecoder().decode(Contents.self, from: data) else { return [:] }
        return contents.files
    }

    func note(_ record: Record, baseName: String) {
        written.withLockedValue { $0[baseName] = record }
    }

    /// Merges this run's records into what is on disk now (another run may
    /// have added its own since) and writes the whole atomically, unless
    /// that is what is there already (a run that kept every file).
    func save() throws {
        let mine = written.withLockedValue { $0 }
        guard !mine.isEmpty else { return }
        let there = try? Data(contentsOf: url)
        var files = Self.read(there)
        files.merge(mine) { _, new in new }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let merged = try encoder.encode(Contents(files: files))
        if merged != there { try AtomicFile.write(merged, to: url, permissions: 0o666) }
    }
}
