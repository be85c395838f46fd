/// Numbers as filters print them and as they go out to a service: plain
/// decimal, never an exponent (`0.00001`, not `1e-05`, which the query
/// parser refuses and services may misread), with no locale, and with the
/// shortest digits that read back as the same `Double`.
public enum PlainDecimal {
    public static func format(_ value: Double) -> String {
        // Filters hold only finite numbers; nothing else is printed as one.
        guard value.isFinite, value != 0 else { return "0" }
        // Swift's description is the shortest round-tripping form, with an
        // exponent for small and large magnitudes: move its point instead.
        let shortest = String(value.magnitude)
        var mantissa = Substring(shortest)
        var exponent = 0
        if let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = shortest[..<e]
            exponent = Int(shortest[shortest.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        var digits = Array(parts[0] + (parts.count > 1 ? parts[1] : ""))
        var point = parts[0].count + exponent
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let text: String
        if point <= 0 {
            text = "0." + String(repeating: "0", count: -point) + String(digits)
        } else if point >= digits.count {
            text = String(digits) + String(repeating: "0", count: point - digits.count)
        } else {
            text = String(digits[..<point]) + "." + String(digits[point...])
        }
        return value < 0 ? "-" + text : text
    }
}
