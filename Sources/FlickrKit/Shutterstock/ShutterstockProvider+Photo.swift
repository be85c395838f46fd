import Foundation

// MARK: - Fitting Shutterstock images to Photo
//
// The only code that knows `Photo`'s shape on the Shutterstock side. `Photo`
// keys its image URLs by Flickr's sizes, so each size gets the smallest
// rendition that covers it; once `Photo` carries the renditions themselves,
// `photo(from:)` stores `image.assets` (name as label) and `image.aspect`, and
// `imageURL(in:size:)` runs `ShutterstockAsset.smallest` over them with
// `size.longestEdge`.

extension ShutterstockProvider {
    /// One Shutterstock image as a `Photo`: the contributor id stands in for
    /// the owner, the cleaned description for the title; there is no secret
    /// or server.
    static func photo(from image: ShutterstockImage) -> Photo {
        var images: [PhotoSize: PhotoImage] = [:]
        for size in PhotoSize.allCases {
            guard let asset = ShutterstockAsset.smallest(
                covering: size.longestEdge, in: image.assets, size: { ($0.width, $0.height) })
            else { continue }
            images[size] = PhotoImage(url: asset.url, width: asset.width, height: asset.height)
        }
        return Photo(
            id: image.id, owner: image.contributorID ?? "", secret: "", server: "",
            title: image.caption, images: images)
    }

    /// The rendition URL for `size` (today: the one `photo(from:)` chose for it).
    static func imageURL(in photo: Photo, size: PhotoSize) -> URL? {
        photo.images[size]?.url
    }
}
