import Foundation
import ImageCodecs
@testable import TerminalUI

/// Pixels and parsed kitty commands for the pixel-protocol tests.
enum PixelFixtures {
    /// `width × height` RGBA pixels of deterministic noise: photos' worst
    /// case for compression (every pixel differs from its neighbours).
    static func noise(width: Int, height: Int, seed: UInt64 = 7) -> DecodedImage {
        var state = seed
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in 0..<(width * height) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pixels[index * 4] = UInt8(truncatingIfNeeded: state >> 56)
            pixels[index * 4 + 1] = UInt8(truncatingIfNeeded: state >> 48)
            pixels[index * 4 + 2] = UInt8(truncatingIfNeeded: state >> 40)
        }
        return DecodedImage(width: width, height: height, rgba: pixels, sourceWidth: width, sourceHeight: height)
    }

    /// A smooth gradient, which compresses well.
    static func gradient(width: Int, height: Int) -> DecodedImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8(x * 255 / max(1, width - 1))
                pixels[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[offset + 2] = 128
            }
        }
        return DecodedImage(width: width, height: height, rgba: pixels, sourceWidth: width, sourceHeight: height)
    }
}

/// One kitty graphics command as a terminal would read it.
struct ParsedKittyCommand: Equatable {
    var keys: [String: String]
    var payload: String

    /// Every `ESC _ G … ESC \` in `text`, in order.
    static func all(in text: String) -> [ParsedKittyCommand] {
        var commands: [ParsedKittyCommand] = []
        var rest = Substring(text)
        while let start = rest.range(of: "\u{1B}_G") {
            guard let end = rest[start.upperBound...].range(of: "\u{1B}\\") else { break }
            let body = rest[start.upperBound..<end.lowerBound]
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            var keys: [String: String] = [:]
            for pair in parts[0].split(separator: ",") {
                let keyValue = pair.split(separator: "=", maxSplits: 1)
                if keyValue.count == 2 { keys[String(keyValue[0])] = String(keyValue[1]) }
            }
            commands.append(ParsedKittyCommand(keys: keys, payload: parts.count > 1 ? String(parts[1]) : ""))
            rest = rest[end.upperBound...]
        }
        return commands
    }
}

/// Reads the PNGs `KittyPNG` writes, the way a terminal would: checks the
/// signature and every chunk's CRC, inflates the data and undoes the row
/// filters. Written independently of the encoder (its own CRC table).
enum PNGReader {
    struct Image: Equatable {
        var width: Int
        var height: Int
        var rgb: [UInt8]
    }

    static func read(_ bytes: [UInt8]) -> Image? {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        var offset = 8
        var width = 0, height = 0
        var data: [UInt8] = []
        while offset + 12 <= bytes.count {
            let length = Int(uint32(bytes, offset))
            guard offset + 12 + length <= bytes.count else { return nil }
            let body = Array(bytes[(offset + 4)..<(offset + 8 + length)])
            guard crc(body) == uint32(bytes, offset + 8 + length) else { return nil }
            let type = String(decoding: body.prefix(4), as: UTF8.self)
            let content = Array(body.dropFirst(4))
            if type == "IHDR" {
                width = Int(uint32(content, 0))
                height = Int(uint32(content, 4))
                guard content[8] == 8, content[9] == 2 else { return nil }
            } else if type == "IDAT" {
                data += content
            }
            offset += 12 + length
        }
        let stride = width * 3
        guard width > 0, let raw = KittyEncoder.decompress(data, expectedCount: (stride + 1) * height) else { return nil }
        var rgb = [UInt8](repeating: 0, count: stride * height)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            for index in 0..<stride {
                let value = Int(raw[row * (stride + 1) + 1 + index])
                let left = index >= 3 ? Int(rgb[row * stride + index - 3]) : 0
                let up = row > 0 ? Int(rgb[(row - 1) * stride + index]) : 0
                let upLeft = row > 0 && index >= 3 ? Int(rgb[(row - 1) * stride + index - 3]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (a, b, c) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predicted = a <= b && a <= c ? left : (b <= c ? up : upLeft)
                default: return nil
                }
                rgb[row * stride + index] = UInt8(truncatingIfNeeded: value + predicted)
            }
        }
        return Image(width: width, height: height, rgb: rgb)
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func crc(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(UInt32.max) { table[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }
}
