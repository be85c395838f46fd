import PhotoCore
import Foundation
import ImagePipeline

/// The pixels an image should have to look sharp where the view shows it,
/// or that the view draws no picture at all (`--images none`, a list
/// without pictures): the view works it out from its cells and tells the
/// view model.
public struct ImagePixelNeed: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// False when no picture is drawn: then no thumbnail is fetched.
    public var isDrawn: Bool

    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.isDrawn = true
    }

    /// The view draws no thumbnails: what is not shown is not fetched.
    public static let notDrawn: ImagePixelNeed = {
        var need = ImagePixelNeed(width: 1, height: 1)
        need.isDrawn = false
        return need
    }()

    /// Until the view says: a 320 px image, enough for a grid cell on an
    /// 80-column terminal.
    public static let defaultThumbnail = ImagePixelNeed(width: 320, height: 320)

    public var description: String { isDrawn ? "\(width)×\(height)" : "not drawn" }

    var pixelSize: PixelSize { PixelSize(width: width, height: height) }
}

/// The one place that makes `ImageModel`s (numbering, which image URL a
/// cell shows) and stops them again.
@MainActor
final class ImageModelFactory {
    let provider: any PhotoProvider
    let pipeline: ImageDownloadManager
    /// What a thumbnail must fill; cells made from now on get the smallest
    /// image the photo offers that covers it.
    var thumbnailNeed: ImagePixelNeed

    init(provider: any PhotoProvider, pipeline: ImageDownloadManager, thumbnailNeed: ImagePixelNeed = .defaultThumbnail) {
        self.provider = provider
        self.pipeline = pipeline
        self.thumbnailNeed = thumbnailNeed
    }

    /// Grid cells for `photos`, numbered from `first` (1-based over the session).
    func cells(for photos: [Photo], startingAt first: Int) -> [ImageModel] {
        photos.enumerated().map { offset, photo in cell(first + offset, photo) }
    }

    /// One cell numbered `number`; its title leads to `page` when given,
    /// else to the photo's page. Its thumbnail is fetched only when the
    /// view draws thumbnails.
    func cell(_ number: Int, _ photo: Photo, page: URL? = nil) -> ImageModel {
        ImageModel(
            number: number, photo: photo,
            url: provider.imageURL(for: photo, covering: thumbnailNeed.pixelSize), pipeline: pipeline,
            links: CellLinks(page: page ?? provider.photoPageURL(for: photo), owner: provider.capabilities.collections.available?.ownerPageURL(for: photo)),
            fetchesImage: thumbnailNeed.isDrawn)
    }

    /// The large image `/open` shows for the photo of `cell`.
    func detail(of cell: ImageModel) -> (model: ImageModel, size: PhotoSize) {
        let size = cell.photo.detailSize
        let model = ImageModel(
            number: cell.number, photo: cell.photo,
            url: provider.imageURL(for: cell.photo, size: size), pipeline: pipeline, links: cell.links)
        return (model, size)
    }

    /// Stops every download of `cells`. Every transfer is cancelled in one
    /// step first: cancelling cell by cell would free download slots that
    /// the pipeline refills from its queue, starting requests that are then
    /// cancelled at once. The transfer of `kept` (an opened photo that
    /// stays open) goes on. Returns how many cells had a download pending.
    @discardableResult
    func reset(_ cells: [ImageModel], keeping kept: ImageModel? = nil) -> Int {
        pipeline.cancelAll(sparing: Set(kept?.url.map { [$0] } ?? []))
        return cells.reduce(0) { count, cell in cell.cancel() ? count + 1 : count }
    }

    func statistics() -> DownloadStatistics {
        let stats = pipeline.statistics()
        var result = DownloadStatistics()
        result.queued = stats.queued
        result.running = stats.running
        result.done = stats.done
        result.failed = stats.failed
        result.cancelled = stats.cancelled
        result.coalesced = stats.coalesced
        result.retries = stats.retries
        result.memoryHits = stats.memoryHits
        result.diskHits = stats.diskHits
        result.bytesDownloaded = stats.bytesDownloaded
        result.memoryCacheCount = stats.memoryCacheCount
        result.memoryCacheBytes = stats.memoryCacheBytes
        return result
    }
}
