import PhotoCore
import Foundation

/// The photo `/open` shows: its large image, the facts printed beside it,
/// and the service's details (description, tags, licence, …) as they arrive.
@MainActor
public struct PhotoDetail {
    public let model: ImageModel
    let size: PhotoSize
    public let pageURL: URL?
    let details: Task<PhotoFactsResult, Never>

    /// Pixel dimensions of the shown size, when the service told them.
    public var dimensions: (width: Int, height: Int)? {
        guard let image = model.photo.images[size], let width = image.width, let height = image.height else { return nil }
        return (width, height)
    }

    /// Waits for the service's details of the photo (asked for when it was
    /// opened, beside the image).
    public func facts() async -> PhotoFactsResult {
        await details.value
    }

    /// Starts asking `provider` for the details of `photo`.
    static func details(of photo: Photo, from provider: any PhotoProvider) -> Task<PhotoFactsResult, Never> {
        let fallbackPage = provider.photoPageURL(for: photo)
        return Task {
            do {
                return .facts(PhotoFacts(try await provider.photoDetails(for: photo), fallbackPage: fallbackPage))
            } catch {
                return .unavailable(userMessage(for: error))
            }
        }
    }

    /// Stops waiting for the details (another photo was opened, or the app is leaving).
    func cancel() {
        details.cancel()
    }
}
