import Foundation

/// What `download --videos` needs to know of a video's bytes: the extension
/// to save it under, and whether a file already there is whole.
///
/// Flickr serves MP4 (QuickTime for some old uploads). Both are ISO base
/// media files: a sequence of boxes, each starting with its own length. A
/// whole file is exactly a run of boxes, with `ftyp` first and a `moov`;
/// a file cut short ends inside its last box, so the lengths do not add up.
enum VideoFile {
    /// The extensions a video may be saved under, most likely first.
    static let fileExtensions = ["mp4", "mov", "m4v", "webm", "video"]

    /// `mov` for a QuickTime brand, `mp4` for other ISO media, `webm` for
    /// Matroska; `video` when the bytes are none of these.
    static func fileExtension(for data: Data) -> String {
        let bytes = [UInt8](data.prefix(12))
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            return Array(bytes[8..<12]) == Array("qt  ".utf8) ? "mov" : "mp4"
        }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return "webm" }
        return "video"
    }

    /// Whether `data` is a whole ISO base media file (MP4, MOV, M4V).
    static func isWholeISOMedia(_ data: Data) -> Bool {
        var offset = 0
        var types: [String] = []
        let count = data.count
        while offset < count {
            guard count - offset >= 8 else { return false }
            var size = bigEndian(data, at: offset, width: 4)
            let type = String(decoding: data[(data.startIndex + offset + 4)..<(data.startIndex + offset + 8)], as: UTF8.self)
            if size == 1 {
                guard count - offset >= 16 else { return false }
                size = bigEndian(data, at: offset + 8, width: 8)
            } else if size == 0 {
                // "Runs to the end of the file": nothing to check it against.
                size = UInt64(count - offset)
            }
            guard size >= 8, size <= UInt64(count - offset) else { return false }
            types.append(type)
            offset += Int(size)
        }
        return types.first == "ftyp" && types.contains("moov")
    }

    private static func bigEndian(_ data: Data, at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<width { value = value << 8 | UInt64(data[data.startIndex + offset + index]) }
        return value
    }
}
