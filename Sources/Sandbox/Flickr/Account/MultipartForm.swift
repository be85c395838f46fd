import Foundation

/// A `multipart/form-data` body taken apart (RFC 7578), for uploads.
///
/// Bodies come from anyone: every failure (no boundary, a part cut short,
/// headers without end) is a nil answer, never a crash, and nothing is
/// allocated by what a body claims, only by what it holds.
struct MultipartForm {
    struct Part {
        var name: String
        /// The `filename` of a file part; nil for a plain field.
        var filename: String?
        var body: ArraySlice<UInt8>

        /// A field's value as text (invalid UTF-8 replaced).
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// A part's headers may take this many bytes at most.
    static let headerLimit = 8 * 1024
    /// Parts kept at most: an upload has a dozen fields.
    static let partLimit = 64

    var parts: [Part]

    /// The `boundary` parameter of a `multipart/form-data` content type:
    /// 1 to 70 characters (RFC 2046), quoted or not.
    static func boundary(of contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
            return value
        }
        return nil
    }

    /// nil when the body is not a whole, well-formed form under `boundary`.
    init?(_ bytes: [UInt8], boundary: String) {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = ByteSearch(Array("\r\n--\(boundary)".utf8))
        // The first delimiter opens the body (a preamble before it is allowed).
        var position: Int
        if bytes.starts(with: delimiter) {
            position = delimiter.count
        } else if let found = separator.firstIndex(in: bytes, from: 0) {
            position = found + separator.count
        } else {
            return nil
        }
        var parts: [Part] = []
        while true {
            // After a delimiter: `--` closes the form, CRLF opens a part.
            guard position + 2 <= bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-") { break }
            // Transport padding (spaces, tabs) may follow a delimiter.
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            guard position + 2 <= bytes.count, bytes[position] == 0x0D, bytes[position + 1] == 0x0A else { return nil }
            position += 2
            guard parts.count < Self.partLimit,
                  let headerEnd = Self.headerEnd(in: bytes, from: position),
                  let part = Self.part(headers: bytes[position..<headerEnd])
            else { return nil }
            let bodyStart = headerEnd + 4
            guard let bodyEnd = separator.firstIndex(in: bytes, from: bodyStart) else { return nil }
            parts.append(Part(name: part.name, filename: part.filename, body: bytes[bodyStart..<bodyEnd]))
            position = bodyEnd + separator.count
        }
        self.parts = parts
    }

    /// The CRLF CRLF that ends a part's headers, within the header limit.
    private static func headerEnd(in bytes: [UInt8], from start: Int) -> Int? {
        let end = min(bytes.count, start + headerLimit)
        var index = start
        while index + 4 <= end {
            if bytes[index] == 0x0D, bytes[index + 1] == 0x0A, bytes[index + 2] == 0x0D, bytes[index + 3] == 0x0A { return index }
            index += 1
        }
        return nil
    }

    /// The name and file name from `Content-Disposition: form-data; name="…"; filename="…"`.
    private static func part(headers: ArraySlice<UInt8>) -> (name: String, filename: String?)? {
        let text = String(decoding: headers, as: UTF8.self)
        for line in text.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            let parameters = DispositionParameters(String(pair[1]))
            guard parameters.type == "form-data", let name = parameters.values["name"] else { return nil }
            return (name, parameters.values["filename"])
        }
        return nil
    }
}

/// `form-data; name="photo"; filename="a;b.jpg"`: the type and the
/// parameters, quoted strings kept whole (with `\"` escapes).
private struct DispositionParameters {
    var type = ""
    var values: [String: String] = [:]

    init(_ text: String) {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";", !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        type = pieces.first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            if values[key] == nil { values[key] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
    }
}

/// Knuth–Morris–Pratt search for a short pattern: linear in the body
/// whatever it holds (a body of near-delimiters costs no more than any other).
struct ByteSearch {
    let pattern: [UInt8]
    private let failure: [Int]

    var count: Int { pattern.count }

    init(_ pattern: [UInt8]) {
        self.pattern = pattern
        var failure = [Int](repeating: 0, count: pattern.count)
        var matched = 0
        for index in pattern.indices.dropFirst() {
            while matched > 0, pattern[index] != pattern[matched] { matched = failure[matched - 1] }
            if pattern[index] == pattern[matched] { matched += 1 }
            failure[index] = matched
        }
        self.failure = failure
    }

    /// Where the pattern first starts at or after `start`.
    func firstIndex(in bytes: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, start >= 0 else { return nil }
        var matched = 0
        var index = start
        while index < bytes.count {
            while matched > 0, bytes[index] != pattern[matched] { matched = failure[matched - 1] }
            if bytes[index] == pattern[matched] { matched += 1 }
            if matched == pattern.count { return index - pattern.count + 1 }
            index += 1
        }
        return nil
    }
}
