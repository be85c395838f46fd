import CGIF
import Foundation

/// GIF decoding with giflib: the whole file is read (so a file cut short
/// fails), and its first frame is drawn on the logical screen, transparent
/// where the frame does not cover it or uses its transparent colour.
///
/// Thread-safe: each call opens its own `GifFileType` over the bytes.
enum GIFDecoder {
    static func dimensions(of data: Data) throws(ImageDecodeError) -> (width: Int, height: Int) {
        try withGIF(data, readAll: false) { gif throws(ImageDecodeError) in
            try screenSize(gif)
        }
    }

    static func decode(_ data: Data) throws(ImageDecodeError) -> DecodedImage {
        try withGIF(data, readAll: true) { gif throws(ImageDecodeError) in
            let (width, height) = try screenSize(gif)
            guard gif.pointee.ImageCount > 0, let frame = gif.pointee.SavedImages?.pointee else {
                throw .damaged(.gif, "no image in the file")
            }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            var control = GraphicsControlBlock()
            let transparent = DGifSavedExtensionToGCB(gif, 0, &control) == GIF_OK ? Int(control.TransparentColor) : -1
            guard let map = frame.ImageDesc.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors,
                  let raster = frame.RasterBits
            else { throw .damaged(.gif, "no colour table") }
            let colorCount = Int(map.pointee.ColorCount)
            let description = frame.ImageDesc
            let frameWidth = Int(description.Width)
            let left = Int(description.Left)
            let top = Int(description.Top)
            // A frame may reach past the screen; only the part on it is drawn.
            for y in 0..<Int(description.Height) where top + y >= 0 && top + y < height {
                for x in 0..<frameWidth where left + x >= 0 && left + x < width {
                    let index = Int(raster[y * frameWidth + x])
                    guard index != transparent, index < colorCount else { continue }
                    let color = colors[index]
                    let offset = ((top + y) * width + left + x) * 4
                    pixels[offset] = color.Red
                    pixels[offset + 1] = color.Green
                    pixels[offset + 2] = color.Blue
                    pixels[offset + 3] = 255
                }
            }
            return DecodedImage(
                width: width, height: height, rgba: pixels,
                sourceWidth: width, sourceHeight: height, format: .gif)
        }
    }

    /// The logical screen, checked against the pixel limit.
    private static func screenSize(_ gif: UnsafeMutablePointer<GifFileType>) throws(ImageDecodeError) -> (Int, Int) {
        let width = Int(gif.pointee.SWidth)
        let height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0 else { throw .damaged(.gif, "no image dimensions") }
        guard width * height <= JPEGDecoder.maxPixels else { throw .tooLarge(width: width, height: height) }
        return (width, height)
    }

    /// Where giflib's read callback is in the bytes.
    private struct Cursor {
        var bytes: UnsafeRawBufferPointer
        var offset = 0
    }

    /// Opens the bytes with a memory reader, reads every record when
    /// `readAll` (all frames: a file cut anywhere fails), and closes.
    private static func withGIF<Result>(
        _ data: Data, readAll: Bool,
        _ body: (UnsafeMutablePointer<GifFileType>) throws(ImageDecodeError) -> Result
    ) throws(ImageDecodeError) -> Result {
        let outcome: Swift.Result<Result, ImageDecodeError> = data.withUnsafeBytes { raw in
            var cursor = Cursor(bytes: raw)
            return withUnsafeMutablePointer(to: &cursor) { cursorPointer in
                var status: Int32 = 0
                guard let gif = DGifOpen(cursorPointer, { gif, buffer, wanted in
                    guard let gif, let buffer, wanted > 0,
                          let cursor = gif.pointee.UserData?.assumingMemoryBound(to: Cursor.self)
                    else { return 0 }
                    let count = min(Int(wanted), cursor.pointee.bytes.count - cursor.pointee.offset)
                    guard count > 0, let source = cursor.pointee.bytes.baseAddress else { return 0 }
                    buffer.update(from: source.advanced(by: cursor.pointee.offset).assumingMemoryBound(to: UInt8.self), count: count)
                    cursor.pointee.offset += count
                    return Int32(count)
                }, &status) else {
                    return .failure(.damaged(.gif, reason(status)))
                }
                defer { DGifCloseFile(gif, &status) }
                do throws(ImageDecodeError) {
                    if readAll, DGifSlurp(gif) != GIF_OK { throw .damaged(.gif, reason(gif.pointee.Error)) }
                    return .success(try body(gif))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try outcome.get()
    }

    private static func reason(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
