import Foundation
import Networking

/// Reads JSON straight into a `WireValue`, in one pass over the bytes.
///
/// `JSONSerialization` builds `NSDictionary`, `NSArray` and `NSNumber`
/// objects that then have to be cast back one value at a time; on a page of
/// 100 photos that took about 15 ms, nearly a third of the CPU of a warm
/// `flickr download`. Reading into the tree directly takes about a tenth of
/// that, and lets us choose the leniency: bad UTF-8 and lone surrogates
/// become U+FFFD and raw control characters in strings are kept (the
/// terminal sanitiser removes them later), so one odd title never costs the
/// page. Nesting is bounded, so a hostile response cannot exhaust the stack.
public enum JSONReader {
    /// Why the bytes are not JSON, with where it went wrong.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Deeper than any API response; stops `[[[[…` from recursing without end.
    public static let maximumDepth = 256

    public static func read(_ data: Data) throws(Failure) -> WireValue {
        let result: Result<WireValue, Failure> = data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                return .success(try parser.document())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func document() throws(JSONReader.Failure) -> WireValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipSpace()
        let root = try value()
        skipSpace()
        guard index == bytes.count else { throw failure(expecting: "the end after the first value") }
        return root
    }

    private mutating func value() throws(JSONReader.Failure) -> WireValue {
        guard let byte = current else { throw failure(expecting: "a value") }
        switch byte {
        case ASCII.openBrace: return try object()
        case ASCII.openBracket: return try array()
        case ASCII.quote: return .string(try string())
        case ASCII.t: try literal("true"); return .bool(true)
        case ASCII.f: try literal("false"); return .bool(false)
        case ASCII.n: try literal("null"); return .null
        case ASCII.minus, ASCII.zero...ASCII.nine: return try number()
        default: throw failure(expecting: "a value")
        }
    }

    private mutating func object() throws(JSONReader.Failure) -> WireValue {
        if try enterContainer(closing: ASCII.closeBrace) { return .object([:]) }
        // The first members are gathered in a list and hashed into a table of
        // the right size once: a photo has some forty, and growing the table
        // from one rehashed them six times (two fifths of the time spent
        // parsing a page). Past `gathered` they go straight into the table, so a name
        // repeated a million times holds one value, not a million.
        let gathered = 64
        var members: [(name: String, value: WireValue)] = []
        members.reserveCapacity(16)
        var table: [String: WireValue] = [:]
        while true {
            skipSpace()
            guard current == ASCII.quote else { throw failure(expecting: "a member name in quotes") }
            let name = try string()
            skipSpace()
            guard current == ASCII.colon else { throw failure(expecting: "“:” after a member name") }
            index += 1
            skipSpace()
            let member = try value()
            if members.count < gathered {
                members.append((name, member))
            } else {
                if table.isEmpty { table = Self.table(members, capacity: 2 * gathered) }
                // A name given twice keeps its last value.
                table[name] = member
            }
            if try containerEnds(at: ASCII.closeBrace, in: "an object") { break }
        }
        return .object(table.isEmpty ? Self.table(members, capacity: members.count) : table)
    }

    private static func table(_ members: [(name: String, value: WireValue)], capacity: Int) -> [String: WireValue] {
        var table = [String: WireValue](minimumCapacity: capacity)
        for (name, value) in members { table[name] = value }
        return table
    }

    private mutating func array() throws(JSONReader.Failure) -> WireValue {
        var elements: [WireValue] = []
        if try enterContainer(closing: ASCII.closeBracket) { return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value())
            if try containerEnds(at: ASCII.closeBracket, in: "a list") { return .array(elements) }
        }
    }

    /// Steps over `{` or `[`, counting the depth; true when the container is
    /// empty, its closing bracket stepped over too.
    private mutating func enterContainer(closing: UInt8) throws(JSONReader.Failure) -> Bool {
        depth += 1
        guard depth <= JSONReader.maximumDepth else {
            throw JSONReader.Failure(
                description: "values nested more than \(JSONReader.maximumDepth) deep at byte \(index)")
        }
        index += 1
        skipSpace()
        guard current == closing else { return false }
        leaveContainer()
        return true
    }

    /// After a member or an element: steps over “,” (false: another one
    /// follows) or over the closing bracket (true: the container ended).
    private mutating func containerEnds(at closing: UInt8, in container: String) throws(JSONReader.Failure) -> Bool {
        skipSpace()
        switch current {
        case ASCII.comma:
            index += 1
            return false
        case closing:
            leaveContainer()
            return true
        default:
            throw failure(expecting: "“,” or “\(Character(Unicode.Scalar(closing)))” in \(container)")
        }
    }

    /// Steps over `}` or `]`.
    private mutating func leaveContainer() {
        depth -= 1
        index += 1
    }

    private mutating func string() throws(JSONReader.Failure) -> String {
        index += 1
        let start = index
        // Most strings have no escapes: decode the bytes in one step.
        while index < bytes.count, bytes[index] != ASCII.quote, bytes[index] != ASCII.backslash {
            index += 1
        }
        guard index < bytes.count else { throw failure(expecting: "the closing quote of a string") }
        if bytes[index] == ASCII.quote {
            index += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
        }
        var text = Array(bytes[start..<index])
        while true {
            guard let byte = current else { throw failure(expecting: "the closing quote of a string") }
            index += 1
            switch byte {
            case ASCII.quote:
                return String(decoding: text, as: UTF8.self)
            case ASCII.backslash:
                try escape(into: &text)
            default:
                text.append(byte)
            }
        }
    }

    /// One escape after its backslash, appended as UTF-8.
    private mutating func escape(into text: inout [UInt8]) throws(JSONReader.Failure) {
        guard let byte = current else { throw failure(expecting: "an escape after “\\”") }
        index += 1
        switch byte {
        case ASCII.quote, ASCII.backslash, ASCII.slash: text.append(byte)
        case ASCII.b: text.append(0x08)
        case ASCII.f: text.append(0x0C)
        case ASCII.n: text.append(0x0A)
        case ASCII.r: text.append(0x0D)
        case ASCII.t: text.append(0x09)
        case ASCII.u:
            let scalar = try unicodeEscape()
            text.append(contentsOf: String(Character(scalar)).utf8)
        default:
            index -= 1
            throw failure(expecting: "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after “\\”")
        }
    }

    /// The scalar of `\uXXXX` (its `\u` already read), joining a surrogate
    /// pair; a lone surrogate becomes U+FFFD.
    private mutating func unicodeEscape() throws(JSONReader.Failure) -> Unicode.Scalar {
        let unit = try hexQuad()
        switch unit {
        case 0xD800...0xDBFF:
            let save = index
            if current == ASCII.backslash, index + 1 < bytes.count, bytes[index + 1] == ASCII.u {
                index += 2
                let low = try hexQuad()
                if (0xDC00...0xDFFF).contains(low) {
                    let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    return Unicode.Scalar(value) ?? "\u{FFFD}"
                }
                index = save
            }
            return "\u{FFFD}"
        case 0xDC00...0xDFFF:
            return "\u{FFFD}"
        default:
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        }
    }

    private mutating func hexQuad() throws(JSONReader.Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else {
                throw failure(expecting: "four hex digits after “\\u”")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case ASCII.zero...ASCII.nine: UInt32(byte - ASCII.zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A whole number that fits an `Int` is `.integer`, as is a fraction
    /// that is whole (`2.0`); anything else is `.number`.
    private mutating func number() throws(JSONReader.Failure) -> WireValue {
        let start = index
        if current == ASCII.minus { index += 1 }
        guard skipDigits() else { throw failure(expecting: "a digit") }
        var isWhole = true
        if current == ASCII.dot {
            index += 1
            isWhole = false
            guard skipDigits() else { throw failure(expecting: "a digit after “.”") }
        }
        if current == ASCII.e || current == ASCII.capitalE {
            index += 1
            isWhole = false
            if current == ASCII.plus || current == ASCII.minus { index += 1 }
            guard skipDigits() else { throw failure(expecting: "a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isWhole, let value = Int(text) { return .integer(value) }
        guard let value = Double(text) else { throw failure(expecting: "a number") }
        if value.rounded() == value, let exact = Int(exactly: value) { return .integer(exact) }
        return .number(value)
    }

    /// Steps over a run of digits; false when there were none.
    private mutating func skipDigits() -> Bool {
        let start = index
        while let byte = current, byte >= ASCII.zero, byte <= ASCII.nine { index += 1 }
        return index > start
    }

    private mutating func literal(_ word: StaticString) throws(JSONReader.Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count,
              UnsafeBufferPointer(rebasing: bytes[index..<(index + expected.count)]).elementsEqual(expected)
        else { throw failure(expecting: "\(word)") }
        index += expected.count
    }

    private mutating func skipSpace() {
        while let byte = current, byte == ASCII.space || byte == ASCII.newline || byte == ASCII.tab
            || byte == ASCII.carriageReturn {
            index += 1
        }
    }

    private func failure(expecting what: String) -> JSONReader.Failure {
        if index >= bytes.count {
            return JSONReader.Failure(description: "it ends at byte \(bytes.count) where \(what) should be")
        }
        return JSONReader.Failure(description: "expected \(what) at byte \(index)")
    }
}

/// The bytes JSON's grammar is made of.
private enum ASCII {
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let space = UInt8(ascii: " ")
    static let newline = UInt8(ascii: "\n")
    static let tab = UInt8(ascii: "\t")
    static let carriageReturn = UInt8(ascii: "\r")
    static let b = UInt8(ascii: "b")
    static let e = UInt8(ascii: "e")
    static let capitalE = UInt8(ascii: "E")
    static let f = UInt8(ascii: "f")
    static let n = UInt8(ascii: "n")
    static let r = UInt8(ascii: "r")
    static let t = UInt8(ascii: "t")
    static let u = UInt8(ascii: "u")
}
