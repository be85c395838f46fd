/// Shutterstock's image sizes (`assets` members) and where the sandbox serves them.
enum ShutterstockAsset: String, CaseIterable {
    case preview, small_thumb, large_thumb, mosaic, preview_1000, preview_1500, huge_thumb

    /// The size part of the image's file name, as on Shutterstock's CDN.
    var variant: String {
        switch self {
        case .preview: "450w"
        case .small_thumb: "100nw"
        case .large_thumb: "150nw"
        case .mosaic: "250nw"
        case .preview_1000: "1000w"
        case .preview_1500: "1500w"
        case .huge_thumb: "260nw"
        }
    }

    init?(variant: String) {
        guard let asset = Self.allCases.first(where: { $0.variant == variant }) else { return nil }
        self = asset
    }

    /// The longest edge is the size, except `huge_thumb`, which is always
    /// 260 high; never larger than the original.
    func dimensions(of photo: CatalogPhoto) -> (width: Int, height: Int) {
        let longest = max(photo.originalWidth, photo.originalHeight)
        if self == .huge_thumb {
            let height = min(260, photo.originalHeight)
            let width = max(1, Int((Double(height) * Double(photo.originalWidth) / Double(photo.originalHeight)).rounded()))
            return (width, height)
        }
        let edge = Int(variant.prefix { $0.isNumber }) ?? 450
        return photo.scaled(toLongestEdge: min(edge, longest))
    }

    /// `/image-photo/{words-of-the-title}-{variant}-{id}.jpg`.
    func path(of photo: CatalogPhoto) -> String {
        "/image-photo/\(ShutterstockJSON.slug(photo.title))-\(variant)-\(photo.id).jpg"
    }
}

/// `GET /v2/images/search` bodies in Shutterstock's current shape: compact,
/// `total_count` first, ids as digit strings, assets `{height, width, url}`.
struct ShutterstockJSON {
    var writer = JSONWriter(escapesSlashes: false)
    /// `http://host:port`, the prefix of asset URLs.
    let imageBase: String

    init(imageBase: String) { self.imageBase = imageBase }

    private mutating func raw(_ text: String) { writer.raw(text) }

    mutating func searchResults(
        _ photos: [CatalogPhoto], page: Int, perPage: Int, total: Int, searchID: String, query: String, full: Bool
    ) {
        let numbers = Hostility.active(.numbers).flatMap(HostileNumbers.init)
        raw("{\"total_count\":\(numbers?.total.json ?? "\(total)"),")
        writer.member("search_id", searchID)
        raw(",\"page\":\(numbers?.page.json ?? "\(page)"),\"per_page\":\(numbers?.perPage.json ?? "\(perPage)"),")
        raw("\"spellcheck_info\":{\"spellchecked_query\":null,")
        writer.member("orig_query", query)
        raw(",\"orig_results_count\":0},\"data\":[")
        for (position, photo) in photos.enumerated() {
            if position > 0 { raw(",") }
            item(photo, full: full)
        }
        raw("]}")
    }

    private mutating func item(_ photo: CatalogPhoto, full: Bool) {
        raw("{\"id\":\"\(photo.id)\",\"aspect\":\(Self.aspect(photo)),\"assets\":{")
        for (position, asset) in ShutterstockAsset.allCases.enumerated() {
            if position > 0 { raw(",") }
            let (width, height) = asset.dimensions(of: photo)
            raw("\"\(asset.rawValue)\":{\"height\":\(photo.dimensionJSON(height)),\"width\":\(photo.dimensionJSON(width)),")
            writer.member("url", imageBase + asset.path(of: photo))
            raw("}")
        }
        if full { downloadSizes(photo) }
        raw("},\"contributor\":{\"id\":\"\(Self.contributorID(photo))\"},")
        writer.member("description", photo.title)
        raw(",\"image_type\":\"photo\",\"has_model_release\":false,\"media_type\":\"image\"")
        if full {
            let added = CalendarDate(unix: photo.dateUpload)
            raw(",\"added_date\":\"\(added.text.prefix(10))\",\"categories\":[],\"keywords\":[")
            for (position, tag) in photo.tags.enumerated() {
                if position > 0 { raw(",") }
                writer.string(tag)
            }
            raw("],\"has_property_release\":false,\"is_adult\":false,\"is_editorial\":false,")
            raw("\"is_illustration\":false")
        }
        raw("}")
    }

    /// The full view's licensable sizes: no URL, as on Shutterstock.
    private mutating func downloadSizes(_ photo: CatalogPhoto) {
        let longest = max(photo.originalWidth, photo.originalHeight)
        let sizes = [("small_jpg", "Small", 500), ("medium_jpg", "Med", 1000), ("huge_jpg", "Huge", longest)]
        for (name, display, edge) in sizes {
            let (width, height) = photo.scaled(toLongestEdge: min(edge, longest))
            raw(",\"\(name)\":{\"display_name\":\"\(display)\",\"width\":\(width),\"height\":\(height),")
            raw("\"dpi\":\(edge == longest ? 300 : 72),\"file_size\":\(width * height / 4),\"format\":\"jpg\",")
            raw("\"is_licensable\":true}")
        }
    }

    /// Width over height, cut (not rounded) to four decimals and written
    /// without trailing zeros: `1.3333`, `1.5`, `1`.
    static func aspect(_ photo: CatalogPhoto) -> String {
        let scaled = photo.originalWidth * 10_000 / max(1, photo.originalHeight)
        let whole = scaled / 10_000
        var fraction = String(scaled % 10_000)
        if fraction == "0" { return String(whole) }
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }

    /// The owner's NSID without its `@N0x`: Shutterstock contributor ids are digits.
    static func contributorID(_ photo: CatalogPhoto) -> String { String(photo.owner.prefix { $0 != "@" }) }

    /// Up to six lowercase ASCII words of the title, joined by hyphens
    /// (`stock-photo` when the title has none).
    static func slug(_ title: String) -> String {
        var words: [String] = []
        var current = ""
        for scalar in title.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current.lowercased())
                current = ""
            }
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words.isEmpty ? "stock-photo" : words.prefix(6).joined(separator: "-")
    }
}
