import Foundation

/// What one `action=query` answer holds, before it is written.
struct CommonsQueryParts {
    /// Files with their search rank (`nil` outside a generator).
    var pages: [(photo: CatalogPhoto, index: Int?)] = []
    /// `list=search` results, in rank order.
    var searchList: [CatalogPhoto]?
    var totalHits: Int?
    /// The `continue` object: numbers are written as numbers.
    var continuation: [(String, String)]?
    var missingTitles: [String] = []
    var missingIDs: [String] = []
    /// `siprop` when `meta=siteinfo` was asked.
    var siteInfo: [String]?
    var userInfo = false
}

/// Writes a query answer in the request's format version, with the
/// `imageinfo` and `extmetadata` members the request asked for, in the
/// order Commons sends them.
struct CommonsAnswerWriter {
    var out: CommonsJSON
    private let request: CommonsRequest
    private let base: String
    private let properties: [String]
    private let imageProperties: [String]
    private let metadataFilter: [String]

    init(request: CommonsRequest, formatVersion: Int, base: String) {
        self.request = request
        self.base = base
        out = CommonsJSON(formatVersion: formatVersion)
        properties = request.list("prop")
        let asked = request.list("iiprop")
        imageProperties = asked.isEmpty ? ["timestamp", "user"] : asked
        metadataFilter = request.list("iiextmetadatafilter")
    }

    private var fv2: Bool { out.formatVersion >= 2 }
    /// The hostile sandbox's counts and sizes, when a numbers case is in force.
    private let numbers = Hostility.active(.numbers).flatMap(HostileNumbers.init)
    /// The link case in force: pages and users on hosts that only look like Commons'.
    private let link = Hostility.active(.link)

    mutating func write(_ parts: CommonsQueryParts) {
        out.raw("{")
        out.flag("batchcomplete", true)
        if let continuation = parts.continuation {
            out.raw(",\"continue\":{")
            for (position, (name, value)) in continuation.enumerated() {
                if position > 0 { out.raw(",") }
                if let number = numbers?.page.json, Int(value) != nil {
                    out.key(name)
                    out.raw(number)
                } else if let number = Int(value) {
                    out.member(name, number)
                } else {
                    out.member(name, value)
                }
            }
            out.raw("}")
        }
        out.raw(",\"query\":{")
        var first = true
        func comma(_ out: inout CommonsJSON) {
            if !first { out.raw(",") }
            first = false
        }
        if let total = parts.totalHits {
            comma(&out)
            out.raw("\"searchinfo\":{\"totalhits\":\(numbers?.total.json ?? String(total))}")
        }
        if let list = parts.searchList {
            comma(&out)
            out.raw("\"search\":[")
            for (position, photo) in list.enumerated() {
                if position > 0 { out.raw(",") }
                searchResult(photo)
            }
            out.raw("]")
        }
        if !parts.pages.isEmpty || !parts.missingTitles.isEmpty || !parts.missingIDs.isEmpty {
            comma(&out)
            pages(parts)
        }
        if let siteInfo = parts.siteInfo {
            if siteInfo.isEmpty || siteInfo.contains("general") {
                comma(&out)
                general()
            }
            if siteInfo.contains("namespaces") {
                comma(&out)
                namespaces()
            }
        }
        if parts.userInfo {
            comma(&out)
            out.raw("\"userinfo\":{\"id\":0,\"name\":\"127.0.0.1\",")
            out.flag("anon", true)
            out.raw(",\"groups\":[\"*\"],\"rights\":[\"read\"]}")
        }
        out.raw("}}")
    }

    // MARK: - Pages

    /// By page id, as Commons lists them (an object keyed by id in
    /// formatversion 1, a list in 2), never in rank order; missing ones
    /// first, with negative keys.
    private mutating func pages(_ parts: CommonsQueryParts) {
        out.raw(fv2 ? "\"pages\":[" : "\"pages\":{")
        var first = true
        for (position, title) in parts.missingTitles.enumerated() {
            if !first { out.raw(",") }
            first = false
            if !fv2 { out.raw("\"\(-(position + 1))\":") }
            out.raw("{\"ns\":6,")
            out.member("title", title)
            out.raw(",")
            out.flag("missing", true)
            out.raw("}")
        }
        for id in parts.missingIDs {
            if !first { out.raw(",") }
            first = false
            let number = Int(id).map(String.init) ?? "0"
            if !fv2 { out.raw("\"\(number)\":") }
            out.raw("{\"pageid\":\(number),")
            out.flag("missing", true)
            out.raw("}")
        }
        let sorted = parts.pages.sorted { (Int($0.photo.id) ?? 0) < (Int($1.photo.id) ?? 0) }
        for (photo, index) in sorted {
            if !first { out.raw(",") }
            first = false
            if !fv2 { out.raw("\"\(photo.id)\":") }
            page(photo, index: index)
        }
        out.raw(fv2 ? "]" : "}")
    }

    private mutating func page(_ photo: CatalogPhoto, index: Int?) {
        out.raw("{\"pageid\":\(photo.id),\"ns\":6,")
        out.member("title", CommonsCatalog.pageTitle(of: photo))
        if let index { out.raw(",\"index\":\(numbers?.perPage.json ?? String(index))") }
        if properties.contains("info") {
            out.raw(",\"contentmodel\":\"wikitext\",\"pagelanguage\":\"en\",\"pagelanguagehtmlcode\":\"en\",\"pagelanguagedir\":\"ltr\",")
            out.member("touched", Self.timestamp(photo.dateUpload + 86_400))
            out.raw(",\"lastrevid\":\(photo.index + 100_000_000),\"length\":\(photo.description.utf8.count + 400)")
            if request.list("inprop").contains("protection") {
                out.raw(",\"protection\":[],\"restrictiontypes\":[\"edit\",\"move\",\"upload\"]")
            }
        }
        if properties.contains("imageinfo") {
            out.raw(",\"imagerepository\":\"local\",\"imageinfo\":[")
            imageInfo(photo)
            out.raw("]")
        }
        out.raw("}")
    }

    private mutating func imageInfo(_ photo: CatalogPhoto) {
        var first = true
        func next(_ out: inout CommonsJSON) {
            if !first { out.raw(",") }
            first = false
        }
        out.raw("{")
        if imageProperties.contains("timestamp") {
            next(&out)
            out.member("timestamp", Self.timestamp(photo.dateUpload))
        }
        if imageProperties.contains("user") {
            next(&out)
            out.member("user", photo.ownerName)
        }
        if imageProperties.contains("size") {
            next(&out)
            let bytes = photo.originalWidth.multipliedReportingOverflow(by: photo.originalHeight).partialValue / 5
            out.raw("\"size\":\(bytes),\"width\":\(photo.dimensionJSON(photo.originalWidth)),\"height\":\(photo.dimensionJSON(photo.originalHeight))")
            if photo.isVideo { out.raw(",\"duration\":\(Double(photo.index % 90 + 5) + 0.48)") }
        }
        if imageProperties.contains("url") {
            if let width = request.value("iiurlwidth").flatMap(Int.init), width > 0 {
                let (thumbWidth, thumbHeight) = CommonsCatalog.thumbnailSize(of: photo, width: width)
                next(&out)
                out.member("thumburl", CommonsCatalog.thumbnailURL(of: photo, width: thumbWidth, base: base))
                out.raw(",\"thumbwidth\":\(photo.dimensionJSON(thumbWidth)),\"thumbheight\":\(photo.dimensionJSON(thumbHeight))")
            }
            next(&out)
            out.member("url", CommonsCatalog.fileURL(of: photo, base: base))
            out.raw(",")
            let page = "/wiki/" + CommonsCatalog.pageTitle(of: photo).replacingOccurrences(of: " ", with: "_")
            out.member("descriptionurl", link?.lookalikeLink(host: "commons.wikimedia.org", path: page, salt: photo.index) ?? base + page)
            out.raw(",")
            out.member("descriptionshorturl", base + "/w/index.php?curid=\(photo.id)")
        }
        if imageProperties.contains("sha1") {
            next(&out)
            let hash = StableHash.hash(photo.id, seed: 0x5A1)
            out.member("sha1", String(repeating: "0", count: 24) + String(hash, radix: 16).leftPadded(16))
        }
        if imageProperties.contains("metadata") {
            next(&out)
            out.raw("\"metadata\":[]")
        }
        if imageProperties.contains("comment") {
            next(&out)
            out.member("comment", "Transferred from Flickr")
        }
        if imageProperties.contains("extmetadata") {
            next(&out)
            extmetadata(photo)
        }
        if imageProperties.contains("mime") {
            next(&out)
            out.member("mime", CommonsCatalog.mime(of: photo))
        }
        out.raw("}")
    }

    /// CommonsMetadata's fields: HTML where Commons has HTML (`Artist`,
    /// `Credit`, `ImageDescription`), each `{value, source, hidden}`.
    private mutating func extmetadata(_ photo: CatalogPhoto) {
        let license = CommonsCatalog.license(of: photo)
        let hostileLicense = photo.hostile.license
        let name = photo.ownerRealName.isEmpty ? photo.ownerName : photo.ownerRealName
        let user = Self.html(photo.ownerName.replacingOccurrences(of: " ", with: "_"))
        // A hostile server's user link only looks like Commons'.
        let userLink = link?.lookalikeLink(host: "commons.wikimedia.org", path: "/wiki/User:\(user)", salt: photo.index + 1)
            ?? "//commons.wikimedia.org/wiki/User:\(user)"
        let artist = "<a href=\"\(Self.html(userLink))\" title=\"User:\(user)\">\(Self.html(name))</a>"
        let credit = photo.index % 2 == 0
            ? "<span class=\"int-own-work\" lang=\"en\">Own work</span>"
            : "<a rel=\"nofollow\" class=\"external text\" href=\"https://www.flickr.com/photos/\(Self.html(photo.owner))/\(photo.id)\">\(Self.html(photo.title.isEmpty ? "Flickr" : photo.title))</a>"
        var fields: [(String, String, String)] = [
            ("DateTime", CalendarDate(unix: photo.dateUpload).text, "mediawiki-metadata"),
            ("ObjectName", photo.title.isEmpty ? String(CommonsCatalog.fileName(of: photo).dropLast(4)) : photo.title, "mediawiki-metadata"),
        ]
        if !photo.description.isEmpty {
            fields.append(("ImageDescription", Self.html(photo.description), "commons-desc-page"))
        }
        fields += [
            ("DateTimeOriginal", photo.dateTaken, "commons-desc-page"),
            ("Credit", credit, "commons-desc-page"),
            ("Artist", artist, "commons-desc-page"),
        ]
        if let license {
            // A licence case: a name and deed nobody issues, or an attribution naming another licence.
            let shortName = hostileLicense.flatMap { hostile in hostile.slug.map { "CC \($0.uppercased()) \(hostile.version ?? "")" } }
            fields.append(("LicenseShortName", shortName ?? license.shortName, "commons-desc-page"))
            fields.append(("UsageTerms", license.usageTerms, "commons-desc-page"))
            fields.append(("AttributionRequired", license.attributionRequired ? "true" : "false", "commons-desc-page"))
            if license.attributionRequired { fields.append(("Attribution", hostileLicense?.attribution ?? artist, "commons-desc-page")) }
            if let url = hostileLicense?.url ?? license.url { fields.append(("LicenseUrl", url, "commons-desc-page")) }
            fields.append(("Copyrighted", license.attributionRequired ? "True" : "False", "commons-desc-page"))
            fields.append(("License", license.code, "commons-templates"))
        }
        if !metadataFilter.isEmpty { fields = fields.filter { metadataFilter.contains($0.0) } }
        out.raw("\"extmetadata\":{")
        for (position, (name, value, source)) in fields.enumerated() {
            if position > 0 { out.raw(",") }
            out.key(name)
            out.raw("{")
            out.member("value", value)
            out.raw(",")
            out.member("source", source)
            out.raw(",")
            out.flag("hidden", true)
            out.raw("}")
        }
        out.raw("}")
    }

    // MARK: - list=search, siteinfo

    private mutating func searchResult(_ photo: CatalogPhoto) {
        out.raw("{\"ns\":6,")
        out.member("title", CommonsCatalog.pageTitle(of: photo))
        out.raw(",\"pageid\":\(photo.id),\"size\":\(photo.description.utf8.count + 400),\"wordcount\":\(photo.description.split(separator: " ").count),")
        out.member("snippet", Self.html(String(photo.description.prefix(120))))
        out.raw(",")
        out.member("timestamp", Self.timestamp(photo.dateUpload + 86_400))
        out.raw("}")
    }

    private mutating func general() {
        let host = base.split(separator: "/").last.map(String.init) ?? "127.0.0.1"
        out.raw("\"general\":{\"mainpage\":\"Main Page\",")
        out.member("base", base + "/wiki/Main_Page")
        out.raw(",\"sitename\":\"Wikimedia Commons\",\"generator\":\"MediaWiki 1.45.0-wmf.5\",\"phpversion\":\"8.1.31\",")
        out.raw("\"dbtype\":\"mysql\",\"case\":\"first-letter\",\"lang\":\"en\",")
        out.member("server", base)
        out.raw(",")
        out.member("servername", host)
        out.raw(",\"articlepath\":\"/wiki/$1\",\"scriptpath\":\"/w\",\"script\":\"/w/index.php\",\"wikiid\":\"commonswiki\"}")
    }

    private mutating func namespaces() {
        let spaces: [(Int, String, String?)] = [
            (-2, "Media", "Media"), (-1, "Special", "Special"), (0, "", nil), (1, "Talk", "Talk"), (2, "User", "User"),
            (6, "File", "File"), (14, "Category", "Category"),
        ]
        out.raw("\"namespaces\":{")
        for (position, (id, name, canonical)) in spaces.enumerated() {
            if position > 0 { out.raw(",") }
            out.raw("\"\(id)\":{\"id\":\(id),\"case\":\"first-letter\",")
            if fv2 {
                out.member("name", name)
                out.raw(",\"subpages\":false")
            } else {
                out.member("*", name)
            }
            if let canonical {
                out.raw(",")
                out.member("canonical", canonical)
            }
            if fv2 {
                out.raw(",\"content\":\(id == 0)")
            } else if id == 0 {
                out.raw(",\"content\":\"\"")
            }
            out.raw("}")
        }
        out.raw("}")
    }

    // MARK: - Text

    /// `2021-07-29T10:12:33Z`.
    static func timestamp(_ unix: Int) -> String {
        CalendarDate(unix: unix).text.replacingOccurrences(of: " ", with: "T") + "Z"
    }

    /// Text inside HTML: the five specials as entities, and controls and
    /// direction marks as numeric ones (`&#x1B;`), as a server may send
    /// them: a reader that decodes entities gets them back raw.
    static func html(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#039;"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value):
                result += "&#x\(String(scalar.value, radix: 16, uppercase: true));"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
