import CGIF
import CTurboJPEG
import CWebP
import CZlib
import Foundation

/// Real image files of every format the app reads, made in the test that
/// uses them: JPEG by TurboJPEG, GIF by giflib, WebP by libwebp, and PNG
/// written chunk by chunk here (so every colour type, 16-bit samples and
/// Adam7 interlacing can be had, which libpng's simple writer cannot).
public enum ImageSamples {
    public struct EncodeError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The picture every sample shows: a red-to-right, green-downwards
    /// gradient over blue 160, whose alpha falls from 255 at the top to 55
    /// at the bottom when `alpha` (formats without alpha drop it).
    public static func pixel(x: Int, y: Int, width: Int, height: Int, alpha: Bool) -> [UInt8] {
        [
            UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 160,
            alpha ? UInt8(255 - y * 200 / max(1, height - 1)) : 255,
        ]
    }

    public static func rgba(width: Int, height: Int, alpha: Bool) -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width { pixels += pixel(x: x, y: y, width: width, height: height, alpha: alpha) }
        }
        return pixels
    }

    // MARK: - JPEG

    /// A baseline 4:2:0 JPEG of the gradient, with noise so the scan is long
    /// enough that cutting a piece out of it shows.
    public static func jpeg(width: Int, height: Int, quality: Int = 85) throws -> Data {
        var pixels = rgba(width: width, height: height, alpha: false)
        var seed: UInt32 = 12345
        for index in stride(from: 0, to: pixels.count, by: 4) {
            seed = seed &* 1_103_515_245 &+ 12345
            pixels[index + 2] = UInt8(truncatingIfNeeded: 120 + Int(seed >> 26))
        }
        guard let handle = tjInitCompress() else { throw EncodeError(description: "tjInitCompress failed") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGBA.rawValue),
                &output, &length, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw EncodeError(description: "tjCompress2 failed") }
        return Data(bytes: output, count: Int(length))
    }

    // MARK: - WebP

    /// A WebP of the gradient with its alpha: lossy (VP8 + ALPH) or lossless (VP8L).
    public static func webp(width: Int, height: Int, lossless: Bool) throws -> Data {
        let pixels = rgba(width: width, height: height, alpha: true)
        var output: UnsafeMutablePointer<UInt8>?
        let size = pixels.withUnsafeBufferPointer { source in
            lossless
                ? WebPEncodeLosslessRGBA(source.baseAddress, Int32(width), Int32(height), Int32(width * 4), &output)
                : WebPEncodeRGBA(source.baseAddress, Int32(width), Int32(height), Int32(width * 4), 90, &output)
        }
        defer { WebPFree(output) }
        guard size > 0, let output else { throw EncodeError(description: "WebP encoding failed") }
        return Data(bytes: output, count: size)
    }

    // MARK: - GIF

    /// The four colours of the GIF samples; index 3 is the transparent one.
    public static let gifPalette: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [9, 9, 9]]

    /// The palette index of GIF sample pixel (x, y) within its frame.
    public static func gifIndex(x: Int, y: Int) -> UInt8 { UInt8((x / 2 + y) % 4) }

    /// A GIF89a with a `width × height` screen and one frame placed at
    /// (`left`, `top`) of `frameWidth × frameHeight`, colour 3 transparent.
    public static func gif(
        width: Int, height: Int, left: Int = 0, top: Int = 0, frameWidth: Int? = nil, frameHeight: Int? = nil
    ) throws -> Data {
        let frameWidth = frameWidth ?? width
        let frameHeight = frameHeight ?? height
        final class Sink { var data = Data() }
        let sink = Sink()
        var status: Int32 = 0
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), { gif, bytes, count in
            guard let gif, let bytes, let user = gif.pointee.UserData else { return 0 }
            Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().data.append(bytes, count: Int(count))
            return count
        }, &status) else { throw EncodeError(description: "EGifOpen failed (\(status))") }
        var colors = gifPalette.map { GifColorType(Red: $0[0], Green: $0[1], Blue: $0[2]) }
        let map = GifMakeMapObject(4, &colors)
        defer { GifFreeMapObject(map) }
        EGifSetGifVersion(gif, true)
        var failed = EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map) != GIF_OK
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: 3)
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        let extensionLength = EGifGCBToExtension(&control, &extensionBytes)
        failed = failed || EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(extensionLength), extensionBytes) != GIF_OK
        failed = failed || EGifPutImageDesc(
            gif, Int32(left), Int32(top), Int32(frameWidth), Int32(frameHeight), false, nil) != GIF_OK
        for y in 0..<frameHeight where !failed {
            var line = (0..<frameWidth).map { gifIndex(x: $0, y: y) }
            failed = EGifPutLine(gif, &line, Int32(frameWidth)) != GIF_OK
        }
        let closed = EGifCloseFile(gif, &status) == GIF_OK
        guard !failed, closed else { throw EncodeError(description: "giflib could not write the GIF (\(status))") }
        return sink.data
    }

    // MARK: - Damage

    /// The first `fraction` of `data`: a transfer cut short.
    public static func truncated(_ data: Data, keeping fraction: Double = 0.6) -> Data {
        Data(data.prefix(Int(Double(data.count) * fraction)))
    }

    /// `data` with a tenth taken out of its middle: the start and the end
    /// (the markers the old check looked at) are intact.
    public static func holed(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let start = bytes.count * 45 / 100
        return Data(bytes[..<start] + bytes[(start + bytes.count / 10)...])
    }

    /// The format's first `prefix` and last `suffix` bytes around noise.
    public static func garbage(like data: Data, prefix: Int = 12, suffix: Int = 12) -> Data {
        var bytes = [UInt8](data.prefix(prefix))
        var seed: UInt32 = 99
        for _ in 0..<2_000 {
            seed = seed &* 1_103_515_245 &+ 12345
            bytes.append(UInt8(truncatingIfNeeded: seed >> 24))
        }
        return Data(bytes + data.suffix(suffix))
    }

    /// zlib's CRC-32 (PNG chunks) of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, UInt32($0.count))) }
    }

    /// zlib-compressed `bytes` (a PNG's IDAT stream).
    static func deflate(_ bytes: [UInt8]) throws -> [UInt8] {
        var length = compressBound(UInt(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = bytes.withUnsafeBufferPointer { source in
            compress2(&output, &length, source.baseAddress, UInt(source.count), 6)
        }
        guard status == Z_OK else { throw EncodeError(description: "compress2 failed (\(status))") }
        return Array(output.prefix(Int(length)))
    }
}
