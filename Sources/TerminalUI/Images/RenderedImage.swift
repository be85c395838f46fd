/// A picture turned into terminal output, ready to be placed in a cell.
public struct RenderedImage: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// Symbol mode: one string per terminal row, each exactly `columns`
        /// cells wide and self-contained (it starts its own colours and ends
        /// with an SGR reset, or has no escapes at all in monochrome), so rows
        /// of several images can be printed side by side.
        case symbols([String])
        /// Sixel, kitty or iTerm2 mode: one escape sequence that draws the
        /// whole picture from the cursor position, covering `columns × rows` cells.
        case pixels(String)
    }

    /// Width in terminal cells.
    public let columns: Int
    /// Height in terminal cells.
    public let rows: Int
    /// The mode it was rendered for.
    public let mode: ImageMode
    public let content: Content
    /// Kitty mode: the image data the terminal must have received once
    /// before `content` can show it (see `TerminalImageRenderer.uploads`).
    public let kittyUpload: KittyUpload?

    public init(columns: Int, rows: Int, mode: ImageMode, content: Content, kittyUpload: KittyUpload? = nil) {
        self.columns = columns
        self.rows = rows
        self.mode = mode
        self.content = content
        self.kittyUpload = kittyUpload
    }

    /// Symbol rows (empty for pixel modes).
    public var lines: [String] {
        if case .symbols(let lines) = content { return lines }
        return []
    }

    /// The escape sequence of a pixel-mode image (nil for symbols).
    public var escapeSequence: String? {
        if case .pixels(let sequence) = content { return sequence }
        return nil
    }

    /// Bytes this output takes, the cost counted by the render cache.
    public var byteCount: Int {
        let upload = kittyUpload?.byteCount ?? 0
        switch content {
        case .symbols(let lines): return upload + lines.reduce(0) { $0 + $1.utf8.count + 1 }
        case .pixels(let sequence): return upload + sequence.utf8.count
        }
    }
}
