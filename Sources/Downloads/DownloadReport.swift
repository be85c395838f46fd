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
        complete = !result.isIncomplete && !result.cancelled
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
