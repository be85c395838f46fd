import Foundation
import Platform

/// Rendered thumbnails on disk, so a picture drawn once at a size is drawn
/// again without decoding it or running chafa: a repeated search, a
/// relaunch, a page seen before. Symbol and sixel output are kept (a kitty
/// picture refers to an image the terminal holds only for this session).
///
/// The key is everything the output depends on: the image, the cell box,
/// the mode, colours, cell pixel size, the terminal's type and the
/// renderer's effort. An entry is served only when its checksum holds, its
/// shape matches what it claims, and it holds no escape sequence but the
/// ones the renderer writes (colours; a sixel's own start and end), so a
/// damaged or planted file cannot send other commands to the terminal.
final class RenderDiskCache: Sendable {
    static let entry = DiskStoreEntry(magic: "FLKRRND", version: 1)
    static let kind = DiskStore.Kind(entry: entry, fileExtension: "render", noun: "thumbnail render cache")

    let store: DiskStore
    /// What the output depends on besides the image and the box.
    private let terminalSignature: String

    init(directory: URL, sizeLimit: Int, graphics: TerminalGraphics, workFactor: Float) {
        store = DiskStore(directory: directory, sizeLimit: sizeLimit, kind: Self.kind)
        let environment = graphics.terminalEnvironment
        terminalSignature = [
            graphics.mode.rawValue, graphics.colors.rawValue,
            "\(graphics.cellPixelSize.width)x\(graphics.cellPixelSize.height)",
            environment["TERM"] ?? "", environment["TERM_PROGRAM"] ?? "",
            graphics.insideTmux ? "tmux" : "", "\(workFactor)",
        ].joined(separator: " ") + (graphics.repeatsCharacters ? " rep" : "")
    }

    /// Whether output of `mode` is kept on disk.
    static func keeps(_ mode: ImageMode) -> Bool {
        mode == .symbols || mode == .sixels
    }

    func key(cacheKey: String, columns: Int, rows: Int) -> String {
        "\(cacheKey)\n\(columns)x\(rows) \(terminalSignature)"
    }

    /// The stored rendering, or nil (not there, damaged, or not safe to print).
    func image(cacheKey: String, columns: Int, rows: Int) -> RenderedImage? {
        store.data(for: key(cacheKey: cacheKey, columns: columns, rows: rows)).flatMap(Self.decode)
    }

    /// Queues `image` to be written; returns at once.
    func insert(_ image: RenderedImage, cacheKey: String, columns: Int, rows: Int) {
        guard let data = Self.encode(image) else { return }
        store.store(data, for: key(cacheKey: cacheKey, columns: columns, rows: rows))
    }

    func flush() async { await store.flush() }

    // MARK: - Entry data

    /// `symbols COLUMNS ROWS\n` then the rows, one per line; or
    /// `sixels COLUMNS ROWS\n` then the escape sequence.
    static func encode(_ image: RenderedImage) -> Data? {
        let body: String
        switch (image.mode, image.content) {
        case (.symbols, .symbols(let lines)):
            guard lines.count == image.rows, !lines.contains(where: { $0.contains("\n") }) else { return nil }
            body = lines.joined(separator: "\n")
        case (.sixels, .pixels(let sequence)):
            body = sequence
        default:
            return nil
        }
        return Data("\(image.mode.rawValue) \(image.columns) \(image.rows)\n\(body)".utf8)
    }

    static func decode(_ data: Data) -> RenderedImage? {
        guard let text = String(data: data, encoding: .utf8), let newline = text.firstIndex(of: "\n") else { return nil }
        let fields = text[..<newline].split(separator: " ")
        guard fields.count == 3, let mode = ImageMode(rawValue: String(fields[0])),
              let columns = Int(fields[1]), let rows = Int(fields[2]),
              (1...1_000).contains(columns), (1...1_000).contains(rows)
        else { return nil }
        let body = text[text.index(after: newline)...]
        switch mode {
        case .symbols:
            let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count == rows, lines.allSatisfy(isColouredText) else { return nil }
            return RenderedImage(columns: columns, rows: rows, mode: .symbols, content: .symbols(lines))
        case .sixels:
            guard isSixel(body) else { return nil }
            return RenderedImage(columns: columns, rows: rows, mode: .sixels, content: .pixels(String(body)))
        default:
            return nil
        }
    }

    /// Text whose only control characters start SGR colour sequences
    /// (`ESC [ digits ; : m`) or REP (`ESC [ digits b`).
    static func isColouredText(_ line: String) -> Bool {
        var bytes = line.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == 0x1B {
                guard bytes.next() == UInt8(ascii: "[") else { return false }
                var separators = false
                while true {
                    guard let next = bytes.next() else { return false }
                    if next == UInt8(ascii: "m") { break }
                    if next == UInt8(ascii: "b"), !separators { break }
                    separators = separators || next == UInt8(ascii: ";") || next == UInt8(ascii: ":")
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) || next == UInt8(ascii: ";") || next == UInt8(ascii: ":")
                    else { return false }
                }
            } else if byte < 0x20 || byte == 0x7F {
                return false
            }
        }
        return true
    }

    /// One sixel sequence: `ESC P … q`, sixel data, `ESC \`, and no other
    /// escape or control character.
    static func isSixel(_ text: Substring) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 5, bytes[0] == 0x1B, bytes[1] == UInt8(ascii: "P"),
              bytes[bytes.count - 2] == 0x1B, bytes[bytes.count - 1] == UInt8(ascii: "\\")
        else { return false }
        return bytes[2 ..< bytes.count - 2].allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
