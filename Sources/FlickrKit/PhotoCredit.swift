import Foundation

/// Who made a photo and on what terms it may be used: what a credit line
/// (TASL: title, author, source, licence) and a sidecar need.
///
/// Provider-neutral: Openverse fills it from each result; a provider that
/// knows none of it leaves `Photo.credit` nil. Text is as the service sent
/// it: sanitise before printing.
public struct PhotoCredit: Sendable, Hashable, Codable {
    /// The licence's short name: `CC BY 2.0`, `CC0 1.0`, `PDM 1.0`.
    public var license: String?
    /// The licence's deed.
    public var licenseURL: URL?
    public var creator: String?
    public var creatorURL: URL?
    /// A ready-made credit line, when the service writes one.
    public var attribution: String?
    /// The work's own page at its source (where to link back to).
    public var pageURL: URL?
    /// Where the work is held (`flickr`, `wikimedia`, `nasa`), when the
    /// service gathers from many places.
    public var source: String?
    /// The image file's format as the service reports it (`jpg`, `png`).
    public var fileType: String?

    public init(
        license: String? = nil, licenseURL: URL? = nil, creator: String? = nil, creatorURL: URL? = nil,
        attribution: String? = nil, pageURL: URL? = nil, source: String? = nil, fileType: String? = nil
    ) {
        self.license = license
        self.licenseURL = licenseURL
        self.creator = creator
        self.creatorURL = creatorURL
        self.attribution = attribution
        self.pageURL = pageURL
        self.source = source
        self.fileType = fileType
    }
}
