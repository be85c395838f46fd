import Foundation

/// JSON for scripts, one line per value. Text from a server may hold
/// anything: besides what JSON must escape, the C1 controls, line and
/// paragraph separators and bidirectional marks are written as `\uXXXX`,
/// so the JSON cannot drive or reorder a terminal that shows it.
public enum ScriptJSON {
    public static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        var out = ""
        // Outside strings JSON is ASCII, so every scalar escaped here is inside one.
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069:
                out += String(format: "\\u%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
