/// MediaWiki's JSON, as `api.php` writes it: formatversion 1 escapes every
/// non-ASCII character (`\u00e9`, surrogate pairs beyond the BMP) and keys
/// `pages` by page id; formatversion 2 writes UTF-8 as it is and lists the
/// pages. Slashes are never escaped.
struct CommonsJSON {
    private(set) var bytes: [UInt8] = []
    let formatVersion: Int

    init(formatVersion: Int) {
        self.formatVersion = formatVersion
        bytes.reserveCapacity(16_384)
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func key(_ name: String) {
        string(name)
        raw(":")
    }

    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    mutating func member(_ name: String, _ value: Int) { raw("\"\(name)\":\(value)") }

    /// `true`/`false` in formatversion 2; in 1 a true flag is `""` and a
    /// false one is left out, so the caller writes the comma only when this
    /// says it wrote something.
    @discardableResult
    mutating func flag(_ name: String, _ value: Bool) -> Bool {
        if formatVersion >= 2 {
            raw("\"\(name)\":\(value)")
            return true
        }
        guard value else { return false }
        raw("\"\(name)\":\"\"")
        return true
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": raw("\\\"")
            case "\\": raw("\\\\")
            case "\n": raw("\\n")
            case "\r": raw("\\r")
            case "\t": raw("\\t")
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escape(scalar.value)
            case _ where scalar.value >= 0x80 && formatVersion < 2:
                if scalar.value > 0xFFFF {
                    let value = scalar.value - 0x10000
                    escape(0xD800 + (value >> 10))
                    escape(0xDC00 + (value & 0x3FF))
                } else {
                    escape(scalar.value)
                }
            default:
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ unit: UInt32) {
        let hex = String(unit, radix: 16)
        raw("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
    }
}
