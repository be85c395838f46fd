import Foundation

/// The catalog as Openverse sees it: each photo's stable UUID, its licence
/// in Openverse's terms, and the images Openverse links to.
struct OpenverseCatalog: Sendable {
    /// Full-size images are Flickr's "Large" size (1024 px), or the original when smaller.
    static let fullSizeEdge = 1_024
    /// Openverse's thumbnails are at most 600 px.
    static let thumbnailEdge = 600

    let catalog: Catalog
    private let indexByIdentifier: [String: Int]

    init(catalog: Catalog) {
        self.catalog = catalog
        var map: [String: Int] = [:]
        map.reserveCapacity(catalog.count)
        for index in 0..<catalog.count { map[Self.identifier(of: catalog.photo(at: index))] = index }
        indexByIdentifier = map
    }

    /// A version-4-shaped UUID derived from the photo id alone, so a photo
    /// keeps its Openverse id across runs and catalog sizes.
    static func identifier(of photo: CatalogPhoto) -> String {
        let high = StableHash.hash(photo.id, seed: 0x0BE2_5E)
        let low = StableHash.hash(photo.id, seed: high)
        var hex = Array(hexDigits(high) + hexDigits(low))
        hex[12] = "4"
        hex[16] = Array("89ab")[Int(low >> 62)]
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    private static func hexDigits(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The photo with this Openverse id, if Openverse would list it.
    func photo(identifier: String) -> CatalogPhoto? {
        guard let index = indexByIdentifier[identifier.lowercased()] else { return nil }
        let photo = catalog.photo(at: index)
        return OpenverseLicense(flickrID: photo.license) == nil ? nil : photo
    }

    static func fullSize(of photo: CatalogPhoto) -> (width: Int, height: Int) {
        photo.scaled(toLongestEdge: min(fullSizeEdge, max(photo.originalWidth, photo.originalHeight)))
    }

    static func thumbnailSize(of photo: CatalogPhoto) -> (width: Int, height: Int) {
        photo.scaled(toLongestEdge: min(thumbnailEdge, max(photo.originalWidth, photo.originalHeight)))
    }

    /// Path of the full-size image: `/openverse/{uuid}.{ext}`.
    static func imagePath(of photo: CatalogPhoto) -> String {
        "/openverse/\(identifier(of: photo)).\(photo.fileFormat.rawValue)"
    }
}

/// An Openverse image request: `/v1/images/{uuid}/thumb/` or `/openverse/{uuid}.{ext}`.
struct OpenverseImagePath: Equatable {
    enum Kind: Equatable { case thumbnail, fullSize(extension: String) }

    var identifier: String
    var kind: Kind

    init?(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts.count == 4, parts[0] == "v1", parts[1] == "images", parts[3] == "thumb" {
            identifier = parts[2]
            kind = .thumbnail
        } else if parts.count == 2, parts[0] == "openverse", let dot = parts[1].lastIndex(of: ".") {
            identifier = String(parts[1][..<dot])
            kind = .fullSize(extension: String(parts[1][parts[1].index(after: dot)...]))
        } else {
            return nil
        }
        guard identifier.count == 36 else { return nil }
    }
}
