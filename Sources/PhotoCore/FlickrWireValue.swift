import Foundation
import Networking

/// A response as a tree, before we decide what it means (any provider's
/// JSON, and Flickr's XML).
///
/// Both of Flickr's formats land here: JSON as itself, XML through Flickr's
/// own mapping (attributes → string members, text → `_content`, child
/// elements → arrays). Reading the tree by hand, rather than through
/// `Decodable` models, is what lets one field be a number in one response
/// and a string in the next, and lets a bad photo be skipped instead of
/// failing the page.
public indirect enum FlickrWireValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([FlickrWireValue])
    case object([String: FlickrWireValue])

    public subscript(key: String) -> FlickrWireValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var objectMembers: [String: FlickrWireValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A short, human description of the value, for error messages.
    public var summary: String {
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
    public var lenientInteger: Int? {
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
    public var lenientString: String? {
        switch self {
        case .string(let text): return text
        case .integer(let value): return String(value)
        case .object(let members): return members["_content"]?.lenientString ?? (members.isEmpty ? "" : nil)
        case .array(let values) where values.count == 1: return values[0].lenientString
        default: return nil
        }
    }
}
