import PhotoCore
import FlickrViewModels
import Foundation
import ImagePipeline
@testable import TerminalUI
import TestSupport
import Testing
import FlickrService

/// A preheat stops without leaving anything behind: the app shuts the image
/// pipeline down right after, and a render still holding its page would
/// keep the pipeline (and every picture in it) alive past the end.
@MainActor
@Suite struct RenderPreheaterTests {
    private let graphics = TerminalGraphics(mode: .symbols, colors: .truecolor)

    private func loadedCells(_ count: Int) async throws -> [ImageModel] {
        let pipeline = ImageDownloadManager(fetcher: ScriptedImageFetcher())
        let cells = (1...count).map { number in
            ImageModel(
                number: number, photo: Photo(id: "\(number)", owner: "o@N00", secret: "s", server: "1", title: "t\(number)"),
                url: URL(string: "http://images.test/\(number).jpg"), pipeline: pipeline)
        }
        for cell in cells { cell.load(priority: .high) }
        try await eventually("every cell loaded") { cells.allSatisfy { $0.state.value.isSettled } }
        return cells
    }

    private var geometry: PageGeometry {
        PageGeometry(
            layout: .grid, columns: 3, graphics: graphics, size: TerminalSize(columns: 120, rows: 50), numberWidth: 1)
    }

    /// `stop` waits for the preheat under way, and for one already
    /// cancelled (dropping the prefetched page, as quitting does, cancels it
    /// before its task has even run).
    @Test(arguments: [false, true])
    func stopReturnsOnceNoPreheatHoldsItsPage(cancelledFirst: Bool) async throws {
        let preheater = RenderPreheater()
        let renderer = TerminalImageRenderer(graphics: graphics)
        weak var firstCell: ImageModel?
        do {
            let cells = try await loadedCells(6)
            firstCell = cells.first
            preheater.start(cells, geometry: geometry, renderer: renderer)
        }
        if cancelledFirst { preheater.cancel() }
        await preheater.stop()
        #expect(firstCell == nil, "a preheat still holds its page after stop")
    }
}
