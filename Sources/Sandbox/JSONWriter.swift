/// Appends JSON text to a byte array by hand, so the sandbox controls the
/// exact bytes of every wire format (member order, number forms, escapes).
struct JSONWriter {
    var bytes: [UInt8] = []
    /// Flickr writes `\/` for every slash (`http:\/\/`); Shutterstock does not.
    let escapesSlashes: Bool

    init(escapesSlashes: Bool) {
        self.escapesSlashes = escapesSlashes
        bytes.reserveCapacity(16_384)
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `"name":` (names are plain ASCII chosen by the sandbox).
    mutating func key(_ name: String) { raw("\"\(name)\":") }

    /// A string literal.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "/") where escapesSlashes: raw("\\/")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20, 0x7F:
                raw("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"name":"value"`.
    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// `"name":value` with a number.
    mutating func member(_ name: String, _ value: Int) { raw("\"\(name)\":\(value)") }

    /// `"a":"x","b":"y"`: string members in order, comma-separated.
    mutating func members(_ pairs: KeyValuePairs<String, String>) {
        for (position, pair) in pairs.enumerated() {
            if position > 0 { raw(",") }
            member(pair.key, pair.value)
        }
    }

    /// `"a":{"_content":"x"},…`: text-node members in order, comma-separated.
    mutating func contents(_ pairs: KeyValuePairs<String, String>) {
        for (position, pair) in pairs.enumerated() {
            if position > 0 { raw(",") }
            content(pair.key, pair.value)
        }
    }

    /// `{"_content":"…"}`, Flickr's JSON form of an XML text node.
    mutating func content(_ name: String, _ value: String) {
        key(name)
        raw("{\"_content\":")
        string(value)
        raw("}")
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
