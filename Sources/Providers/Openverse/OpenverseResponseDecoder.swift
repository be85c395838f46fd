import PhotoCore
import Foundation
import Networking

/// Turns what `GET /v1/images/` sends into `OpenverseSearchResults`,
/// accepting every variant seen in answers recorded from 2022 to 2024:
///
/// - keys absent (2022-03), `null` (2022-09) or present (2024);
/// - numbers as numbers or as digit strings, clamped to `Int`'s range;
/// - an empty `title`, tags with odd text, `source` differing from `provider`.
///
/// A field of the wrong type is ignored and counted; a result without a
/// usable id is skipped and counted; the page fails only when it is not a
/// search answer at all (then `.malformedResponse` says what it was).
/// Server text quoted in errors has `secrets` removed first.
public enum OpenverseResponseDecoder {
    public static func decodeSearch(_ data: Data, redacting secrets: [String] = []) throws(OpenverseError) -> OpenverseSearchResults {
        let root = try readTree(data, redacting: secrets)
        guard root.objectMembers != nil else {
            throw .malformedResponse("the answer is \(root.kind), not an object.")
        }
        guard let list = root["results"] else {
            if let detail = detailMessage(in: root, redacting: secrets) {
                throw .malformedResponse("the answer holds no results, only the message “\(detail)”.")
            }
            throw .malformedResponse("the answer has no `results` list; it begins “\(ResponseExcerpt.make(data, redacting: secrets))”.")
        }
        let items: [WireValue]
        switch list {
        case .array(let array): items = array
        case .null: items = []
        default: throw .malformedResponse("`results` is \(list.kind), not a list.")
        }

        var images: [OpenverseImage] = []
        images.reserveCapacity(items.count)
        var skippedFields = 0
        for item in items {
            if let (image, skipped) = self.image(from: item) {
                images.append(image)
                skippedFields += skipped
            }
        }
        // Counts are read leniently: a missing or odd count falls back to what the page shows.
        let pageSize = positive(root["page_size"]) ?? max(items.count, 1)
        let page = positive(root["page"]) ?? 1
        let resultCount = nonNegative(root["result_count"]) ?? items.count
        let pageCount = nonNegative(root["page_count"]) ?? (items.isEmpty ? 0 : page)
        return OpenverseSearchResults(
            resultCount: resultCount, pageCount: pageCount, pageSize: pageSize, page: page,
            images: images, skippedResults: items.count - images.count, skippedFields: skippedFields)
    }

    /// One result object (`GET /v1/images/{id}/`).
    public static func decodeImage(_ data: Data, redacting secrets: [String] = []) throws(OpenverseError) -> OpenverseImage {
        let root = try readTree(data, redacting: secrets)
        guard let (image, _) = image(from: root) else {
            if let detail = detailMessage(in: root, redacting: secrets) {
                throw .malformedResponse("the answer holds no image, only the message “\(detail)”.")
            }
            throw .malformedResponse("the answer is not an image with an id; it begins “\(ResponseExcerpt.make(data, redacting: secrets))”.")
        }
        return image
    }

    // MARK: - Reading

    static func readTree(_ data: Data, redacting secrets: [String]) throws(OpenverseError) -> WireValue {
        let start = String(decoding: data.prefix(512), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let first = start.first else { throw .malformedResponse("the answer was empty.") }
        if first == "<" {
            let said = OpenverseErrorBody.htmlHeadline(String(decoding: data.prefix(64 << 10), as: UTF8.self), redacting: secrets)
                .map { " (it says “\($0)”)" } ?? ""
            throw .malformedResponse(
                "the server sent a web page, not search results\(said). Check that --api-url (or \(OpenverseProvider.baseURLVariable)) is the API's base URL, such as https://api.openverse.org.")
        }
        do {
            return try JSONReader.read(data)
        } catch {
            throw .malformedResponse("the answer is not valid JSON; it begins “\(ResponseExcerpt.make(data, redacting: secrets))”.")
        }
    }

    /// A result, and how many of its fields were ignored; nil without an id.
    static func image(from item: WireValue) -> (OpenverseImage, skipped: Int)? {
        guard item.objectMembers != nil, let id = identifier(item["id"]) else { return nil }
        var skipped = 0
        /// The field's value, or nil for absent and null; a wrong type counts as skipped.
        func read<T>(_ key: String, _ convert: (WireValue) -> T?) -> T? {
            guard let value = item[key], value != .null else { return nil }
            guard let converted = convert(value) else {
                skipped += 1
                return nil
            }
            return converted
        }
        let text: (WireValue) -> String? = { value in
            if case .string(let string) = value { return string }
            return nil
        }
        var image = OpenverseImage(id: id, title: read("title", text) ?? "")
        image.creator = read("creator", text)
        image.creatorURL = read("creator_url", webURL)
        image.url = read("url", webURL)
        image.thumbnail = read("thumbnail", webURL)
        image.foreignLandingURL = read("foreign_landing_url", webURL)
        image.license = read("license", text)
        image.licenseVersion = read("license_version", licenseVersion)
        image.licenseURL = read("license_url", webURL)
        image.attribution = read("attribution", text)
        image.width = read("width", { $0.lenientInteger.flatMap { $0 > 0 ? $0 : nil } })
        image.height = read("height", { $0.lenientInteger.flatMap { $0 > 0 ? $0 : nil } })
        image.filetype = read("filetype", text)
        image.source = read("source", text)
        image.provider = read("provider", text)
        image.mature = read("mature", { $0.lenientBool })
        image.tags = read("tags", tagNames) ?? []
        return (image, skipped)
    }

    /// `[{"name": …}]`; tags without a name are left out, not the list.
    private static func tagNames(_ value: WireValue) -> [String]? {
        guard case .array(let tags) = value else { return nil }
        return tags.compactMap { tag in
            switch tag {
            case .object: tag["name"]?.lenientString
            case .string(let name): name
            default: nil
            }
        }
    }

    /// Openverse ids are UUIDs; anything that is text with no blanks or
    /// slashes is kept, since it only ever names the work back to the server.
    private static func identifier(_ value: WireValue?) -> String? {
        guard let text = value?.lenientString?.trimmingCharacters(in: .whitespaces), !text.isEmpty,
              text.count <= 100, !text.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "?" || $0 == "#" })
        else { return nil }
        return text
    }

    /// "2.0" as sent; a number `2.0` arrives as the whole number 2, and
    /// licence versions always have a point.
    private static func licenseVersion(_ value: WireValue) -> String? {
        if case .integer(let whole) = value { return "\(whole).0" }
        return value.lenientString
    }

    private static func webURL(_ value: WireValue) -> URL? {
        guard case .string(let text) = value, let url = URL(string: text.trimmingCharacters(in: .whitespaces)),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    private static func positive(_ value: WireValue?) -> Int? {
        value?.lenientInteger.flatMap { $0 >= 1 ? $0 : nil }
    }

    private static func nonNegative(_ value: WireValue?) -> Int? {
        value?.lenientInteger.flatMap { $0 >= 0 ? $0 : nil }
    }

    private static func detailMessage(in root: WireValue, redacting secrets: [String]) -> String? {
        OpenverseErrorBody.message(in: root, redacting: secrets)
    }
}
