import Foundation

/// A short, printable slice of untrusted text for error messages: control
/// characters and bidirectional overrides become spaces, runs of white space
/// collapse, and long text is cut with "…".
public enum ResponseExcerpt {
    /// The excerpt; while a provider's decoder runs (see `redacting`), with
    /// that provider's secrets replaced before the text is cut.
    public static func make(_ text: String, limit: Int = 80) -> String {
        secrets.isEmpty ? cut(text, limit: limit) : make(text, limit: limit, redacting: secrets)
    }

    static func cut(_ text: String, limit: Int) -> String {
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

    public static func make(_ data: Data, limit: Int = 80) -> String {
        guard secrets.isEmpty else { return make(data, limit: limit, redacting: secrets) }
        return cut(String(decoding: data.prefix(limit * 4), as: UTF8.self), limit: limit)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F: true
        default: false
        }
    }
}
