import ImageCodecs

/// Kitty mode: images are sent once, as PNG, and shown by id.
///
/// A rendering carries two parts: its `kittyUpload` (the image data, written
/// by `uploads(for:)` just before the first output that shows it) and its
/// content, which only refers to the id: a placement command, or inside
/// tmux rows of Unicode placeholders. Showing the same picture again (a
/// redraw, the same photo in a later search) writes the content only.
extension TerminalImageRenderer {
    func drawKitty(_ image: DecodedImage, columns: Int, rows: Int) -> RenderedImage {
        // Placeholders number at most `maximumIndex + 1` rows and columns.
        let columns = graphics.usesKittyPlaceholders ? min(columns, KittyPlaceholder.maximumIndex + 1) : columns
        let rows = graphics.usesKittyPlaceholders ? min(rows, KittyPlaceholder.maximumIndex + 1) : rows
        let cell = graphics.cellPixelSize
        guard let payload = KittyEncoder.encode(
            rgba: image.rgba, width: image.width, height: image.height,
            shown: (columns * cell.width, rows * cell.height),
            budget: KittyEncoder.budget(cells: columns * rows))
        else { return blank(columns: columns, rows: rows) }
        let id = kittyImages.makeID()
        if graphics.usesKittyPlaceholders {
            let commands = KittyCommand.transmit(
                id: id, format: .png, width: payload.width, height: payload.height,
                payload: payload.bytes, compressed: false,
                display: .virtualPlacement(columns: columns, rows: rows))
            return RenderedImage(
                columns: columns, rows: rows, mode: .kitty,
                content: .symbols(KittyPlaceholder.rows(id: id, columns: columns, rows: rows)),
                kittyUpload: KittyUpload(imageID: id, commands: commands.map(KittyCommand.tmuxPassthrough).joined()))
        }
        let commands = KittyCommand.transmit(
            id: id, format: .png, width: payload.width, height: payload.height,
            payload: payload.bytes, compressed: false)
        return RenderedImage(
            columns: columns, rows: rows, mode: .kitty,
            content: .pixels(KittyCommand.place(id: id, columns: columns, rows: rows)),
            kittyUpload: KittyUpload(imageID: id, commands: commands.joined()))
    }

    /// What must be written before output that shows `contents`: in kitty
    /// mode, the data of images the terminal does not hold yet (and the
    /// deletion of the least recently shown beyond the registry's limit);
    /// otherwise nothing. Call it right before writing that output.
    public func uploads(for contents: [CellContent]) -> String {
        let uploads = contents.compactMap { content -> KittyUpload? in
            if case .image(let image) = content { return image.kittyUpload }
            return nil
        }
        return kittyImages.commands(showing: uploads)
    }

    /// `text` ready to write: preceded by the uploads its images need and,
    /// when the terminal supports it, wrapped as one synchronized update so
    /// the row appears whole. The uploads stay outside the update: kitty
    /// 0.26 drops graphics commands that arrive inside one in pieces, and
    /// only the placements need to appear together. The one call the
    /// drawing code makes per write.
    public func frame(_ text: String, showing contents: [CellContent]) -> String {
        uploads(for: contents) + graphics.synchronizedOutput.wrap(text)
    }

    /// Deletes every image sent to the terminal (on exit or when the screen
    /// is cleared); empty when none was. Images shown later are sent again.
    public func releaseImages() -> String {
        kittyImages.releaseAll()
    }
}
