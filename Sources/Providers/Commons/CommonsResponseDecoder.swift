import PhotoCore
import Foundation
import Networking

/// Reads what `api.php` sends for `action=query` into a `CommonsAnswer`, or
/// the error it reported, in either format version:
///
/// - formatversion 1: `pages` is an object keyed by page id and
///   `batchcomplete` is `""`; formatversion 2: `pages` is a list and
///   `batchcomplete` is `true`. Neither lists pages in rank order: the
///   files are put in `index` order here, once.
/// - Fields a request did not ask for (`entityterms`, `snippet`,
///   `contentmodel`, …) are ignored; numbers may come as text; a missing or
///   invalid page is left out and counted, never the page of results.
/// - An error is HTTP 200 with `{"error": …}`: it comes back as a
///   `CommonsAPIFailure`, not thrown, so the caller decides what it means.
public enum CommonsResponseDecoder {
    public enum Reading: Sendable, Hashable {
        case answer(CommonsAnswer)
        case failure(CommonsAPIFailure)
    }

    public static func decode(_ data: Data) throws(CommonsError) -> Reading {
        let root = try readTree(data)
        guard let members = root.objectMembers else {
            throw .malformedResponse("the answer is \(root.summary), not an object.")
        }
        if let failure = failure(in: root) { return .failure(failure) }
        guard members["query"] != nil || members["batchcomplete"] != nil || members["continue"] != nil else {
            throw .malformedResponse("the answer has neither `query` nor `error`; it begins “\(ResponseExcerpt.make(data))”.")
        }
        return .answer(answer(from: root))
    }

    /// The answer of a body known to be no error.
    static func answer(from root: WireValue) -> CommonsAnswer {
        let query = root["query"]
        let searchInfo = query?["searchinfo"]
        var files: [CommonsFile] = []
        var skipped = 0
        var formatVersion: Int
        switch query?["pages"] {
        case .object(let pages)?:
            formatVersion = 1
            for (key, page) in pages {
                if let file = file(from: page, key: key) { files.append(file) } else { skipped += 1 }
            }
        case .array(let pages)?:
            formatVersion = 2
            for page in pages {
                if let file = file(from: page, key: nil) { files.append(file) } else { skipped += 1 }
            }
        default:
            if case .bool? = root["batchcomplete"] { formatVersion = 2 } else { formatVersion = 1 }
        }
        files.sort(by: isRankedBefore)
        let batchComplete: Bool = switch root["batchcomplete"] {
        case .bool(let value)?: value
        case .string?: true
        default: false
        }
        return CommonsAnswer(
            files: files, continuation: continuation(root["continue"]),
            totalHits: searchInfo?["totalhits"]?.lenientInteger.map { max(0, $0) },
            suggestion: searchInfo?["suggestion"]?.lenientString.flatMap { $0.isEmpty ? nil : $0 },
            batchComplete: batchComplete, formatVersion: formatVersion, skippedPages: skipped)
    }

    /// Rank first; files with no rank (not a search) after, by page id.
    private static func isRankedBefore(_ a: CommonsFile, _ b: CommonsFile) -> Bool {
        switch (a.index, b.index) {
        case let (x?, y?) where x != y: return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default:
            let (x, y) = (Int(a.pageID) ?? .max, Int(b.pageID) ?? .max)
            return x != y ? x < y : a.pageID < b.pageID
        }
    }

    /// One page; `nil` for a missing or invalid one (negative keys in
    /// formatversion 1, `missing`/`invalid` members) or one without an id.
    static func file(from page: WireValue, key: String?) -> CommonsFile? {
        guard page.objectMembers != nil, page["missing"] == nil, page["invalid"] == nil else { return nil }
        let id = page["pageid"]?.lenientInteger ?? key.flatMap { Int($0) }
        guard let id, id > 0 else { return nil }
        var file = CommonsFile(pageID: String(id), index: page["index"]?.lenientInteger, title: page["title"]?.lenientString ?? "")
        guard case .array(let infos)? = page["imageinfo"], let info = infos.first, info.objectMembers != nil else { return file }
        file.thumbnailURL = webURL(info["thumburl"])
        file.thumbnailWidth = positive(info["thumbwidth"])
        file.thumbnailHeight = positive(info["thumbheight"])
        file.url = webURL(info["url"])
        file.descriptionURL = webURL(info["descriptionurl"])
        file.width = positive(info["width"])
        file.height = positive(info["height"])
        file.mime = info["mime"]?.lenientString
        file.metadata = metadata(info["extmetadata"])
        return file
    }

    /// `{"Artist": {"value": …, "source": …}, …}` → `["Artist": …]`; a
    /// value that is a number (`CommonsMetadataExtension: 1.2`) as text.
    private static func metadata(_ value: WireValue?) -> [String: String] {
        guard let entries = value?.objectMembers else { return [:] }
        var result: [String: String] = [:]
        for (name, entry) in entries {
            switch entry["value"] {
            case .string(let text)?: result[name] = text
            case .integer(let number)?: result[name] = String(number)
            case .number(let number)?: result[name] = String(number)
            case .bool(let flag)?: result[name] = flag ? "true" : "false"
            default: continue
            }
        }
        return result
    }

    /// The `continue` object, every member kept (numbers as text), since
    /// the next request must send all of them back.
    private static func continuation(_ value: WireValue?) -> [String: String]? {
        guard let members = value?.objectMembers, !members.isEmpty else { return nil }
        var result: [String: String] = [:]
        for (name, member) in members {
            switch member {
            case .string(let text): result[name] = text
            case .integer(let number): result[name] = String(number)
            case .number(let number): result[name] = String(number)
            case .bool(let flag): result[name] = flag ? "1" : "0"
            default: continue
            }
        }
        return result.isEmpty ? nil : result
    }

    /// `{"error": {"code", "info", "docref" | "*"}}`, or the list form
    /// `{"errors": [{"code", "text"}]}` of newer error formats.
    static func failure(in root: WireValue) -> CommonsAPIFailure? {
        let error: WireValue
        if let single = root["error"], single.objectMembers != nil {
            error = single
        } else if case .array(let list)? = root["errors"], let first = list.first, first.objectMembers != nil {
            error = first
        } else {
            return nil
        }
        let lag: Double? = switch error["lag"] {
        case .integer(let seconds)?: Double(seconds)
        case .number(let seconds)?: seconds.isFinite ? seconds : nil
        default: nil
        }
        return CommonsAPIFailure(
            code: error["code"]?.lenientString ?? "unknown",
            info: error["info"]?.lenientString ?? error["text"]?.lenientString ?? "",
            help: error["docref"]?.lenientString ?? error["*"]?.lenientString,
            servedBy: root["servedby"]?.lenientString, lag: lag)
    }

    // MARK: - Reading

    static func readTree(_ data: Data) throws(CommonsError) -> WireValue {
        let start = String(decoding: data.prefix(512), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let first = start.first else { throw .malformedResponse("the answer was empty.") }
        if first == "<" {
            let said = HTMLText.headline(String(decoding: data.prefix(64 << 10), as: UTF8.self))
                .map { " (it says “\(ResponseExcerpt.make($0))”)" } ?? ""
            throw .malformedResponse(
                "the server sent a web page, not an API answer\(said). Check that --api-url (or \(CommonsProvider.endpointVariable)) is the address of api.php, such as \(CommonsProvider.defaultEndpoint.absoluteString).")
        }
        do {
            return try JSONReading.read(data)
        } catch {
            throw .malformedResponse("the answer is not valid JSON (\(error.description)); it begins “\(ResponseExcerpt.make(data))”.")
        }
    }

    /// Commons writes file URLs protocol-relative in HTML but absolute in
    /// `imageinfo`; both are read, and only web addresses are kept.
    static func webURL(_ value: WireValue?) -> URL? {
        guard case .string(let raw)? = value else { return nil }
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: text.hasPrefix("//") ? "https:" + text : text),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    private static func positive(_ value: WireValue?) -> Int? {
        value?.lenientInteger.flatMap { $0 > 0 ? $0 : nil }
    }
}
