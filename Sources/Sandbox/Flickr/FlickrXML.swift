/// Flickr's REST XML (`format=rest`, or no format at all), laid out with the
/// tabs and line breaks Flickr uses.
struct FlickrXML {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(16_384) }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func render(_ payload: RestPayload) {
        raw("<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n")
        switch payload {
        case .failure(let code, let message):
            raw("<rsp stat=\"fail\">\n\t<err code=\"\(code)\" msg=\"")
            escaped(message)
            raw("\" />\n</rsp>\n")
        case .echo(let parameters):
            raw("<rsp stat=\"ok\">\n")
            for (name, value) in parameters where Self.isElementName(name) {
                raw("<\(name)>")
                escaped(value)
                raw("</\(name)>\n")
            }
            raw("</rsp>\n")
        case .user(let nsid, let username, let method):
            raw("<rsp stat=\"ok\">\n<user")
            attribute("id", nsid)
            if method == "flickr.people.findByUsername" { attribute("nsid", nsid) }
            raw(">\n\t<username>")
            escaped(username)
            raw("</username>\n</user>\n</rsp>\n")
        case .licenses(let entries):
            raw("<rsp stat=\"ok\">\n<licenses>\n")
            for entry in entries {
                raw("\t<license id=\"\(entry.id)\"")
                attribute("name", entry.name)
                attribute("url", entry.url)
                raw(" />\n")
            }
            raw("</licenses>\n</rsp>\n")
        case .photos(let listing):
            raw("<rsp stat=\"ok\">\n<photos page=\"\(listing.text(\.page, listing.page))\" pages=\"\(listing.text(\.pages, listing.pages))\" ")
            raw("perpage=\"\(listing.text(\.perPage, listing.perPage))\" total=\"\(listing.text(\.total, listing.total))\"")
            if listing.photos.isEmpty {
                raw(" />\n")
                if let gallery = listing.gallery { self.gallery(gallery, imageBase: listing.imageBase) }
                raw("</rsp>\n")
                return
            }
            raw(">\n")
            for photo in listing.photos { self.photo(photo, in: listing) }
            raw("</photos>\n")
            if let gallery = listing.gallery { self.gallery(gallery, imageBase: listing.imageBase) }
            raw("</rsp>\n")
        case .info(let photo):
            raw("<rsp stat=\"ok\">\n")
            info(photo)
            raw("</rsp>\n")
        case .sizes(let photo, let imageBase):
            raw("<rsp stat=\"ok\">\n<sizes canblog=\"0\" canprint=\"0\" candownload=\"1\">\n")
            for size in photo.sizeEntries(imageBase: imageBase) {
                raw("\t<size label=\"\(size.label)\" width=\"\(photo.dimensionText(size.width))\" height=\"\(photo.dimensionText(size.height))\"")
                attribute("source", size.source)
                attribute("url", size.url)
                raw(" media=\"\(size.media)\" />\n")
            }
            raw("</sizes>\n</rsp>\n")
        case .person, .group, .gallery, .photoset, .photosets:
            renderCollection(payload)
        case .createdPhotoset(let id, let url):
            raw("<rsp stat=\"ok\">\n<photoset id=\"\(id)\"")
            attribute("url", url)
            raw(" />\n</rsp>\n")
        }
    }

    /// ` name="value"`, escaped.
    mutating func attribute(_ name: String, _ value: String) {
        raw(" \(name)=\"")
        escaped(value)
        raw("\"")
    }

    /// One `<photo>` of a list, with the attributes its list style adds.
    mutating func photo(_ photo: CatalogPhoto, in listing: PhotoListing) {
        let extras = listing.extras
        let imageBase = listing.imageBase
        raw("\t<photo id=\"\(photo.id)\"")
        if case .photoset = listing.style {} else { raw(" owner=\"\(photo.owner)\"") }
        raw(" secret=\"\(photo.secret)\" server=\"\(photo.server)\" farm=\"\(photo.farm)\"")
        attribute("title", photo.title)
        if case .photoset(let primaryID) = listing.style { raw(" isprimary=\"\(photo.id == primaryID ? 1 : 0)\"") }
        raw(" ispublic=\"\(photo.visibility.isPublic ? 1 : 0)\" isfriend=\"\(photo.visibility.isFriend ? 1 : 0)\"")
        raw(" isfamily=\"\(photo.visibility.isFamily ? 1 : 0)\"")
        if listing.style == .pool {
            attribute("ownername", photo.ownerName)
            raw(" dateadded=\"\(photo.poolDateAdded)\"")
        }
        extraAttributes(photo, extras: extras, imageBase: imageBase, ownerName: listing.style != .pool)
        if case .gallery(let primaryID) = listing.style {
            raw(" is_primary=\"\(photo.id == primaryID ? 1 : 0)\" has_comment=\"0\"")
        }
        if extras.description {
            raw(">\n\t\t<description>")
            escaped(photo.description)
            raw("</description>\n\t</photo>\n")
        } else {
            raw(" />\n")
        }
    }

    /// The attributes `extras` adds to a photo (also `primary_photo_extras`).
    mutating func extraAttributes(_ photo: CatalogPhoto, extras: Extras, imageBase: String, ownerName: Bool = true) {
        if extras.license { attribute("license", photo.licenseText) }
        if extras.originalDimensions { raw(" o_width=\"\(photo.originalWidth)\" o_height=\"\(photo.originalHeight)\"") }
        if extras.dateUpload { raw(" dateupload=\"\(photo.dateUpload)\"") }
        if extras.lastUpdate { raw(" lastupdate=\"\(photo.lastUpdate)\"") }
        if extras.dateTaken { raw(" datetaken=\"\(photo.dateTaken)\" datetakengranularity=\"0\" datetakenunknown=\"0\"") }
        if extras.ownerName, ownerName { attribute("ownername", photo.ownerName) }
        if extras.realName, !photo.ownerRealName.isEmpty { attribute("realname", photo.ownerRealName) }
        if extras.originalFormat {
            raw(" originalsecret=\"\(photo.originalSecret)\" originalformat=\"\(photo.originalFormat)\"")
        }
        if extras.views { raw(" views=\"\(photo.views)\"") }
        if extras.tags { attribute("tags", photo.tags.joined(separator: " ")) }
        if extras.media { raw(" media=\"\(photo.media)\" media_status=\"ready\"") }
        if extras.pathAlias { attribute("pathalias", photo.pathAlias) }
        for size in extras.sizes(of: photo) {
            let (width, height) = photo.dimensions(size)
            attribute("url_\(size.rawValue)", imageBase + photo.imagePath(size))
            raw(" height_\(size.rawValue)=\"\(photo.dimensionText(height))\" width_\(size.rawValue)=\"\(photo.dimensionText(width))\"")
        }
    }

    /// getInfo's `<photo>` element.
    private mutating func info(_ photo: CatalogPhoto) {
        raw("<photo id=\"\(photo.id)\" secret=\"\(photo.secret)\" server=\"\(photo.server)\" farm=\"\(photo.farm)\" ")
        raw("dateuploaded=\"\(photo.dateUpload)\" isfavorite=\"0\"")
        attribute("license", photo.licenseText)
        raw(" safety_level=\"0\" ")
        raw("rotation=\"0\" originalsecret=\"\(photo.originalSecret)\" originalformat=\"\(photo.originalFormat)\" ")
        raw("views=\"\(photo.views)\" media=\"\(photo.media)\">\n\t<owner nsid=\"\(photo.owner)\"")
        attribute("username", photo.ownerName)
        attribute("realname", photo.ownerRealName)
        raw(" location=\"\" iconserver=\"0\" iconfarm=\"0\"")
        attribute("path_alias", photo.pathAlias)
        raw(" />\n\t<title>")
        escaped(photo.title)
        raw("</title>\n\t<description>")
        escaped(photo.description)
        let seen = photo.visibility
        raw("</description>\n\t<visibility ispublic=\"\(seen.isPublic ? 1 : 0)\" isfriend=\"\(seen.isFriend ? 1 : 0)\"")
        raw(" isfamily=\"\(seen.isFamily ? 1 : 0)\" />\n")
        raw("\t<dates posted=\"\(photo.dateUpload)\" taken=\"\(photo.dateTaken)\" takengranularity=\"0\" ")
        raw("takenunknown=\"0\" lastupdate=\"\(photo.lastUpdate)\" />\n")
        raw("\t<editability cancomment=\"0\" canaddmeta=\"0\" />\n")
        raw("\t<publiceditability cancomment=\"1\" canaddmeta=\"0\" />\n")
        raw("\t<usage candownload=\"1\" canblog=\"0\" canprint=\"0\" canshare=\"1\" />\n")
        raw("\t<comments>0</comments>\n\t<notes />\n\t<people haspeople=\"0\" />\n\t<tags>\n")
        for (position, tag) in photo.tags.enumerated() {
            raw("\t\t<tag id=\"\(photo.tagID(position))\" author=\"\(photo.owner)\"")
            attribute("authorname", photo.ownerName)
            attribute("raw", tag)
            raw(" machine_tag=\"0\">")
            escaped(tag)
            raw("</tag>\n")
        }
        raw("\t</tags>\n\t<urls>\n\t\t<url type=\"photopage\">")
        escaped(photo.pageURL)
        raw("</url>\n\t</urls>\n")
        if photo.isVideo {
            let (width, height) = photo.videoDimensions(.orig)
            raw("\t<video ready=\"1\" failed=\"0\" pending=\"0\" duration=\"\(photo.videoDuration)\" ")
            raw("width=\"\(width)\" height=\"\(height)\" />\n")
        }
        raw("</photo>\n")
    }

    /// Escapes markup and line breaks; characters XML 1.0 cannot carry at all
    /// (other C0 controls, U+FFFE, U+FFFF) become U+FFFD.
    mutating func escaped(_ text: String) {
        let start = bytes.count
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "\""): raw("&quot;")
            case UInt8(ascii: "'"): raw("&#039;")
            case 0x0A: raw("&#10;")
            case 0x0D: raw("&#13;")
            case 0x09: raw("&#9;")
            case 0..<0x20: raw("\u{FFFD}")
            default: bytes.append(byte)
            }
        }
        replaceNonCharacters(from: start)
    }

    /// U+FFFE and U+FFFF are no XML characters, not even as references: as
    /// with C0 controls, U+FFFD goes out in their place (same UTF-8 length).
    private mutating func replaceNonCharacters(from start: Int) {
        var index = start
        while index + 2 < bytes.count {
            if bytes[index] == 0xEF, bytes[index + 1] == 0xBF, bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF {
                bytes[index + 2] = 0xBD
            }
            index += 1
        }
    }

    private static func isElementName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
              first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "_.-".unicodeScalars.contains($0))
        }
    }
}
