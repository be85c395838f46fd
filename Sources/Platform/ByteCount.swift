import Foundation

/// Byte counts as people read them: `512 B`, `380 KB`, `1.2 MB`.
public enum ByteCount {
    public static func format(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KB" }
        return "\(bytes) B"
    }
}
