import Foundation

/// Writes Flickr's wire formats by hand: JSON (optionally wrapped as JSONP)
/// and the REST XML. Written independently of FlickrKit's decoder on
/// purpose, so a misunderstanding of the format cannot hide on both sides.
enum ResponseFormat: Equatable {
    case json
    case jsonp(callback: String)
    case xml

    var contentType: String {
        switch self {
        case .json: "application/json; charset=utf-8"
        case .jsonp: "text/javascript; charset=utf-8"
        case .xml: "text/xml; charset=utf-8"
        }
    }
}

/// One page of photos and what the caller asked to see of each.
struct PhotoListing {
    var page: Int
    var pages: Int
    var perPage: Int
    var total: Int
    var photos: [CatalogPhoto]
    var extras: Extras
    /// `http://host:port`, the prefix of image URLs.
    var imageBase: String
}

/// The `extras` a search or getRecent call asked for.
struct Extras: Equatable {
    var sizes: [SandboxImageSize] = []
    var ownerName = false
    var dateTaken = false
    var dateUpload = false
    var description = false
    var tags = false

    init(_ list: String?) {
        guard let list else { return }
        for item in list.split(separator: ",") {
            let name = item.trimmingCharacters(in: .whitespaces).lowercased()
            switch name {
            case "owner_name": ownerName = true
            case "date_taken": dateTaken = true
            case "date_upload": dateUpload = true
            case "description": description = true
            case "tags": tags = true
            default:
                if name.hasPrefix("url_"), let size = SandboxImageSize(rawValue: String(name.dropFirst(4))),
                   !sizes.contains(size) {
                    sizes.append(size)
                }
            }
        }
    }
}

/// What a REST call produced, before it is put into a format.
enum RestPayload {
    case photos(PhotoListing)
    case echo([(String, String)])
    case failure(code: Int, message: String)
}

enum WireFormat {
    static func render(_ payload: RestPayload, as format: ResponseFormat) -> [UInt8] {
        switch format {
        case .xml:
            var out = XMLOutput()
            out.render(payload)
            return out.bytes
        case .json:
            var out = JSONOutput()
            out.render(payload)
            return out.bytes
        case .jsonp(let callback):
            var out = JSONOutput()
            out.raw(callback + "(")
            out.render(payload)
            out.raw(")")
            return out.bytes
        }
    }
}

private struct JSONOutput {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(16_384) }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func render(_ payload: RestPayload) {
        switch payload {
        case .failure(let code, let message):
            raw("{\"stat\":\"fail\",\"code\":\(code),\"message\":")
            string(message)
            raw("}")
        case .echo(let parameters):
            raw("{")
            for (name, value) in parameters {
                string(name)
                raw(":{\"_content\":")
                string(value)
                raw("},")
            }
            raw("\"stat\":\"ok\"}")
        case .photos(let listing):
            raw("{\"photos\":{\"page\":\(listing.page),\"pages\":\(listing.pages),\"perpage\":\(listing.perPage),")
            raw("\"total\":\(listing.total),\"photo\":[")
            for (position, photo) in listing.photos.enumerated() {
                if position > 0 { raw(",") }
                self.photo(photo, extras: listing.extras, imageBase: listing.imageBase)
            }
            raw("]},\"stat\":\"ok\"}")
        }
    }

    private mutating func photo(_ photo: CatalogPhoto, extras: Extras, imageBase: String) {
        raw("{\"id\":\"\(photo.id)\",\"owner\":\"\(photo.owner)\",\"secret\":\"\(photo.secret)\",")
        raw("\"server\":\"\(photo.server)\",\"farm\":\(photo.farm),\"title\":")
        string(photo.title)
        raw(",\"ispublic\":1,\"isfriend\":0,\"isfamily\":0")
        if extras.description {
            raw(",\"description\":{\"_content\":")
            string(photo.description)
            raw("}")
        }
        if extras.dateUpload { raw(",\"dateupload\":\"\(photo.dateUpload)\"") }
        if extras.dateTaken {
            raw(",\"datetaken\":\"\(photo.dateTaken)\",\"datetakengranularity\":0,\"datetakenunknown\":\"0\"")
        }
        if extras.ownerName {
            raw(",\"ownername\":")
            string(photo.ownerName)
        }
        if extras.tags {
            raw(",\"tags\":")
            string(photo.tags.joined(separator: " "))
        }
        for size in extras.sizes {
            let (width, height) = photo.dimensions(size)
            raw(",\"url_\(size.rawValue)\":")
            string(imageBase + photo.imagePath(size))
            raw(",\"height_\(size.rawValue)\":\(height),\"width_\(size.rawValue)\":\(width)")
        }
        raw("}")
    }

    /// A JSON string literal. Slashes are escaped as Flickr does (`http:\/\/`).
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "/"): raw("\\/")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20, 0x7F:
                raw("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

private struct XMLOutput {
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
        case .photos(let listing):
            raw("<rsp stat=\"ok\">\n<photos page=\"\(listing.page)\" pages=\"\(listing.pages)\" ")
            raw("perpage=\"\(listing.perPage)\" total=\"\(listing.total)\"")
            if listing.photos.isEmpty {
                raw(" />\n</rsp>\n")
                return
            }
            raw(">\n")
            for photo in listing.photos { self.photo(photo, extras: listing.extras, imageBase: listing.imageBase) }
            raw("</photos>\n</rsp>\n")
        }
    }

    private mutating func photo(_ photo: CatalogPhoto, extras: Extras, imageBase: String) {
        raw("\t<photo id=\"\(photo.id)\" owner=\"\(photo.owner)\" secret=\"\(photo.secret)\" ")
        raw("server=\"\(photo.server)\" farm=\"\(photo.farm)\" title=\"")
        escaped(photo.title)
        raw("\" ispublic=\"1\" isfriend=\"0\" isfamily=\"0\"")
        if extras.dateUpload { raw(" dateupload=\"\(photo.dateUpload)\"") }
        if extras.dateTaken { raw(" datetaken=\"\(photo.dateTaken)\" datetakengranularity=\"0\" datetakenunknown=\"0\"") }
        if extras.ownerName {
            raw(" ownername=\"")
            escaped(photo.ownerName)
            raw("\"")
        }
        if extras.tags {
            raw(" tags=\"")
            escaped(photo.tags.joined(separator: " "))
            raw("\"")
        }
        for size in extras.sizes {
            let (width, height) = photo.dimensions(size)
            raw(" url_\(size.rawValue)=\"")
            escaped(imageBase + photo.imagePath(size))
            raw("\" height_\(size.rawValue)=\"\(height)\" width_\(size.rawValue)=\"\(width)\"")
        }
        if extras.description {
            raw(">\n\t\t<description>")
            escaped(photo.description)
            raw("</description>\n\t</photo>\n")
        } else {
            raw(" />\n")
        }
    }

    /// Escapes markup and line breaks; characters XML 1.0 cannot carry at all
    /// (other C0 controls) become U+FFFD.
    mutating func escaped(_ text: String) {
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
    }

    private static func isElementName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
              first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "_.-".unicodeScalars.contains($0))
        }
    }
}
