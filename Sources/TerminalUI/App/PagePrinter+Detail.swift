import FlickrViewModels
import Foundation

/// An opened photo: its picture, sized for the lines under it, and those lines.
extension PagePrinter {
    func showDetail(_ detail: PhotoDetail, generation: Int) async {
        let cell = detail.model
        let graphics = options.graphics
        if graphics.showsImages { terminal.print(cell.number > 0 ? "opening #\(cell.number)…" : "opening…") }
        // The picture is sized for every line printed under it, so the
        // service's details are waited for too (they were asked for beside
        // the image) and each field is printed once.
        let facts = await detail.facts()
        let size = terminal.size
        let metadata = Self.detailLines(detail, facts: facts, columns: size.columns)
        let links = Self.detailLinks(metadata, cell: cell, pageURL: detail.pageURL)
        // The shown size's own dimensions, else the photo's aspect ratio.
        let shape = detail.dimensions
            ?? cell.aspectRatio.flatMap { ratio -> (width: Int, height: Int)? in
                guard ratio.isFinite, ratio > 0 else { return nil }
                return (Int((min(max(ratio, 0.01), 100) * 1_000).rounded()), 1_000)
            }
        let layout = DetailLayout(
            terminalColumns: size.columns, terminalRows: size.rows,
            imageWidth: shape?.width, imageHeight: shape?.height,
            metadataRows: metadata.count, cellAspectRatio: graphics.cellAspectRatio)
        let content: CellContent
        if graphics.showsImages {
            // Once the person asks for something else (the next page, another
            // photo), the picture waits no longer: it prints as a placeholder
            // that says how far it got, and still reaches the cache for the
            // next `/open`.
            if !isHurried(generation) { await waitForPicture(cell) }
            let job = CellRenderJob(cell: cell, columns: layout.imageColumns, rows: layout.imageRows)
            let renderer = self.renderer
            content = await Task.detached(priority: .userInitiated) { job.run(with: renderer) }.value
        } else {
            content = .placeholder("")
        }
        terminal.print(renderer.frame(
            GridComposer.composeDetail(content, metadata: metadata, layout: layout, graphics: graphics, links: links),
            showing: [content]))
    }

    /// Waits for `cell` to settle, or until a job the person asked for is queued.
    private func waitForPicture(_ cell: ImageModel) async {
        let wait = Task { await cell.settled() }
        pictureWait = wait
        defer { pictureWait = nil }
        await withTaskCancellationHandler {
            await wait.value
        } onCancel: {
            wait.cancel()
        }
    }
}
