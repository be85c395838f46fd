import Foundation
import Networking

/// A response as a tree, before we decide what it means: every provider's
/// JSON (read by `JSONReader`), and Flickr's XML.
///
/// Both of Flickr's formats land here: JSON as itself, XML through Flickr's
/// own mapping (attributes → string members, text → `_content`, child
/// elements → arrays). Reading the tree by hand, rather than through
/// `Decodable` models, is what lets one field be a number in one response
/// and a string in the next, and lets a bad photo be skipped instead of
/// failing the page.
public indirect enum WireValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([WireValue])
    case object([String: WireValue])

    public subscript(key: String) -> WireValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var objectMembers: [String: WireValue]? {
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

    /// What kind of value this is, without the value ("a list", "text").
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .integer, .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Services send counts and sizes as numbers or as numeric strings
    /// (Flickr both, a proxy or mirror of any of them the latter); both are
    /// accepted. The one rule for every provider: a whole number beyond
    /// `Int`'s range clamps to it (a server's 2^63 must not trap, nor cost
    /// the field); a fraction, or anything not a number, is `nil`.
    public var lenientInteger: Int? {
        switch self {
        case .integer(let value):
            return value
        case .number(let value):
            // Past even Double's range ("1e400"): as past Int's, it clamps.
            if value.isInfinite { return value > 0 ? .max : .min }
            guard value.isFinite, value.rounded(.towardZero) == value else { return nil }
            if value >= Double(Int.max) { return .max }
            if value <= Double(Int.min) { return .min }
            return Int(value)
        case .string(let text):
            // Most are plain digits, and Foundation's trimming was a fifth of
            // the time spent reading a Flickr photo (a width and a height for
            // each of its sizes).
            if let whole = Int(text) { return whole }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            if let whole = Int(trimmed) { return whole }
            // One sign at most: "+-5" is no number, let alone one past Int's range.
            let digits = trimmed.first == "-" || trimmed.first == "+" ? trimmed.dropFirst() : Substring(trimmed)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                // "2.0", "1e3": the number's rule; only in decimal, as JSON
                // writes numbers (Swift's Double would read "0x10" as 16).
                guard trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
                return Double(trimmed).flatMap { WireValue.number($0).lenientInteger }
            }
            // Digits beyond Int's range: clamp rather than refuse.
            return trimmed.hasPrefix("-") ? .min : .max
        default:
            return nil
        }
    }

    /// Text fields: a string, a number or flag in its usual spelling (some
    /// servers send `server` as a number), a `{"_content": …}` wrapper, or
    /// the one-element list that XML's `<title>…</title>` child becomes.
    public var lenientString: String? {
        switch self {
        case .string(let text): return text
        case .integer(let value): return String(value)
        case .number(let value): return value.isFinite ? String(value) : nil
        case .bool(let flag): return flag ? "true" : "false"
        case .object(let members): return members["_content"]?.lenientString ?? (members.isEmpty ? "" : nil)
        case .array(let values) where values.count == 1: return values[0].lenientString
        default: return nil
        }
    }

    /// `true`/`false`, or the strings and numbers people use for them.
    public var lenientBool: Bool? {
        switch self {
        case .bool(let flag): flag
        case .integer(let whole): whole == 0 ? false : whole == 1 ? true : nil
        case .string(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1", "yes": true
            case "false", "0", "no": false
            default: nil
            }
        default: nil
        }
    }
}
