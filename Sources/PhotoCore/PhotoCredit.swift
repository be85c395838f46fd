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
    /// The credit line for this photo: the service's own when it writes one
    /// that names the licence the service's fields give, else TASL from its
    /// title, creator, page and licence. A credit line that names other
    /// terms than the licence beside it (or names terms where none is
    /// stated) would have a file published under the wrong terms.
    public func attributionLine(pageURL: URL?) -> String {
        if let written = credit?.attribution?.trimmingCharacters(in: .whitespacesAndNewlines), !written.isEmpty,
           let license = credit?.license, Self.names(license, in: written) {
            return written
        }
        return Attribution.line(
            title: title, author: credit?.creator ?? ownerName, source: credit?.pageURL ?? pageURL, license: credit?.license)
    }

    /// Whether `line` names `license` (short or full name, any case) and no
    /// other Creative Commons licence or tool.
    private static func names(_ license: License, in line: String) -> Bool {
        let line = line.lowercased()
        guard line.contains(license.shortName.lowercased()) || line.contains(license.fullName.lowercased()) else { return false }
        // "CC BY 2.0" names CC BY 2.0; "CC BY-SA 2.0" or "CC BY 2.0 … CC BY-NC 4.0" does not.
        let others = line.ranges(of: "cc ").count + line.ranges(of: "cc0").count
        let own = line.ranges(of: license.shortName.lowercased()).count
        return license.shortName.lowercased().hasPrefix("cc") ? others <= own : others == 0
    }
}
