import PhotoCore
import Foundation
import Networking

/// Turns what `GET /v2/images/search` sends into `ShutterstockSearchResults`,
/// accepting every variant seen in answers recorded from 2015 to 2026:
///
/// - members in any order; compact or indented;
/// - ids as digit strings (or numbers), `aspect` as `1` or `1.4983`;
/// - `search_id` and `spellcheck_info` present or not;
/// - any mix of `assets` members (`huge_thumb`, `mosaic`, `preview_600`,
///   `preview_1000`, `preview_1500` come and go), `http://` asset URLs;
/// - descriptions with carriage returns and trailing spaces, or none at all.
///
/// An item without an id is skipped and counted; an answer that is not a
/// search result fails with `.malformedResponse` naming what is wrong.
/// Server text quoted in errors has `secrets` removed before it is cut to
/// length, so not even part of a credential the server echoed survives.
public enum ShutterstockResponseDecoder {
    public static func decodeSearch(_ data: Data, redacting secrets: [String] = []) throws(ShutterstockError) -> ShutterstockSearchResults {
        let root = try readTree(data, redacting: secrets)
        guard let members = root.objectMembers else {
            throw .malformedResponse("the answer is \(root.summary), not an object.")
        }
        guard let list = members["data"] else {
            if let message = serverMessage(in: root, redacting: secrets) {
                throw .malformedResponse("the answer holds no results, only the message “\(message)”.")
            }
            throw .malformedResponse("the answer has no `data` list; it begins “\(ResponseExcerpt.make(data, redacting: secrets))”.")
        }
        guard case .array(let items) = list else {
            throw .malformedResponse("`data` is \(list.summary), not a list.")
        }
        let page = try count("page", in: root, atLeast: 1)
        let perPage = try count("per_page", in: root, atLeast: 1)
        let totalCount = try count("total_count", in: root, atLeast: 0)

        var images: [ShutterstockImage] = []
        images.reserveCapacity(items.count)
        for item in items {
            if let image = self.image(from: item) { images.append(image) }
        }
        return ShutterstockSearchResults(
            page: page, perPage: perPage, totalCount: totalCount,
            searchID: members["search_id"]?.lenientString,
            images: images, skippedItems: items.count - images.count, itemCount: items.count)
    }

    // MARK: - Reading

    static func readTree(_ data: Data, redacting secrets: [String]) throws(ShutterstockError) -> WireValue {
        let start = String(decoding: data.prefix(512), as: UTF8.self)
            .drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let first = start.first else { throw .malformedResponse("the answer was empty.") }
        if first == "<" {
            let said = HTMLText.headline(String(decoding: data, as: UTF8.self)).map { ResponseExcerpt.make($0, limit: ShutterstockError.serverMessageLimit, redacting: secrets) }.map { " (it says “\($0)”)" } ?? ""
            throw .malformedResponse(
                "the server sent a web page, not search results\(said). Check that --api-url (or SHUTTERSTOCK_API_URL) is the API's base URL, such as https://api.shutterstock.com.")
        }
        do throws(JSONReader.Failure) {
            return try JSONReader.read(data)
        } catch {
            throw .malformedResponse("the answer is not valid JSON (\(error)); it begins “\(ResponseExcerpt.make(data, redacting: secrets))”.")
        }
    }

    private static func count(_ name: String, in root: WireValue, atLeast minimum: Int) throws(ShutterstockError) -> Int {
        guard let value = root[name] else { throw .malformedResponse("the answer has no `\(name)`.") }
        // An empty count is unknown (0): the photos listed still count, and
        // the provider fills in the page it asked for.
        if case .string(let text) = value, text.trimmingCharacters(in: .whitespaces).isEmpty { return 0 }
        guard let number = value.lenientInteger else {
            throw .malformedResponse("`\(name)` is \(value.summary), not a whole number.")
        }
        guard number >= minimum else { throw .malformedResponse("`\(name)` is \(number); it should be at least \(minimum).") }
        return number
    }

    private static func image(from item: WireValue) -> ShutterstockImage? {
        guard let id = identifier(item["id"]) else { return nil }
        var assets: [ShutterstockAsset] = []
        for (name, member) in item["assets"]?.objectMembers ?? [:] {
            // Members without a URL (the full view's licensable sizes) cannot be shown.
            guard let url = webURL(member["url"]),
                  let width = member["width"]?.lenientInteger, width > 0,
                  let height = member["height"]?.lenientInteger, height > 0
            else { continue }
            assets.append(ShutterstockAsset(name: name, url: url, width: width, height: height))
        }
        assets.sort { ($0.longestEdge, $0.width * $0.height, $0.name) < ($1.longestEdge, $1.width * $1.height, $1.name) }
        return ShutterstockImage(
            id: id,
            caption: cleanCaption(item["description"]?.lenientString ?? ""),
            aspect: aspect(item["aspect"]),
            contributorID: identifier(item["contributor"]?["id"]),
            imageType: item["image_type"]?.lenientString,
            pageURL: webURL(item["url"]),
            assets: assets)
    }

    /// A non-empty string, or a whole number written as digits.
    private static func identifier(_ value: WireValue?) -> String? {
        switch value {
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        case .integer(let number)?:
            return String(number)
        case .number(let number)? where number.rounded() == number:
            return Int(exactly: number).map { String($0) }
        default:
            return nil
        }
    }

    private static func aspect(_ value: WireValue?) -> Double? {
        let number: Double? = switch value {
        case .integer(let whole)?: Double(whole)
        case .number(let fraction)?: fraction
        case .string(let text)?: Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
        guard let number, number.isFinite, number > 0 else { return nil }
        return number
    }

    private static func webURL(_ value: WireValue?) -> URL? {
        guard case .string(let text)? = value, let url = URL(string: text),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// Carriage returns and line feeds (seen at both ends and inside) become
    /// spaces; white space at the ends goes.
    static func cleanCaption(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline }) || text.first?.isWhitespace == true || text.last?.isWhitespace == true
        else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(scalar == "\r" || scalar == "\n" ? " " : scalar) }
        return String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Error bodies

    /// The server's own words in an error body: `{"message": …}`, the items
    /// of `{"errors": [{code, message, path}]}`, an HTML page's headline, or
    /// plain text. Cut to a few hundred characters, control characters removed.
    static func serverMessage(in data: Data, contentType: String?, redacting secrets: [String] = []) -> String? {
        let head = data.prefix(64 << 10)
        // Valid UTF-8, the usual body, decodes at once; repairing invalid
        // bytes costs about 2 µs each, so a body that is not UTF-8 is read
        // only as far as a message from it can reach.
        let text = String(data: head, encoding: .utf8) ?? String(decoding: head.prefix(4 << 10), as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let isHTML = trimmed.hasPrefix("<") || (contentType?.lowercased().contains("html") ?? false)
        if isHTML { return HTMLText.headline(text).map { ResponseExcerpt.make($0, limit: ShutterstockError.serverMessageLimit, redacting: secrets) } }
        if trimmed.hasPrefix("{"), let root = try? JSONReader.read(data) {
            return serverMessage(in: root, redacting: secrets)
        }
        return ResponseExcerpt.make(trimmed, limit: ShutterstockError.serverMessageLimit, redacting: secrets)
    }

    private static func serverMessage(in root: WireValue, redacting secrets: [String]) -> String? {
        var parts: [String] = []
        if let message = root["message"]?.lenientString, !message.isEmpty { parts.append(message) }
        if case .array(let errors)? = root["errors"] {
            for error in errors.prefix(5) {
                let said = error["message"]?.lenientString ?? error["code"]?.lenientString ?? ""
                guard !said.isEmpty else { continue }
                let path = error["path"]?.lenientString.map { " (\($0))" } ?? ""
                parts.append(said + path)
            }
        }
        guard !parts.isEmpty else { return nil }
        return ResponseExcerpt.make(parts.joined(separator: "; "), limit: ShutterstockError.serverMessageLimit, redacting: secrets)
    }

}
