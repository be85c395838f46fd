import Foundation

/// The catalog as Wikimedia Commons would hold it: only freely licensed
/// photos (Commons takes no NC or ND licences), each a file page whose id
/// is the photo's id and whose name follows the Flickr-import habit,
/// `File:Title (ID).jpg`.
struct CommonsCatalog: Sendable {
    let catalog: Catalog
    private let indexByTitle: [String: Int]

    init(catalog: Catalog) {
        self.catalog = catalog
        var map: [String: Int] = [:]
        for index in 0..<catalog.count where Self.license(of: catalog.photo(at: index)) != nil {
            map[Self.pageTitle(of: catalog.photo(at: index))] = index
        }
        indexByTitle = map
    }

    /// The file with this page id, if Commons would hold it.
    func photo(pageID: String) -> CatalogPhoto? {
        guard let photo = catalog.photo(id: pageID), Self.license(of: photo) != nil else { return nil }
        return photo
    }

    /// The file with this title (`File:…`, spaces or underscores).
    func photo(title: String) -> CatalogPhoto? {
        indexByTitle[title.replacingOccurrences(of: "_", with: " ")].map(catalog.photo(at:))
    }

    // MARK: - Names

    /// `File:Sunset over the bay (12345678901).jpg`; characters a file name
    /// cannot hold become `-`, and a long title is cut so the name stays
    /// within MediaWiki's 240 bytes.
    static func pageTitle(of photo: CatalogPhoto) -> String {
        "File:" + fileName(of: photo)
    }

    static func fileName(of photo: CatalogPhoto) -> String {
        var title = String(photo.title.map { "#<>[]|{}/:\n\r\t".contains($0) ? "-" : $0 })
            .trimmingCharacters(in: .whitespaces)
        if title.isEmpty { title = "Untitled" }
        while title.utf8.count > 180 { title.removeLast() }
        return "\(title) (\(photo.id)).\(fileExtension(of: photo))"
    }

    /// Videos are WebM files (with a JPEG poster as their thumbnail); photos JPEGs.
    static func fileExtension(of photo: CatalogPhoto) -> String { photo.isVideo ? "webm" : "jpg" }

    static func mime(of photo: CatalogPhoto) -> String { photo.isVideo ? "video/webm" : "image/jpeg" }

    /// The file name as it goes in a path: spaces as underscores, the rest
    /// percent-encoded as Commons' upload URLs are.
    static func pathName(of photo: CatalogPhoto) -> String {
        let name = fileName(of: photo).replacingOccurrences(of: " ", with: "_")
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%;,'")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }

    /// Commons' two hash directories (`/a/ab/`), here from a stable hash of the id.
    static func hashDirectories(of photo: CatalogPhoto) -> String {
        let hex = String(StableHash.hash(photo.id, seed: 0xC0_33), radix: 16)
        let padded = String(repeating: "0", count: max(0, 2 - hex.count)) + hex
        let first = String(padded.prefix(1))
        return "\(first)/\(padded.prefix(2))"
    }

    // MARK: - Images

    /// `{base}/wikipedia/commons/a/ab/NAME`: the file itself.
    static func fileURL(of photo: CatalogPhoto, base: String) -> String {
        "\(base)/wikipedia/commons/\(hashDirectories(of: photo))/\(pathName(of: photo))"
    }

    /// `{base}/wikipedia/commons/thumb/a/ab/NAME/{W}px-NAME` (a `.jpg` poster after a video's name).
    static func thumbnailURL(of photo: CatalogPhoto, width: Int, base: String) -> String {
        let name = pathName(of: photo)
        let poster = photo.isVideo ? "-\(name).jpg" : name
        return "\(base)/wikipedia/commons/thumb/\(hashDirectories(of: photo))/\(name)/\(width)px-\(poster)"
    }

    /// The original's size (the catalog's), and a thumbnail's for a width:
    /// never wider than the original.
    static func thumbnailSize(of photo: CatalogPhoto, width: Int) -> (width: Int, height: Int) {
        let thumbWidth = min(max(width, 1), photo.originalWidth)
        let height = max(1, Int((Double(thumbWidth) * Double(photo.originalHeight) / Double(max(photo.originalWidth, 1))).rounded()))
        return (thumbWidth, height)
    }

    // MARK: - Licences

    /// Commons' words for a catalog photo's Flickr licence; nil for licences
    /// Commons does not accept (all rights reserved, NC, ND).
    static func license(of photo: CatalogPhoto) -> CommonsLicenseWords? {
        switch photo.license {
        case 4: .cc("by", "2.0")
        case 5: .cc("by-sa", "2.0")
        case 11: .cc("by", "4.0")
        case 12: .cc("by-sa", "4.0")
        case 9: CommonsLicenseWords(shortName: "CC0", code: "cc0", url: "https://creativecommons.org/publicdomain/zero/1.0/deed.en",
                                    usageTerms: "Creative Commons Zero, Public Domain Dedication", attributionRequired: false)
        case 7: CommonsLicenseWords(shortName: "No restrictions", code: "no restrictions", url: "https://www.flickr.com/commons/usage/",
                                    usageTerms: "No restrictions", attributionRequired: false)
        case 8, 10: CommonsLicenseWords(shortName: "Public domain", code: "pd", url: nil, usageTerms: "Public domain",
                                        attributionRequired: false)
        default: nil
        }
    }
}

/// A licence as a Commons file page states it (`LicenseShortName`,
/// `License`, `LicenseUrl`, `UsageTerms`, `AttributionRequired`).
struct CommonsLicenseWords: Sendable, Equatable {
    var shortName: String
    var code: String
    var url: String?
    var usageTerms: String
    var attributionRequired: Bool

    static func cc(_ kind: String, _ version: String) -> CommonsLicenseWords {
        let words = kind.split(separator: "-").map { part in
            switch part {
            case "by": "Attribution"
            case "sa": "Share Alike"
            default: String(part)
            }
        }
        return CommonsLicenseWords(
            shortName: "CC \(kind.uppercased()) \(version)", code: "cc-\(kind)-\(version)",
            url: "https://creativecommons.org/licenses/\(kind)/\(version)", usageTerms: "Creative Commons \(words.joined(separator: "-")) \(version)",
            attributionRequired: true)
    }
}
