import PhotoCore
import Foundation
import Networking

/// A JSON value read without a schema, so that one odd field costs that
/// field, not the page: Openverse's answers drifted (2022 bodies lack keys
/// that 2024 ones have, or send them as `null`), and a proxy or mirror may
/// send numbers as strings.
///
/// Only Foundation: this type leaves with the Openverse folder when it
/// becomes its own module.
enum OpenverseJSON: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    /// A whole number that fits in 64 bits.
    case integer(Int64)
    /// Any other number (fractions, and whole numbers too big for 64 bits).
    case number(Double)
    case string(String)
    case array([OpenverseJSON])
    case object([String: OpenverseJSON])

    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var items: [OpenverseJSON] = []
            while !list.isAtEnd { items.append(try list.decode(OpenverseJSON.self)) }
            self = .array(items)
            return
        }
        if let members = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: OpenverseJSON] = [:]
            for key in members.allKeys { object[key.stringValue] = try members.decode(OpenverseJSON.self, forKey: key) }
            self = .object(object)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let whole = try? single.decode(Int64.self) {
            self = .integer(whole)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Parses `data`; the error says where the JSON broke, in words.
    static func parse(_ data: Data) throws -> OpenverseJSON {
        try JSONDecoder().decode(OpenverseJSON.self, from: data)
    }

    subscript(key: String) -> OpenverseJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var objectMembers: [String: OpenverseJSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Text as sent; a number or a flag in its usual spelling; nil for null,
    /// lists and objects.
    var lenientString: String? {
        switch self {
        case .string(let text): text
        case .integer(let whole): String(whole)
        case .number(let number): number.isFinite ? String(number) : nil
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// A whole number from a number or from digits in a string, clamped to
    /// `Int`'s range: a server's 2^63 must not trap.
    var lenientInteger: Int? {
        switch self {
        case .integer(let whole):
            return Int(clamping: whole)
        case .number(let number):
            guard number.isFinite, number.rounded(.towardZero) == number else { return nil }
            if number >= Double(Int.max) { return .max }
            if number <= Double(Int.min) { return .min }
            return Int(number)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            if let whole = Int(trimmed) { return whole }
            // Digits beyond Int's range: clamp rather than refuse.
            let digits = trimmed.drop { $0 == "-" || $0 == "+" }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return Double(trimmed).flatMap { OpenverseJSON.number($0).lenientInteger }
            }
            return trimmed.hasPrefix("-") ? .min : .max
        case .bool, .null, .array, .object:
            return nil
        }
    }

    /// `true`/`false`, or the strings and numbers people use for them.
    var lenientBool: Bool? {
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

    /// What kind of value this is, for error messages ("a list", "text").
    var summary: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .integer, .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
