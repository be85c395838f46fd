import PhotoCore
import Foundation
import Networking

/// Turns what Flickr sends into a `PhotoPage`, accepting every variant seen
/// in recorded responses from 2009 to 2024:
///
/// - plain JSON, JSONP (`jsonFlickrApi(…)` or any callback name), and the XML
///   (`format=rest`) format;
/// - counts, sizes and `farm` as numbers or numeric strings, `total=""`;
/// - missing extras, empty titles, titles as `{"_content": …}`.
///
/// A photo without `id`, `secret` or `server` cannot be shown, so it is
/// skipped and counted rather than failing the page. A response that is not a
/// photo list at all fails with `.malformedResponse` saying what was there;
/// `stat: fail` becomes `.api(code:message:)`.
public enum FlickrResponseDecoder {
    /// A decoded page plus what was dropped on the way.
    public struct DecodedPage: Sendable, Equatable {
        public var page: PhotoPage
        /// Photos left out because they lacked `id`, `secret` or `server`.
        public var skippedPhotos: Int
    }

    public static func decodePhotoPage(_ data: Data) throws(FlickrError) -> PhotoPage {
        try decode(data).page
    }

    public static func decode(_ data: Data) throws(FlickrError) -> DecodedPage {
        let root = try readTree(data)
        try checkStatus(root)
        return try readPhotoPage(root)
    }

    /// Succeeds when the response says `stat: ok`, whatever else it holds;
    /// used for calls such as `flickr.test.echo` whose content is not needed.
    public static func checkSuccess(_ data: Data) throws(FlickrError) {
        let root = try readTree(data)
        try checkStatus(root)
        guard case .string("ok") = root["stat"] else {
            throw .malformedResponse("the response has no `stat: ok`; it begins “\(ResponseExcerpt.make(data))”.")
        }
    }

    // MARK: - Formats

    /// Picks the format from the first meaningful bytes and parses it.
    static func readTree(_ data: Data) throws(FlickrError) -> WireValue {
        var start = Substring(String(decoding: data.prefix(512), as: UTF8.self)).drop(while: isPadding)
        if start.isEmpty, data.count > 512 {
            start = Substring(String(decoding: data, as: UTF8.self)).drop(while: isPadding)
        }
        guard let first = start.first else {
            throw .malformedResponse("the response was empty.")
        }
        if first == "<" {
            let lowered = start.prefix(200).lowercased()
            if lowered.hasPrefix("<!doctype html") || lowered.hasPrefix("<html") || lowered.contains("<html") {
                throw .malformedResponse(
                    "the server sent an HTML page, not an API response (it begins “\(ResponseExcerpt.make(data))”). Check that --api-url (or FLICKR_API_URL) points at Flickr's REST endpoint.")
            }
            let (rootName, value) = try FlickrXMLReader.read(data)
            guard rootName == "rsp" else {
                throw .malformedResponse("the XML response has a <\(ResponseExcerpt.make(rootName, limit: 30))> root element instead of Flickr's <rsp>.")
            }
            return value
        }
        let json = first == "{" || first == "[" ? data : try unwrapJSONP(data)
        do throws(JSONReader.Failure) {
            return try JSONReader.read(json)
        } catch {
            throw .malformedResponse("the response is not valid JSON (\(error)); it begins “\(ResponseExcerpt.make(data))”.")
        }
    }

    private static func isPadding(_ character: Character) -> Bool {
        character.isWhitespace || character == "\u{FEFF}"
    }

    /// `callback( … )` → the JSON between the parentheses. Flickr names the
    /// callback `jsonFlickrApi` unless asked for another (`jsoncallback=`).
    static func unwrapJSONP(_ data: Data) throws(FlickrError) -> Data {
        let bytes = [UInt8](data)
        var index = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x24 || byte == 0x2E
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        let nameStart = index
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        let hasName = index > nameStart && !(bytes[nameStart] >= 0x30 && bytes[nameStart] <= 0x39)
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        guard hasName, index < bytes.count, bytes[index] == 0x28 else {
            throw .malformedResponse("the response is neither JSON nor XML; it begins “\(ResponseExcerpt.make(data))”.")
        }
        var end = bytes.count
        while end > index, isSpace(bytes[end - 1]) || bytes[end - 1] == 0x3B { end -= 1 }
        guard end > index + 1, bytes[end - 1] == 0x29 else {
            throw .malformedResponse("the JSONP response does not end with “)”; it may have been cut short.")
        }
        return Data(bytes[(index + 1)..<(end - 1)])
    }

    // MARK: - Meaning

    /// Throws `.api` for `stat: fail` in either format's shape: JSON puts
    /// `code`/`message` at the top, XML inside `<err code msg/>`.
    static func checkStatus(_ root: WireValue) throws(FlickrError) {
        guard root.objectMembers != nil else {
            throw .malformedResponse("the response is \(root.summary), not an object.")
        }
        guard case .string(let stat)? = root["stat"], stat == "fail" else { return }
        let error = first(root["err"])
        let code = root["code"]?.lenientInteger ?? error?["code"]?.lenientInteger
        let message = root["message"]?.lenientString ?? error?["msg"]?.lenientString ?? ""
        guard let code else {
            throw .malformedResponse("Flickr reported a failure without an error code (“\(ResponseExcerpt.make(message))”).")
        }
        throw .api(code: code, message: ResponseExcerpt.make(message, limit: 200))
    }

    /// The photo list under `listKey`: `photos` for searches, streams,
    /// galleries and pools, `photoset` for an album. An album names its
    /// owner once, on the list, so photos without an `owner` take the list's.
    static func readPhotoPage(_ root: WireValue, listKey: String = "photos") throws(FlickrError) -> DecodedPage {
        guard let photosValue = root[listKey], let photos = first(photosValue), photos.objectMembers != nil else {
            let keys = root.objectMembers.map { $0.keys.sorted().joined(separator: ", ") } ?? ""
            if root[listKey] != nil {
                throw .malformedResponse("`\(listKey)` is \(root[listKey]?.summary ?? "missing"), not an object.")
            }
            throw .malformedResponse(
                "the response is not a photo list: it has no `\(listKey)` (it holds: \(keys.isEmpty ? "nothing" : ResponseExcerpt.make(keys, limit: 120))).")
        }
        // Any count may come as "" (seen for `total`): read as 0, unknown;
        // the photos listed still count, and the provider fills in the page.
        let page = try integer(photos, "page", path: "\(listKey).page", emptyIsZero: true)
        let pages = try integer(photos, "pages", path: "\(listKey).pages", emptyIsZero: true)
        let perPage = try integer(
            photos, photos["perpage"] == nil && photos["per_page"] != nil ? "per_page" : "perpage",
            path: "\(listKey).perpage", emptyIsZero: true)
        let total = try integer(photos, "total", path: "\(listKey).total", emptyIsZero: true)
        var inherited: [String: WireValue] = [:]
        for key in ["owner", "ownername"] { inherited[key] = photos[key] }

        let entries: [WireValue]
        switch photos["photo"] {
        case nil, .null?: entries = []
        case .array(let values)?: entries = values
        case .object?: entries = [photos["photo"] ?? .null]
        case let other?: throw .malformedResponse("`\(listKey).photo` is \(other.summary), not a list of photos.")
        }

        var result: [Photo] = []
        result.reserveCapacity(entries.count)
        var skipped = 0
        for entry in entries {
            guard let photo = readPhoto(entry.inheriting(inherited)) else {
                skipped += 1
                continue
            }
            result.append(photo)
        }
        return DecodedPage(
            page: PhotoPage(page: page, pages: pages, perPage: perPage, total: total, photos: result),
            skippedPhotos: skipped)
    }

    /// `nil` when the entry lacks what is needed to show it.
    static func readPhoto(_ value: WireValue) -> Photo? {
        guard let members = value.objectMembers,
              let id = nonEmpty(members["id"]), let secret = nonEmpty(members["secret"]),
              let server = nonEmpty(members["server"])
        else { return nil }

        var renditions: [PhotoRendition] = []
        for (key, member) in members where key.hasPrefix("url_") {
            guard let url = imageURL(member) else { continue }
            let label = String(key.dropFirst(4))
            renditions.append(PhotoRendition(
                label: label, url: url, width: members["width_\(label)"]?.lenientInteger,
                height: members["height_\(label)"]?.lenientInteger,
                isCrop: PhotoSize(rawValue: label)?.isSquare ?? false))
        }
        var aspectRatio: Double?
        if let width = members["o_width"]?.lenientInteger, let height = members["o_height"]?.lenientInteger,
           width > 0, height > 0 {
            aspectRatio = Double(width) / Double(height)
        }
        let keys = FlickrPhotoKeys(
            secret: secret, server: server, farm: members["farm"]?.lenientInteger,
            originalSecret: nonEmpty(members["originalsecret"]), originalFormat: nonEmpty(members["originalformat"]))
        let owner = members["owner"]?.lenientString ?? ""
        let ownerName = nonEmpty(members["ownername"])
        // The `license` extra: the terms, the owner and the page to credit.
        let credit = members["license"]?.lenientInteger.map { license in
            PhotoCredit(
                license: FlickrLicenseTable.builtIn.flickr(id: license), creator: ownerName,
                pageURL: FlickrProvider.photoPageURL(owner: nonEmpty(members["pathalias"]) ?? owner, photoID: id),
                source: "flickr")
        }
        return Photo(
            id: id, owner: owner, ownerName: ownerName,
            title: members["title"]?.lenientString ?? "", dateTaken: nonEmpty(members["datetaken"]),
            renditions: renditions, aspectRatio: aspectRatio, flickr: keys, credit: credit,
            tags: (members["tags"]?.lenientString ?? "").split(separator: " ").map(String.init),
            dateUploaded: members["dateupload"]?.lenientInteger.map { Date(timeIntervalSince1970: TimeInterval($0)) },
            isVideo: members["media"]?.lenientString == "video",
            visibility: visibility(members))
    }

    /// `ispublic`, `isfriend` and `isfamily`, which Flickr puts on every
    /// listed photo; nil when the answer has no `ispublic`.
    static func visibility(_ members: [String: WireValue]) -> Photo.Visibility? {
        func flag(_ key: String) -> Bool? {
            members[key].flatMap { $0.lenientBool ?? $0.lenientInteger.map { $0 != 0 } }
        }
        guard let isPublic = flag("ispublic") else { return nil }
        return Photo.Visibility(isPublic: isPublic, isFriend: flag("isfriend") ?? false, isFamily: flag("isfamily") ?? false)
    }

    /// An absolute http(s) URL, or nil: a server's `javascript:` or `file:`
    /// URL must never be fetched.
    static func imageURL(_ value: WireValue?) -> URL? {
        guard let text = value?.lenientString, !text.isEmpty, let url = URL(string: text),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              url.host?.isEmpty == false
        else { return nil }
        return url
    }

    // MARK: - Field helpers

    /// XML groups every child element into an array; JSON has a plain object.
    static func first(_ value: WireValue?) -> WireValue? {
        if case .array(let values)? = value { return values.first }
        return value
    }

    static func nonEmpty(_ value: WireValue?) -> String? {
        guard let text = value?.lenientString, !text.isEmpty else { return nil }
        return text
    }

    private static func integer(
        _ object: WireValue, _ key: String, path: String, emptyIsZero: Bool = false
    ) throws(FlickrError) -> Int {
        guard let value = object[key] else {
            throw .malformedResponse("`\(path)` is missing.")
        }
        if emptyIsZero, case .string(let text) = value, text.trimmingCharacters(in: .whitespaces).isEmpty {
            return 0
        }
        guard let number = value.lenientInteger else {
            throw .malformedResponse("`\(path)` should be a whole number but is \(value.summary).")
        }
        // A count from outside may be near Int.max; arithmetic on it must not trap.
        return min(number, largestCount)
    }

    /// Far beyond any real page or result count, far below overflow.
    public static let largestCount = 1 << 31
}

extension WireValue {
    /// This object with `inherited`'s members where it has none of its own.
    func inheriting(_ inherited: [String: WireValue]) -> WireValue {
        guard !inherited.isEmpty, case .object(var members) = self else { return self }
        members.merge(inherited) { own, _ in own }
        return .object(members)
    }
}
