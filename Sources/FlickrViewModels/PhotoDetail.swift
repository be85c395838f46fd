import FlickrKit
import Foundation

/// The photo `/open` shows: its large image and the facts printed beside it.
@MainActor
public struct PhotoDetail {
    public let model: ImageModel
    let size: PhotoSize
    public let pageURL: URL?

    /// Pixel dimensions of the shown size, when the service told them.
    public var dimensions: (width: Int, height: Int)? {
        guard let image = model.photo.images[size], let width = image.width, let height = image.height else { return nil }
        return (width, height)
    }
}
