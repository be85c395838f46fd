import FlickrKit
import ImagePipeline

/// The one place that makes `ImageModel`s (numbering, which image URL a
/// cell shows) and stops them again.
@MainActor
struct ImageModelFactory {
    let provider: any PhotoProvider
    let pipeline: ImageDownloadManager
    let thumbnailSize: PhotoSize

    /// Grid cells for `photos`, numbered from `first` (1-based over the session).
    func cells(for photos: [Photo], startingAt first: Int) -> [ImageModel] {
        photos.enumerated().map { offset, photo in
            ImageModel(
                number: first + offset, photo: photo,
                url: provider.imageURL(for: photo, size: thumbnailSize), pipeline: pipeline)
        }
    }

    /// The large image `/open` shows for the photo of `cell`.
    func detail(of cell: ImageModel) -> (model: ImageModel, size: PhotoSize) {
        let size = cell.photo.detailSize
        let model = ImageModel(
            number: cell.number, photo: cell.photo,
            url: provider.imageURL(for: cell.photo, size: size), pipeline: pipeline)
        return (model, size)
    }

    /// Stops every download of `cells`. Every transfer is cancelled in one
    /// step first: cancelling cell by cell would free download slots that
    /// the pipeline refills from its queue, starting requests that are then
    /// cancelled at once. Returns how many cells had a download pending.
    @discardableResult
    func reset(_ cells: [ImageModel]) -> Int {
        pipeline.cancelAll()
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
        return result
    }
}

extension Photo {
    /// Width over height from the largest image whose size the service told.
    var knownAspectRatio: Double? {
        let sized = images.values.compactMap { image -> (Int, Int)? in
            guard let width = image.width, let height = image.height, width > 0, height > 0 else { return nil }
            return (width, height)
        }
        guard let (width, height) = sized.max(by: { $0.0 < $1.0 }) else { return nil }
        return Double(width) / Double(height)
    }
}
