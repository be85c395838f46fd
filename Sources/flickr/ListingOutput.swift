import FlickrKit
import Foundation
import TerminalUI

/// Writes `search`/`recent` results: JSON Lines for scripts, or sanitised text.
struct ListingOutput {
    let json: Bool
    let provider: FlickrProvider

    /// One `--json` line, fields in the contract's order; nil values are left out.
    private static func jsonLine(_ fields: KeyValuePairs<String, String?>, numbers: KeyValuePairs<String, Int>) -> String {
        var parts = numbers.map { "\"\($0.key)\":\($0.value)" }
        for (key, value) in fields {
            guard let value else { continue }
            parts.append("\"\(key)\":" + jsonString(value))
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// A JSON string literal: quotes, backslashes and every control character escaped.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || scalar == "\u{2028}" || scalar == "\u{2029}":
                out += String(format: "\\u%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    func header(_ page: PhotoPage) {
        Swift.print("page \(page.page) of \(page.pages) (\(page.total) photos)")
    }

    func write(_ photo: Photo, page: Int, index: Int) {
        if json {
            Swift.print(Self.jsonLine([
                "id": photo.id,
                "title": photo.title,
                "owner": photo.owner,
                "owner_name": photo.ownerName,
                "date_taken": photo.dateTaken,
                "thumbnail_url": provider.imageURL(for: photo, size: .square150)?.absoluteString,
                "image_url": provider.imageURL(for: photo, size: photo.detailSize)?.absoluteString,
            ], numbers: ["page": page, "index": index]))
        } else {
            let title = TextSanitizer.sanitize(photo.title)
            let owner = TextSanitizer.sanitize(photo.ownerName ?? photo.owner)
            Swift.print("\(index) \(title.isEmpty ? "(untitled)" : title) — \(owner)")
        }
    }

    /// A remark about the listing itself; on stderr with --json so stdout stays pure JSON Lines.
    func note(_ text: String) {
        if json {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        } else {
            Swift.print(text)
        }
    }
}
