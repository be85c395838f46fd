import Foundation

/// JSON written byte for byte as `JSONEncoder` writes it with
/// `[.sortedKeys, .withoutEscapingSlashes]`, pretty-printed or not, without
/// going through `Encodable`: a download writes a sidecar per work, and the
/// encoder's generic walk cost about 120 µs of each one's 150; the manifest
/// of 300 files took it 7 ms, at the end of the run (the tests check the
/// two agree on hostile text).
enum JSONWriter {
    /// `.pretty` is the encoder's `.prettyPrinted`.
    enum Style { case pretty, compact }

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

    static func data(_ value: Value, style: Style = .pretty) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(4_096)
        write(value, indent: style == .pretty ? 0 : nil, into: &out)
        return Data(out)
    }

    /// Writes `value`; `indent` is its depth when pretty-printing, nil for compact.
    private static func write(_ value: Value, indent: Int?, into out: inout [UInt8]) {
        let inner = indent.map { $0 + 1 }
        switch value {
        case .string(let text):
            write(string: text, into: &out)
        case .number(let digits):
            out.append(contentsOf: digits.utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                lineBreak(inner, into: &out)
                write(item, indent: inner, into: &out)
            }
            // An empty array or object keeps its blank line, as the encoder writes it.
            if items.isEmpty { lineBreak(inner, into: &out, pad: false) }
            lineBreak(indent, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // The encoder orders keys by their UTF-8 bytes.
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (offset, member) in sorted.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                lineBreak(inner, into: &out)
                write(string: member.key, into: &out)
                out.append(contentsOf: (indent == nil ? ":" : " : ").utf8)
                write(member.value, indent: inner, into: &out)
            }
            if sorted.isEmpty { lineBreak(inner, into: &out, pad: false) }
            lineBreak(indent, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Pretty-printing, a line break and the padding of depth `indent`
    /// (without the padding when `pad` is false); compact, nothing.
    private static func lineBreak(_ indent: Int?, into out: inout [UInt8], pad: Bool = true) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        if pad { for _ in 0..<indent { out.append(contentsOf: "  ".utf8) } }
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
