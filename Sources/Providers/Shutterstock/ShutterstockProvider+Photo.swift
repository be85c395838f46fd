import PhotoCore
import Foundation
import Networking

// MARK: - Fitting Shutterstock images to Photo

extension ShutterstockProvider {
    /// The assets a large view prefers, in order: watermarked previews about
    /// 1000 and 1500 px on the long side.
    static let detailAssets = ["preview_1000", "preview_1500"]

    /// One Shutterstock image as a `Photo`: the contributor id stands in for
    /// the owner, the cleaned description for the title, each asset becomes a
    /// rendition labelled with its name. There is no secret or server.
    static func photo(from image: ShutterstockImage) -> Photo {
        Photo(
            id: image.id, owner: image.contributorID ?? "", title: image.caption,
            renditions: image.assets.map { asset in
                PhotoRendition(label: asset.name, url: asset.url, width: asset.width, height: asset.height)
            },
            aspectRatio: image.aspect.flatMap { $0.isFinite && $0 > 0 ? $0 : nil })
    }

    /// A named size: the large sizes (what `/open` and `image_url` use) are
    /// the 1000 px preview, or the 1500 px one; the rest, the smallest asset
    /// that covers the size.
    static func imageURL(in photo: Photo, size: PhotoSize) -> URL? {
        if size.longestEdge >= PhotoSize.large1024.longestEdge,
           let preview = detailAssets.lazy.compactMap({ photo.rendition(labelled: $0) }).first {
            return preview.url
        }
        return photo.bestRendition(covering: size.requirement)?.url
    }
}
