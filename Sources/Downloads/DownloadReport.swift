import PhotoCore
import Foundation

/// `flickr download --json`: what the run did, as one JSON object, with the
/// counts the summary line gives.
public struct DownloadReport: Encodable, Sendable {
    public var downloaded: Int
    public var fromCache: Int
    /// Complete files found in the folder and kept.
    public var alreadyThere: Int
    public var failed: Int
    public var cancelled: Int
    /// Listed, but the download stopped before fetching them.
    public var notStarted: Int
    public var videosSkipped: Int
    public var pagesNotFetched: Int
    public var bytes: Int
    public var seconds: Double
    /// Nothing asked for is missing.
    public var complete: Bool
    public var folder: String
    /// The photostream or album downloaded; absent for a search.
    public var collection: CollectionFacts?
    public var notes: [String]

    enum CodingKeys: String, CodingKey {
        case downloaded, fromCache = "from_cache", alreadyThere = "already_there", failed, cancelled, notStarted = "not_started"
        case videosSkipped = "videos_skipped", pagesNotFetched = "pages_not_fetched", bytes, seconds, complete, folder
        case collection, notes
    }

    public init(_ result: DownloadJob.Result, seconds: Double, folder: URL, collection: CollectionFacts?) {
        let tally = result.tally
        downloaded = tally.downloaded
        fromCache = tally.fromCache
        alreadyThere = tally.kept
        failed = tally.failed
        cancelled = tally.cancelled
        notStarted = tally.notStarted
        videosSkipped = tally.videosSkipped
        pagesNotFetched = tally.failedPages
        bytes = tally.bytes
        self.seconds = (seconds * 1000).rounded() / 1000
        complete = !tally.isIncomplete && !result.cancelled
        self.folder = folder.path
        self.collection = collection
        notes = result.notes
    }

    /// One line of JSON.
    public var json: String { ScriptJSON.line(self) }
}

/// What a listing or download was of, for `--json`: kind (photostream,
/// album, gallery, pool), id, title, owner (the provider's id), owner_name
/// and url (its page in a browser), as far as known.
public struct CollectionFacts: Encodable, Sendable, Equatable {
    public var kind: String
    public var id: String
    public var title: String
    public var owner: String?
    public var ownerName: String?
    public var url: String?

    enum CodingKeys: String, CodingKey {
        case kind, id, title, owner, ownerName = "owner_name", url
    }

    public init(_ collection: PhotoCollection, pageURL: URL?) {
        kind = collection.kind.rawValue
        id = collection.id
        title = collection.title
        owner = collection.owner?.id
        ownerName = collection.owner?.displayName
        url = pageURL?.absoluteString
    }

    /// `{"collection":{…}}`: the line `flickr user` and `flickr album`
    /// write before the photos under `--json`.
    public var jsonLine: String {
        struct Wrapped: Encodable { var collection: CollectionFacts }
        return ScriptJSON.line(Wrapped(collection: self))
    }
}

/// JSON for scripts, one line per value. Text from a server may hold
/// anything: besides what JSON must escape, the C1 controls, line and
/// paragraph separators and bidirectional marks are written as `\uXXXX`,
/// so the JSON cannot drive or reorder a terminal that shows it.
enum ScriptJSON {
    static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        var out = ""
        // Outside strings JSON is ASCII, so every scalar escaped here is inside one.
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069:
                out += String(format: "\\u%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
