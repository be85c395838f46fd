import CGIF
import Foundation

/// GIF decoding with giflib, a record at a time: every frame's pixels are
/// read through one row (so a file cut short fails, and a frame claiming a
/// huge size costs one row, not its size), and the first frame is drawn on
/// the logical screen, transparent where the frame does not cover it or
/// uses its transparent colour. giflib cannot decode smaller, so a screen
/// above the budget is refused before it is allocated.
///
/// Thread-safe: each call opens its own `GifFileType` over the bytes.
enum GIFDecoder {
    static func dimensions(of data: Data) throws(ImageDecodeError) -> (width: Int, height: Int) {
        try withGIF(data) { gif throws(ImageDecodeError) in
            try screenSize(gif)
        }
    }

    static func decode(_ data: Data, budget: Int = DecodeBudget.ceilingPixels) throws(ImageDecodeError) -> DecodedImage {
        try withGIF(data) { gif throws(ImageDecodeError) in
            let (width, height) = try screenSize(gif)
            guard DecodeBudget.pixelCount(width: width, height: height) <= min(budget, DecodeBudget.ceilingPixels) else {
                throw .tooLarge(width: width, height: height)
            }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            try pixels.withUnsafeMutableBufferPointer { screen throws(ImageDecodeError) in
                try readFrames(gif, drawingFirstOn: Canvas(pixels: screen, width: width, height: height))
            }
            return DecodedImage(
                width: width, height: height, rgba: pixels,
                sourceWidth: width, sourceHeight: height, format: .gif)
        }
    }

    /// Reads every frame to the end without drawing any.
    static func validate(_ data: Data) throws(ImageDecodeError) {
        try withGIF(data) { gif throws(ImageDecodeError) in
            _ = try screenSize(gif)
            try readFrames(gif, drawingFirstOn: nil)
        }
    }

    /// The screen the first frame is drawn on.
    private struct Canvas {
        var pixels: UnsafeMutableBufferPointer<UInt8>
        var width: Int
        var height: Int
    }

    /// Walks the records to the end; the first frame's rows go onto `canvas`
    /// with the transparent colour of the control block before it.
    private static func readFrames(
        _ gif: UnsafeMutablePointer<GifFileType>, drawingFirstOn canvas: Canvas?
    ) throws(ImageDecodeError) {
        var record = UNDEFINED_RECORD_TYPE
        var frames = 0
        var transparent = -1
        while record != TERMINATE_RECORD_TYPE {
            guard DGifGetRecordType(gif, &record) == GIF_OK else { throw .damaged(.gif, reason(gif.pointee.Error)) }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw .damaged(.gif, reason(gif.pointee.Error)) }
                try readFrame(gif, onto: frames == 0 ? canvas : nil, transparent: transparent)
                frames += 1
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw .damaged(.gif, reason(gif.pointee.Error)) }
                if frames == 0, code == GRAPHICS_EXT_FUNC_CODE, let block {
                    var control = GraphicsControlBlock()
                    if DGifExtensionToGCB(Int(block[0]), block + 1, &control) == GIF_OK {
                        transparent = Int(control.TransparentColor)
                    }
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw .damaged(.gif, reason(gif.pointee.Error)) }
                }
            default:
                break
            }
        }
        guard frames > 0 else { throw .damaged(.gif, "no image in the file") }
    }

    /// Adam7's cousin: an interlaced GIF frame sends rows 0, 8, 16…, then
    /// 4, 12…, then 2, 6…, then 1, 3….
    private static let interlacePasses: [(start: Int, step: Int)] = [(0, 8), (4, 8), (2, 4), (1, 2)]

    /// Reads one frame's rows (the frame may be any size the header says:
    /// only a row is held) and draws the part on the screen.
    private static func readFrame(
        _ gif: UnsafeMutablePointer<GifFileType>, onto canvas: Canvas?, transparent: Int
    ) throws(ImageDecodeError) {
        let description = gif.pointee.Image
        let frameWidth = Int(description.Width)
        let frameHeight = Int(description.Height)
        guard frameWidth > 0, frameHeight > 0 else { throw .damaged(.gif, "a frame with no size") }
        let map = description.ColorMap ?? gif.pointee.SColorMap
        if canvas != nil, map?.pointee.Colors == nil { throw .damaged(.gif, "no colour table") }
        var rowOrder: [Int] = []
        if description.Interlace, canvas != nil {
            for pass in interlacePasses { rowOrder += Array(stride(from: pass.start, to: frameHeight, by: pass.step)) }
        }
        var row = [GifPixelType](repeating: 0, count: frameWidth)
        for line in 0..<frameHeight {
            let status = row.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress, Int32(frameWidth)) }
            guard status == GIF_OK else { throw .damaged(.gif, reason(gif.pointee.Error)) }
            guard let canvas, let map, let colors = map.pointee.Colors else { continue }
            let y = Int(description.Top) + (rowOrder.isEmpty ? line : rowOrder[line])
            guard y >= 0, y < canvas.height else { continue }
            let colorCount = Int(map.pointee.ColorCount)
            let left = Int(description.Left)
            // A frame may reach past the screen; only the part on it is drawn.
            for x in 0..<frameWidth where left + x >= 0 && left + x < canvas.width {
                let index = Int(row[x])
                guard index != transparent, index < colorCount else { continue }
                let color = colors[index]
                let offset = (y * canvas.width + left + x) * 4
                canvas.pixels[offset] = color.Red
                canvas.pixels[offset + 1] = color.Green
                canvas.pixels[offset + 2] = color.Blue
                canvas.pixels[offset + 3] = 255
            }
        }
    }

    /// The logical screen, checked against the pixel limit.
    private static func screenSize(_ gif: UnsafeMutablePointer<GifFileType>) throws(ImageDecodeError) -> (Int, Int) {
        let width = Int(gif.pointee.SWidth)
        let height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0 else { throw .damaged(.gif, "no image dimensions") }
        guard DecodeBudget.pixelCount(width: width, height: height) <= JPEGDecoder.maxPixels else {
            throw .tooLarge(width: width, height: height)
        }
        return (width, height)
    }

    /// Where giflib's read callback is in the bytes.
    private struct Cursor {
        var bytes: UnsafeRawBufferPointer
        var offset = 0
    }

    /// Opens the bytes with a memory reader (which reads the screen
    /// descriptor), runs `body`, and closes.
    private static func withGIF<Result>(
        _ data: Data,
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
