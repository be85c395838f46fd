import Foundation

/// Openverse's JSON, in the member order of its 2024 responses: UTF-8
/// literal, slashes unescaped (Django REST Framework's renderer).
struct OpenverseJSON {
    var writer = JSONWriter(escapesSlashes: false)
    /// `http://host:port`, the prefix of image and API URLs.
    let base: String

    init(base: String) { self.base = base }

    private mutating func raw(_ text: String) { writer.raw(text) }

    mutating func page(_ photos: [CatalogPhoto], resultCount: Int, pageCount: Int, pageSize: Int, page: Int, query: SearchQuery) {
        let numbers = Hostility.active(.numbers).flatMap(HostileNumbers.init)
        raw("{\"result_count\":\(numbers?.total.json ?? "\(resultCount)"),\"page_count\":\(numbers?.pages.json ?? "\(pageCount)"),")
        raw("\"page_size\":\(numbers?.perPage.json ?? "\(pageSize)"),\"page\":\(numbers?.page.json ?? "\(page)"),\"results\":[")
        for (position, photo) in photos.enumerated() {
            if position > 0 { raw(",") }
            result(photo, query: query)
        }
        raw("],\"warnings\":[]}")
    }

    /// One image. The caller makes sure the photo has an open licence.
    mutating func result(_ photo: CatalogPhoto, query: SearchQuery) {
        guard let license = OpenverseLicense(flickrID: photo.license) else { return }
        let identifier = OpenverseCatalog.identifier(of: photo)
        let (width, height) = OpenverseCatalog.fullSize(of: photo)
        let indexed = CalendarDate(unix: photo.dateUpload + 86_400 * 30)
        let indexedText = indexed.text.replacingOccurrences(of: " ", with: "T")
        raw("{")
        writer.member("id", identifier)
        raw(",")
        writer.member("title", photo.title)
        raw(",\"indexed_on\":\"\(indexedText).\(String(photo.views % 1_000_000).leftPadded(6))Z\",")
        writer.member("foreign_landing_url", photo.hostile.pageURL ?? "https://www.flickr.com/photos/\(photo.owner)/\(photo.id)")
        raw(",")
        writer.member("url", base + OpenverseCatalog.imagePath(of: photo))
        raw(",")
        writer.member("creator", photo.ownerName)
        raw(",")
        writer.member("creator_url", photo.hostile.creatorURL ?? "https://www.flickr.com/photos/\(photo.owner)")
        let hostileLicense = photo.hostile.license
        raw(",")
        writer.member("license", hostileLicense?.slug ?? license.slug)
        raw(",")
        writer.member("license_version", hostileLicense?.version ?? license.version)
        raw(",")
        writer.member("license_url", hostileLicense?.url ?? license.url)
        raw(",\"provider\":\"flickr\",\"source\":\"flickr\",\"category\":\"photograph\",\"filesize\":null,")
        raw("\"filetype\":\"\(photo.fileFormat.rawValue)\",\"tags\":[")
        for (position, tag) in photo.tags.enumerated() {
            if position > 0 { raw(",") }
            raw("{")
            writer.member("name", tag)
            raw(",\"accuracy\":null}")
        }
        raw("],")
        writer.member("attribution", hostileLicense?.attribution ?? license.attribution(title: photo.title, creator: photo.ownerName))
        raw(",\"fields_matched\":[")
        raw(Self.fieldsMatched(photo, query: query).map { "\"\($0)\"" }.joined(separator: ","))
        raw("],\"mature\":false,\"height\":\(photo.dimensionJSON(height)),\"width\":\(photo.dimensionJSON(width)),")
        writer.member("thumbnail", base + "/v1/images/\(identifier)/thumb/")
        raw(",")
        writer.member("detail_url", base + "/v1/images/\(identifier)/")
        raw(",")
        writer.member("related_url", base + "/v1/images/\(identifier)/related/")
        raw(",\"unstable__sensitivity\":[]}")
    }

    /// The fields in which the query's words occur, named as Openverse names them.
    static func fieldsMatched(_ photo: CatalogPhoto, query: SearchQuery) -> [String] {
        guard !query.required.isEmpty else { return [] }
        func matches(_ tokens: [String]) -> Bool { query.required.contains(where: tokens.contains) }
        var fields: [String] = []
        if matches(Tokenizer.tokens(of: photo.description)) { fields.append("description") }
        if matches(photo.tags.flatMap(Tokenizer.tokens(of:))) { fields.append("tags.name") }
        if matches(Tokenizer.tokens(of: photo.title)) { fields.append("title") }
        return fields
    }
}

extension String {
    fileprivate func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
