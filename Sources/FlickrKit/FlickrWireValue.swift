import Foundation

/// A response as a tree, before we decide what it means.
///
/// Both of Flickr's formats land here: JSON as itself, XML through Flickr's
/// own mapping (attributes → string members, text → `_content`, child
/// elements → arrays). Reading the tree by hand, rather than through
/// `Decodable` models, is what lets one field be a number in one response
/// and a string in the next, and lets a bad photo be skipped instead of
/// failing the page.
indirect enum FlickrWireValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([FlickrWireValue])
    case object([String: FlickrWireValue])

    subscript(key: String) -> FlickrWireValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var objectMembers: [String: FlickrWireValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A short, human description of the value, for error messages.
    var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return "\"\(ResponseExcerpt.make(value, limit: 40))\""
        case .array(let values): return "a list of \(values.count)"
        case .object: return "an object"
        }
    }

    /// Flickr sends counts and sizes as numbers or as numeric strings;
    /// both are accepted. `nil` when the value is neither.
    var lenientInteger: Int? {
        switch self {
        case .integer(let value):
            return value
        case .number(let value):
            guard value.rounded() == value, let exact = Int(exactly: value) else { return nil }
            return exact
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return Int(trimmed)
        default:
            return nil
        }
    }

    /// Text fields: a string, a number written as text (some servers send
    /// `server` as a number), a `{"_content": …}` wrapper, or the one-element
    /// list that XML's `<title>…</title>` child becomes.
    var lenientString: String? {
        switch self {
        case .string(let text): return text
        case .integer(let value): return String(value)
        case .object(let members): return members["_content"]?.lenientString ?? (members.isEmpty ? "" : nil)
        case .array(let values) where values.count == 1: return values[0].lenientString
        default: return nil
        }
    }
}

/// A short, printable slice of untrusted text for error messages: control
/// characters and bidirectional overrides become spaces, runs of white space
/// collapse, and long text is cut with "…".
enum ResponseExcerpt {
    static func make(_ text: String, limit: Int = 80) -> String {
        var result = ""
        var lastWasSpace = false
        var count = 0
        for scalar in text.unicodeScalars {
            let printable = !(isControl(scalar) || CharacterSet.whitespacesAndNewlines.contains(scalar))
            if printable {
                result.unicodeScalars.append(scalar)
                lastWasSpace = false
                count += 1
            } else if !lastWasSpace {
                result.append(" ")
                lastWasSpace = true
                count += 1
            }
            if count >= limit {
                return result.trimmingCharacters(in: .whitespaces) + "…"
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    static func make(_ data: Data, limit: Int = 80) -> String {
        make(String(decoding: data.prefix(limit * 4), as: UTF8.self), limit: limit)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F: true
        default: false
        }
    }
}
