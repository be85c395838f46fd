import PhotoCore
import Foundation
import Networking

/// The server's own words in an Openverse error body. Openverse is a Django
/// REST Framework app: `{"detail": "…"}` for most errors, and field errors as
/// `{"page_size": ["Ensure this value is less than or equal to 500."]}`.
/// A proxy in front may send an HTML page or plain text instead.
enum OpenverseErrorBody {
    /// The longest piece of server text a message quotes.
    static let limit = 200

    /// Cut to `limit` characters, control characters removed, secrets replaced.
    static func message(in data: Data, contentType: String?, redacting secrets: [String] = []) -> String? {
        let text = String(decoding: data.prefix(64 << 10), as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.hasPrefix("<") || (contentType?.lowercased().contains("html") ?? false) {
            return htmlHeadline(text, redacting: secrets)
        }
        if trimmed.hasPrefix("{"), let root = try? JSONReader.read(data) {
            return message(in: root, redacting: secrets)
        }
        return ResponseExcerpt.make(trimmed, limit: limit, redacting: secrets)
    }

    /// `detail` when there is one, else each field's first message as
    /// "field: message", in name order so the wording is stable.
    static func message(in root: WireValue, redacting secrets: [String]) -> String? {
        guard let members = root.objectMembers else { return nil }
        if let detail = members["detail"]?.lenientString?.trimmingCharacters(in: .whitespacesAndNewlines), !detail.isEmpty {
            return ResponseExcerpt.make(detail, limit: limit, redacting: secrets)
        }
        // Validation errors sometimes arrive wrapped: `{"detail": {"page": ["…"]}}`.
        if let nested = members["detail"], nested.objectMembers != nil {
            return message(in: nested, redacting: secrets)
        }
        var parts: [String] = []
        for name in members.keys.sorted() {
            let said: String? = switch members[name] {
            case .array(let messages)?: messages.lazy.compactMap(\.lenientString).first
            case .string(let message)?: message
            default: nil
            }
            guard let said, !said.isEmpty else { continue }
            // DRF's catch-all key for errors that belong to no one field.
            parts.append(name == "non_field_errors" ? said : "\(name): \(said)")
            if parts.count == 5 { break }
        }
        guard !parts.isEmpty else { return nil }
        return ResponseExcerpt.make(parts.joined(separator: "; "), limit: limit, redacting: secrets)
    }

    /// An HTML error page's headline, redacted and cut.
    static func htmlHeadline(_ html: String, redacting secrets: [String]) -> String? {
        HTMLText.headline(html).map { ResponseExcerpt.make($0, limit: limit, redacting: secrets) }
    }

    /// The wait DRF's throttle names in its detail ("Request was throttled.
    /// Expected available in 3600 seconds."), for answers without `Retry-After`.
    static func throttleWait(in detail: String?) -> Duration? {
        guard let detail, let range = detail.range(of: "available in ", options: .caseInsensitive) else { return nil }
        let digits = detail[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return ServerWait.seconds(digits: digits)
    }
}
