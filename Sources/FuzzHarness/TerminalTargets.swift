import CTurboJPEG
import Foundation
import ImageCodecs
import TerminalUI

/// What the view does with outside input: titles and messages made safe for
/// the terminal, lines typed at the prompt, and downloaded image bytes.
enum TerminalTargets {
    /// Input: one byte of column count, then the text.
    static let title = FuzzTarget(name: "title", seeds: {
        let samples = [
            "plain title", "\u{1B}]52;c;ZWNobyBoaQ==\u{07}clipboard", "\u{1B}[2J\u{1B}[Hcleared",
            "\u{9B}31mred\u{9D}0;title\u{9C}", "abc\u{202E}evil\u{202C}def", "日本語のタイトル 🐱‍👤 👍🏽 🇯🇵",
            "e\u{301}\u{301} tab\tcr\rline\nsep\u{2028}end", "\u{1B}P1;2|payload\u{1B}\\after", "\u{1B}(0\u{1B}#8x",
        ]
        return samples.enumerated().map { ("\($0.offset).txt", Data([UInt8(12 + 7 * $0.offset)]) + .text($0.element)) }
    }, run: { data in
        let columns = Int(data.first ?? 0) % 64
        let text = String(decoding: data.dropFirst(), as: UTF8.self)

        let line = TextSanitizer.sanitize(text, maximumLength: 40)
        requireNoControls(line, allowing: [], what: "sanitize")
        require(line.count <= 40, "sanitize kept \(line.count) characters: \(line.debugDescription)")
        require(TextSanitizer.sanitize(line, maximumLength: 40) == line, "sanitize is not idempotent: \(line.debugDescription)")

        requireNoControls(TextSanitizer.stripControls(text), allowing: ["\n", "\t"], what: "stripControls")

        let fitted = TextSanitizer.fit(line, columns: columns)
        require(DisplayWidth.of(fitted) <= columns, "fit(\(columns)) is \(DisplayWidth.of(fitted)) wide: \(fitted.debugDescription)")
        let padded = TextSanitizer.pad(line, toColumns: columns)
        require(DisplayWidth.of(padded) == columns, "pad(\(columns)) is \(DisplayWidth.of(padded)) wide: \(padded.debugDescription)")
    })

    /// Input: one line typed at the prompt.
    static let command = FuzzTarget(name: "command", seeds: {
        ["kittens", "", "   ", "/open 3", "/open #12", "/open -1", "/open 99999999999999999999", "/layout LIST",
         "/cancel now", "//etc/passwd", "/", "/opne 2", "/\u{1B}[2Jx", "/open \u{1B}]0;t\u{07}", "/retry", "/?",
         "日本 café /quit", "/provider shutterstock", "/PROVIDER", "/provider a b", "/live maybe", "/user ana souza",
         "/albums", "/album 3", "/fave 2", "/unfave 0", "/faves", "/faves ana", "/me", "/login"].enumerated().map { ("\($0.offset).txt", Data.text($0.element)) }
    }, run: { data in
        let line = String(decoding: data, as: UTF8.self)
        switch UserCommand.parse(line) {
        case .search(let text):
            // Words are split on whole characters, so a tab carrying a
            // combining mark stays in a word; blank it never is.
            require(text.unicodeScalars.contains { !$0.properties.isWhitespace }, "blank search text: \(text.debugDescription)")
        case .open(let number), .fave(let number), .unfave(let number):
            require(number >= 1, "a command on a shown photo parsed \(number): \(line.debugDescription)")
        case .invalid(let message):
            requireNoControls(message, allowing: [], what: "the usage message")
        case .unknown(_, let suggestion):
            let known = UserCommand.completions(providers: ["flickr"]).joined()
            require(suggestion.map { known.contains($0) } ?? true, "suggested \(suggestion ?? "")")
        case .nextPage:
            require(line.allSatisfy(\.isWhitespace), "a non-blank line paged on: \(line.debugDescription)")
        case .provider(let name):
            // The name is one word, shown back in messages when unknown.
            require(name.map { !$0.isEmpty && !$0.contains(where: \.isWhitespace) } ?? true, "/provider parsed \(name.debugDescription)")
        case .filter(let argument):
            require(argument.map { !$0.allSatisfy(\.isWhitespace) } ?? true, "/filter parsed a blank argument")
        case .user(let name), .album(let name), .albums(let name?), .faves(let name?):
            require(!name.isEmpty && !name.contains(where: \.isWhitespace), "a browsing command parsed \(name.debugDescription)")
        case .cancel, .recent, .layout, .stats, .help, .quit, .retry, .live, .albums(nil), .faves(nil), .me, .login:
            break
        }
    })

    /// Input: the bytes of a downloaded image.
    static let jpeg = FuzzTarget(name: "jpeg", seeds: {
        [("gradient-420.jpg", try encodedJPEG(width: 48, height: 32, subsampling: TJSAMP_420, flags: 0)),
         ("gradient-444-progressive.jpg", try encodedJPEG(width: 33, height: 17, subsampling: TJSAMP_444, flags: TJFLAG_PROGRESSIVE)),
         ("gray.jpg", try encodedJPEG(width: 16, height: 40, subsampling: TJSAMP_GRAY, flags: 0)),
         ("png-signature.bin", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))]
    }, run: { data in
        guard let size = try? JPEGDecoder.dimensions(of: data) else { return }
        require(size.width > 0 && size.height > 0, "dimensions \(size)")
        // The grid's thumbnail box, and full size while that stays cheap.
        var boxes: [(width: Int, height: Int)?] = [(width: 96, height: 64)]
        if size.width * size.height <= 1 << 16 { boxes.append(nil) }
        for box in boxes {
            guard let image = try? JPEGDecoder.decode(data, fitting: box) else { continue }
            require(image.rgba.count == image.width * image.height * 4, "\(image.rgba.count) bytes for \(image.width)x\(image.height)")
            require(image.width <= image.sourceWidth && image.height <= image.sourceHeight, "upscaled")
        }
    })

    static func requireNoControls(_ text: String, allowing allowed: Set<Unicode.Scalar>, what: String) {
        let bad = text.unicodeScalars.first { scalar in
            guard !allowed.contains(scalar) else { return false }
            switch scalar.value {
            case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
        require(bad == nil, "\(what) left U+\(String(bad?.value ?? 0, radix: 16)) in \(text.debugDescription)")
    }

    /// A small gradient encoded by TurboJPEG, so the corpus starts from
    /// files the decoder accepts.
    static func encodedJPEG(width: Int, height: Int, subsampling: TJSAMP, flags: Int32) throws -> Data {
        struct EncodeFailure: Error {}
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for index in 0..<(width * height) {
            pixels[index * 3] = UInt8(truncatingIfNeeded: index % width * 5)
            pixels[index * 3 + 1] = UInt8(truncatingIfNeeded: index / width * 7)
            pixels[index * 3 + 2] = 90
        }
        guard let handle = tjInitCompress() else { throw EncodeFailure() }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(handle, source.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                        &output, &length, Int32(subsampling.rawValue), 75, flags)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw EncodeFailure() }
        return Data(bytes: output, count: Int(length))
    }
}
