import Foundation

/// One file page of an `api.php` answer, as Commons described it: the page
/// (`pageid`, `title`, the search rank `index`) and the first entry of its
/// `imageinfo`. Text is as sent (HTML in the metadata included); sanitise
/// before printing.
public struct CommonsFile: Sendable, Hashable {
    /// The page id, in decimal: what the app calls the photo's id.
    public var pageID: String
    /// The rank over the whole result set (41–80 on a second page of 40);
    /// `nil` outside a search.
    public var index: Int?
    /// The page title, `File:` included: `File:Tired 20-year-old cat.jpg`.
    public var title: String
    /// `imageinfo[0].thumburl` and its size: only when a thumbnail width was
    /// asked for, and not for audio.
    public var thumbnailURL: URL?
    public var thumbnailWidth: Int?
    public var thumbnailHeight: Int?
    /// The file itself (`url`) and its page (`descriptionurl`).
    public var url: URL?
    public var descriptionURL: URL?
    /// The file's own size; 0 from Commons (audio) is kept as `nil`.
    public var width: Int?
    public var height: Int?
    public var mime: String?
    /// `extmetadata`'s values by name (`Artist`, `LicenseShortName`, …),
    /// numbers written as text. `Artist`, `Credit` and `ImageDescription` are HTML.
    public var metadata: [String: String]

    public init(
        pageID: String, index: Int? = nil, title: String, thumbnailURL: URL? = nil, thumbnailWidth: Int? = nil,
        thumbnailHeight: Int? = nil, url: URL? = nil, descriptionURL: URL? = nil, width: Int? = nil, height: Int? = nil,
        mime: String? = nil, metadata: [String: String] = [:]
    ) {
        self.pageID = pageID
        self.index = index
        self.title = title
        self.thumbnailURL = thumbnailURL
        self.thumbnailWidth = thumbnailWidth
        self.thumbnailHeight = thumbnailHeight
        self.url = url
        self.descriptionURL = descriptionURL
        self.width = width
        self.height = height
        self.mime = mime
        self.metadata = metadata
    }
}

/// One `action=query` answer: its files in rank order and how to ask for
/// the next page.
public struct CommonsAnswer: Sendable, Hashable {
    /// Ordered by `index` (the rank), never by the order the pages came in:
    /// both formats key or list them by page id.
    public var files: [CommonsFile]
    /// The `continue` object exactly as sent (numbers written as text), to
    /// be sent back whole for the next page; `nil` on the last page.
    public var continuation: [String: String]?
    /// `query.searchinfo.totalhits`, when sent.
    public var totalHits: Int?
    /// `query.searchinfo.suggestion`: the search Commons would have run instead.
    public var suggestion: String?
    /// `batchcomplete`: `""` in formatversion 1, `true` in 2.
    public var batchComplete: Bool
    /// 1 when `pages` was an object keyed by page id, 2 when it was a list;
    /// without pages, read from `batchcomplete`'s form.
    public var formatVersion: Int
    /// Pages left out: missing or invalid ones, and any without a usable id.
    public var skippedPages: Int

    public init(
        files: [CommonsFile], continuation: [String: String]? = nil, totalHits: Int? = nil, suggestion: String? = nil,
        batchComplete: Bool = false, formatVersion: Int = 2, skippedPages: Int = 0
    ) {
        self.files = files
        self.continuation = continuation
        self.totalHits = totalHits
        self.suggestion = suggestion
        self.batchComplete = batchComplete
        self.formatVersion = formatVersion
        self.skippedPages = skippedPages
    }
}

/// MediaWiki's error envelope (`{"error": {"code", "info", "docref" | "*"}}`),
/// which `api.php` sends with HTTP 200.
public struct CommonsAPIFailure: Sendable, Hashable {
    public var code: String
    public var info: String
    /// `docref` (current servers) or `*` (older ones).
    public var help: String?
    public var servedBy: String?
    /// `lag` of a `maxlag` error, in seconds.
    public var lag: Double?

    public init(code: String, info: String, help: String? = nil, servedBy: String? = nil, lag: Double? = nil) {
        self.code = code
        self.info = info
        self.help = help
        self.servedBy = servedBy
        self.lag = lag
    }
}
