import FlickrViewModels
import Foundation
import Platform

/// Prints `search`/`recent` results: JSON Lines for scripts, or sanitised text.
public struct ListingPrinter: ListingSink {
    let json: Bool

    public init(json: Bool) {
        self.json = json
    }

    public func header(page: Int, pages: Int, total: Int) {
        if !json { writeLine("page \(page) of \(pages) (\(total) photos)") }
    }

    public func photo(_ photo: ListedPhoto) {
        if json {
            writeLine(Self.jsonLine(photo))
        } else {
            let title = TextSanitizer.sanitize(photo.title)
            let owner = TextSanitizer.sanitize(photo.ownerName ?? photo.owner)
            // A photo not everyone may see says who may: "(private)", "(friends)".
            let seenBy = photo.visibility.map { $0 == "public" ? "" : " (\($0))" } ?? ""
            writeLine("\(photo.index) \(title.isEmpty ? "(untitled)" : title)\(seenBy) — \(owner)")
        }
    }

    /// On stderr with --json, so stdout stays pure JSON Lines.
    public func note(_ text: String) {
        if json {
            Platform.writeAll((text + "\n").utf8, to: Platform.standardError)
        } else {
            writeLine(text)
        }
    }

    /// Whole lines in one write each, so output cut by Ctrl-C ends on a line.
    private func writeLine(_ text: String) {
        Platform.writeAll((text + "\n").utf8, to: Platform.standardOutput)
    }

    /// One `--json` line, fields in the contract's order; nil values are left out.
    static func jsonLine(_ photo: ListedPhoto) -> String {
        var parts = ["\"provider\":" + jsonString(photo.provider), "\"page\":\(photo.page)", "\"index\":\(photo.index)"]
        let fields: KeyValuePairs<String, String?> = [
            "id": photo.id, "title": photo.title, "owner": photo.owner, "owner_name": photo.ownerName,
            "date_taken": photo.dateTaken, "thumbnail_url": photo.thumbnailURL, "image_url": photo.imageURL,
            "license": photo.license, "license_url": photo.licenseURL,
        ]
        for (key, value) in fields {
            guard let value else { continue }
            parts.append("\"\(key)\":" + jsonString(value))
        }
        if let id = photo.licenseID { parts.append("\"license_id\":\(id)") }
        for (key, value) in ["creator": photo.creator, "attribution": photo.attribution, "visibility": photo.visibility]
            as KeyValuePairs {
            guard let value else { continue }
            parts.append("\"\(key)\":" + jsonString(value))
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// `flickr info`: the facts as labelled lines, or one JSON object.
    public static func printFacts(_ facts: PhotoFacts, json: Bool) {
        let out = json ? factsJSON(facts) : ([TextSanitizer.sanitize(facts.title)] + facts.lines.map { label, value in
            "\(label): " + (label == "description"
                ? value.split(whereSeparator: \.isNewline).map { TextSanitizer.sanitize(String($0)) }.joined(separator: "\n  ")
                : TextSanitizer.sanitize(value))
        }).joined(separator: "\n")
        Platform.writeAll((out + "\n").utf8, to: Platform.standardOutput)
    }

    static func factsJSON(_ facts: PhotoFacts) -> String {
        var parts = ["\"id\":" + jsonString(facts.id), "\"title\":" + jsonString(facts.title),
                     "\"description\":" + jsonString(facts.description),
                     "\"tags\":[" + facts.tags.map(jsonString).joined(separator: ",") + "]"]
        let optional: KeyValuePairs<String, String?> = [
            "date_taken": facts.dateTaken, "license": facts.license, "license_url": facts.licenseURL,
            "attribution": facts.license == nil ? nil : facts.attribution, "owner": facts.ownerID,
            "owner_name": facts.owner, "url": facts.pageURL,
        ]
        for (key, value) in optional {
            guard let value else { continue }
            parts.append("\"\(key)\":" + jsonString(value))
        }
        if let views = facts.views { parts.append("\"views\":\(views)") }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// A JSON string literal: quotes, backslashes, every control character and
    /// every bidirectional control escaped, so a title cannot drive or spoof a
    /// terminal that shows the JSON.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isInvisibleControl(scalar):
                out += String(format: "\\u%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Line and paragraph separators, and the bidi marks, embeddings,
    /// overrides and isolates (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069).
    private static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
