import Foundation

/// Who made a photo and on what terms it may be used: what a credit line
/// (TASL: title, author, source, licence) and a sidecar need.
///
/// Provider-neutral: each provider fills what it knows; text is as the
/// service sent it, so sanitise before printing.
public struct PhotoCredit: Sendable, Hashable, Codable {
    public var license: License?
    public var creator: String?
    public var creatorURL: URL?
    /// A ready-made credit line, when the service writes one (Openverse).
    public var attribution: String?
    /// The work's own page at its source (where to link back to).
    public var pageURL: URL?
    /// Where the work is held (`flickr`, `wikimedia`, `nasa`), when the
    /// service gathers from many places.
    public var source: String?
    /// The image file's format as the service reports it (`jpg`, `png`).
    public var fileType: String?

    public init(
        license: License? = nil, creator: String? = nil, creatorURL: URL? = nil, attribution: String? = nil,
        pageURL: URL? = nil, source: String? = nil, fileType: String? = nil
    ) {
        self.license = license
        self.creator = creator
        self.creatorURL = creatorURL
        self.attribution = attribution
        self.pageURL = pageURL
        self.source = source
        self.fileType = fileType
    }
}

extension Photo {
    /// The credit line for this photo: the service's own when it writes one,
    /// else TASL from its title, creator, page and licence.
    public func attributionLine(pageURL: URL?) -> String {
        if let written = credit?.attribution?.trimmingCharacters(in: .whitespacesAndNewlines), !written.isEmpty {
            return written
        }
        return Attribution.line(
            title: title, author: credit?.creator ?? ownerName, source: credit?.pageURL ?? pageURL, license: credit?.license)
    }
}
