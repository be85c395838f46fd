import Foundation

/// A whole grid page from image bytes to printable text, rendered the way
/// the interactive view renders a page (every core, rows in order), for
/// tools that have pictures but no view model: the benchmark, screenshots.
public enum GridPageRenderer {
    /// One picture of the page.
    public struct Picture: Sendable {
        public var data: Data
        /// Stable for the same bytes: the render cache key.
        public var cacheKey: String
        /// Width over height, when known before decoding.
        public var aspectRatio: Double?
        public var title: String

        public init(data: Data, cacheKey: String, aspectRatio: Double?, title: String) {
            self.data = data
            self.cacheKey = cacheKey
            self.aspectRatio = aspectRatio
            self.title = title
        }
    }

    /// The page's text: rows of pictures with their labels, numbered from 1.
    /// Pictures that cannot be decoded show a frame saying why.
    public static func render(
        _ pictures: [Picture], layout: GridLayout, renderer: TerminalImageRenderer,
        width: Int? = nil
    ) async -> String {
        let jobs = pictures.map { picture in
            let area = layout.imageSize(aspectRatio: picture.aspectRatio)
            return CellRenderJob(
                source: .image(picture.data, cacheKey: picture.cacheKey),
                columns: area.columns, rows: area.rows)
        }
        let contents = await OrderedParallel.map(count: jobs.count, width: width ?? OrderedParallel.defaultWidth) { jobs[$0].run(with: renderer) }
        var rows: [String] = []
        var start = 0
        while start < contents.count {
            let end = min(start + layout.columns, contents.count)
            let cells = (start..<end).map { index in
                GridCell(
                    number: index + 1, title: pictures[index].title, content: contents[index],
                    aspectRatio: pictures[index].aspectRatio)
            }
            rows.append(GridComposer.compose(row: cells, layout: layout, graphics: renderer.graphics))
            start = end
        }
        return rows.joined(separator: "\n")
    }
}
