import Foundation

/// JSON written byte for byte as `JSONEncoder` writes it with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, without going
/// through `Encodable`: a download writes a sidecar per work, and the
/// encoder's generic walk cost about 120 µs of each one's 150 (the tests
/// check the two agree on hostile text).
enum PrettyJSON {
    indirect enum Value {
        case string(String)
        /// Digits as they are to appear.
        case number(String)
        case bool(Bool)
        case array([Value])
        /// Members in any order: they are written sorted, as the encoder does.
        case object([(key: String, value: Value)])

        static func number(_ value: Int) -> Value { .number(String(value)) }

        /// The encoder's form of a double (`1`, `1.5`, `1e+20`); it refuses
        /// infinities and NaN, and so does this.
        static func number(_ value: Double) throws(NonConformingNumber) -> Value {
            guard value.isFinite else { throw NonConformingNumber(value: value) }
            let text = value.description
            return .number(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
        }

        static func string(_ url: URL) -> Value { .string(url.absoluteString) }
    }

    /// A number JSON cannot hold.
    struct NonConformingNumber: Error, CustomStringConvertible {
        var value: Double
        var description: String { "\(value) cannot be written as JSON" }
    }

    static func data(_ value: Value) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(4_096)
        write(value, indent: 0, into: &out)
        return Data(out)
    }

    private static func write(_ value: Value, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .string(let text):
            write(string: text, into: &out)
        case .number(let digits):
            out.append(contentsOf: digits.utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            out.append(newline)
            for (offset, item) in items.enumerated() {
                if offset > 0 { out.append(contentsOf: ",\n".utf8) }
                pad(indent + 1, into: &out)
                write(item, indent: indent + 1, into: &out)
            }
            // An empty array or object keeps its blank line, as the encoder writes it.
            out.append(newline)
            pad(indent, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            out.append(newline)
            // The encoder orders keys by their UTF-8 bytes.
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (offset, member) in sorted.enumerated() {
                if offset > 0 { out.append(contentsOf: ",\n".utf8) }
                pad(indent + 1, into: &out)
                write(string: member.key, into: &out)
                out.append(contentsOf: " : ".utf8)
                write(member.value, indent: indent + 1, into: &out)
            }
            out.append(newline)
            pad(indent, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let newline = UInt8(ascii: "\n")

    private static func pad(_ indent: Int, into out: inout [UInt8]) {
        for _ in 0..<indent { out.append(contentsOf: "  ".utf8) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A string as the encoder escapes it: quote, backslash and the C0
    /// controls; everything else (slashes too) as its UTF-8, copied a run
    /// at a time (byte by byte, strings were most of the writer's time).
    private static func write(string text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case 0x08: out.append(contentsOf: "\\b".utf8)
                case 0x09: out.append(contentsOf: "\\t".utf8)
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x0C: out.append(contentsOf: "\\f".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                default:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
