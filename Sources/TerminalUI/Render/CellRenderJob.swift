import Binding
import FlickrViewModels
import Foundation
import ImageCodecs

/// What one cell's picture area will show, captured from its `ImageModel`
/// on the main actor so the decoding and rendering can run on any core.
struct CellRenderJob: Sendable {
    enum Source: Sendable {
        /// JPEG bytes and the key the render cache keeps them under.
        case image(Data, cacheKey: String)
        case placeholder(String)
    }

    let source: Source
    /// The area the picture is fitted into, in terminal cells.
    let columns: Int
    let rows: Int

    init(source: Source, columns: Int, rows: Int) {
        self.source = source
        self.columns = columns
        self.rows = rows
    }

    /// The job for `cell` as it is now: its image if loaded, otherwise the
    /// placeholder text for its state.
    @MainActor
    init(cell: ImageModel, columns: Int, rows: Int) {
        let source: Source
        switch cell.state.value {
        case .loaded(let image):
            source = .image(image.data, cacheKey: image.cacheKey)
        case .failed(let reason):
            source = .placeholder("failed: \(reason)")
        case .cancelled:
            source = .placeholder("cancelled")
        case .loading(let received, let expected?) where expected > 0:
            source = .placeholder("loading \(received * 100 / expected)%")
        case .idle, .queued, .loading:
            source = .placeholder("loading")
        }
        self.init(source: source, columns: columns, rows: rows)
    }

    /// Decodes and renders the picture (or reads it from the renderer's
    /// cache). A picture that cannot be decoded becomes a placeholder that
    /// says why.
    func run(with renderer: TerminalImageRenderer) -> CellContent {
        switch source {
        case .placeholder(let text):
            return .placeholder(text)
        case .image(let data, let cacheKey):
            guard renderer.graphics.showsImages, columns > 0, rows > 0 else { return .placeholder("") }
            do throws(ImageDecodeError) {
                return .image(try renderer.render(data, cacheKey: cacheKey, columns: columns, rows: rows))
            } catch {
                return .placeholder("failed: \(error.description)")
            }
        }
    }
}
