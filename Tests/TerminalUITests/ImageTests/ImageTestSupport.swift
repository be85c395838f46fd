import CTurboJPEG
import Foundation
@testable import TerminalUI
import TestSupport

/// Test fixtures for the image tests: real JPEGs made with TurboJPEG's
/// encoder, and helpers to read terminal output the way a terminal would.
enum ImageFixtures {
    struct EncodeError: Error, CustomStringConvertible {
        var description: String
    }

    /// A baseline JPEG of `width × height`: a colour gradient with a dark
    /// square, so renderings are not uniform.
    static func jpeg(width: Int, height: Int, quality: Int = 85) throws -> Data {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                let inSquare = x > width / 4 && x < width / 2 && y > height / 4 && y < height / 2
                pixels[offset] = inSquare ? 10 : UInt8(x * 255 / max(1, width - 1))
                pixels[offset + 1] = inSquare ? 10 : UInt8(y * 255 / max(1, height - 1))
                pixels[offset + 2] = inSquare ? 10 : 160
            }
        }
        guard let handle = tjInitCompress() else { throw EncodeError(description: "tjInitCompress failed") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                &output, &length, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw EncodeError(description: String(cString: tjGetErrorStr2(handle)))
        }
        return Data(bytes: output, count: Int(length))
    }

    /// The first bytes of a PNG file.
    static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
}

enum RenderedText {
    static let escape: Character = "\u{1B}"

    /// `text` with escape sequences removed: CSI (`ESC [ … final`), string
    /// sequences (DCS `ESC P`, APC `ESC _`, OSC `ESC ]`, up to `ESC \` or
    /// BEL) and two-character escapes (`ESC 7`, `ESC 8`). What is left is
    /// what a terminal would put in cells as text.
    static func visible(_ text: String) -> String {
        var result = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == escape else {
                result.append(character)
                continue
            }
            guard let next = iterator.next() else { break }
            switch next {
            case "[":
                while let code = iterator.next() {
                    if let value = code.unicodeScalars.first?.value, (0x40...0x7E).contains(value) { break }
                }
            case "P", "_", "]":
                var previous: Character = " "
                while let code = iterator.next() {
                    if code == "\u{07}" || (previous == escape && code == "\\") { break }
                    previous = code
                }
            default:
                break
            }
        }
        return result
    }

    /// Display width of one line after removing escape sequences.
    static func width(_ line: String) -> Int {
        DisplayWidth.of(visible(line))
    }

    /// Every SGR sequence (`ESC [ … m`) in `text`.
    static func sgrSequences(_ text: String) -> [String] {
        var found: [String] = []
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == escape, let next = iterator.next(), next == "[" else { continue }
            var sequence = "\u{1B}["
            while let code = iterator.next() {
                sequence.append(code)
                if let value = code.unicodeScalars.first?.value, (0x40...0x7E).contains(value) { break }
            }
            if sequence.hasSuffix("m") { found.append(sequence) }
        }
        return found
    }

    /// Display column where `needle` starts in the visible text of `line`, or nil.
    static func column(of needle: String, in line: String) -> Int? {
        let text = visible(line)
        guard let range = text.range(of: needle) else { return nil }
        return DisplayWidth.of(String(text[..<range.lowerBound]))
    }

    /// What a terminal of this size shows after printing `text` the way the
    /// terminal view does (each "\n" sent as CR LF), starting at the top left.
    static func screen(_ text: String, columns: Int, rows: Int) -> TerminalScreen {
        var screen = TerminalScreen(columns: columns, rows: rows)
        screen.feed(text.replacingOccurrences(of: "\n", with: "\r\n"))
        return screen
    }
}
