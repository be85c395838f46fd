import PhotoCore
import Foundation
import Networking

/// One page of `GET /v1/images/`, as Openverse described it, before anything
/// is fitted to `Photo`.
public struct OpenverseSearchResults: Sendable, Equatable {
    /// Matches Openverse admits to; capped (10,000, or 240 in older anonymous
    /// answers) and not a page count: see `pageCount`.
    public var resultCount: Int
    /// The pages this caller may read. The only trustworthy depth: answers
    /// pair `result_count` 10,000 with `page_count` 20.
    public var pageCount: Int
    public var pageSize: Int
    public var page: Int
    public var images: [OpenverseImage]
    /// Items of `results` left out: not an object, or no usable id.
    public var skippedResults: Int
    /// Fields of kept results ignored because their value had the wrong type.
    public var skippedFields: Int
}

/// One item of `results`. Everything but the id may be missing: answers
/// from 2022 lack `attribution`, `width`, `height` and `filetype`, or send
/// them as `null`.
public struct OpenverseImage: Sendable, Equatable {
    /// A UUID, in the lower-case form Openverse sends.
    public var id: String
    /// May be empty (a creator's untitled work).
    public var title: String
    public var creator: String?
    public var creatorURL: URL?
    /// The image at the source, often about 1024 px on the long edge.
    public var url: URL?
    /// Openverse's own scaled copy, at most 600 px on the long edge.
    public var thumbnail: URL?
    /// The work's page at its source: where people credit and open it.
    public var foreignLandingURL: URL?
    /// The licence code: `by`, `by-sa`, `cc0`, `pdm`…
    public var license: String?
    public var licenseVersion: String?
    public var licenseURL: URL?
    /// Openverse's ready-made credit line.
    public var attribution: String?
    public var width: Int?
    public var height: Int?
    public var filetype: String?
    /// Where the work is held (`flickr`, `nasa`); not always `provider`.
    public var source: String?
    public var provider: String?
    public var tags: [String]
    public var mature: Bool?

    public init(id: String, title: String = "") {
        self.id = id
        self.title = title
        self.tags = []
    }

    /// The licence as the app's one table names it (`CC BY 2.0`, `CC0 1.0`,
    /// `PDM 1.0`), with the deed Openverse linked.
    public var licenseTerms: License? {
        LicenseTable.openverse(slug: license ?? "", version: licenseVersion, url: licenseURL)
    }
}
