import PhotoCore
import Foundation
import Networking

// MARK: - Fitting Openverse results to Photo

extension OpenverseProvider {
    /// The longest edge of Openverse's thumbnails.
    static let thumbnailEdge = 600

    /// Rendition labels, in Openverse's own words.
    static let thumbnailLabel = "thumbnail"
    static let imageLabel = "url"

    /// One result as a `Photo`: the creator stands in for the owner (there
    /// is no creator id), `thumbnail` is the grid's rendition (its size is
    /// not sent) and `url` with `width`×`height` the large one; the licence,
    /// creator and source page go in `credit`.
    static func photo(from image: OpenverseImage) -> Photo {
        var renditions: [PhotoRendition] = []
        if let thumbnail = image.thumbnail { renditions.append(PhotoRendition(label: thumbnailLabel, url: thumbnail)) }
        if let url = image.url {
            renditions.append(PhotoRendition(label: imageLabel, url: url, width: image.width, height: image.height))
        }
        let aspect: Double? = if let width = image.width, let height = image.height { Double(width) / Double(height) } else { nil }
        return Photo(
            id: image.id, owner: image.creator ?? "", ownerName: image.creator, title: image.title,
            renditions: renditions, aspectRatio: aspect,
            credit: PhotoCredit(
                license: image.licenseTerms, creator: image.creator,
                creatorURL: image.creatorURL, attribution: image.attribution, pageURL: image.foreignLandingURL,
                source: image.source, fileType: image.filetype),
            tags: image.tags)
    }

    /// A `PhotoPage`: `page_count` is the depth, never `result_count`
    /// divided by the page size; anonymous callers see at most 20 pages.
    static func page(from results: OpenverseSearchResults, authenticated: Bool) -> PhotoPage {
        var pages = results.pageCount
        if !authenticated { pages = min(pages, OpenverseSearchRequest.anonymousPageLimit) }
        return PhotoPage(
            page: results.page, pages: pages, perPage: results.pageSize, total: results.resultCount,
            photos: results.images.map(photo(from:)))
    }

    /// The thumbnail for anything up to its size, the full image beyond;
    /// whichever there is when one is missing.
    static func imageURL(in photo: Photo, covering need: PixelSize) -> URL? {
        let thumbnail = photo.rendition(labelled: thumbnailLabel)
        let image = photo.rendition(labelled: imageLabel)
        let small = max(need.width, need.height) <= thumbnailEdge
        return (small ? thumbnail ?? image : image ?? thumbnail)?.url
    }

    // MARK: - Details

    static func details(from image: OpenverseImage) -> PhotoDetails {
        PhotoDetails(
            id: image.id, title: image.title,
            description: describe(attribution: image.attribution, source: image.source, provider: image.provider),
            tags: image.tags, ownerUsername: image.creator, license: image.licenseTerms, attribution: image.attribution,
            pageURL: image.foreignLandingURL)
    }

    static func details(from photo: Photo, pageURL: URL?) -> PhotoDetails {
        PhotoDetails(
            id: photo.id, title: photo.title,
            description: describe(attribution: photo.credit?.attribution, source: photo.credit?.source, provider: nil),
            ownerUsername: photo.credit?.creator ?? photo.ownerName, license: photo.credit?.license, attribution: photo.credit?.attribution,
            pageURL: pageURL)
    }

    /// The credit line, and where the work is held.
    private static func describe(attribution: String?, source: String?, provider: String?) -> String {
        var lines: [String] = []
        if let attribution, !attribution.isEmpty { lines.append(attribution) }
        if let source, !source.isEmpty {
            let via = provider.flatMap { $0.isEmpty || $0 == source ? nil : " (via \($0))" } ?? ""
            lines.append("Source: \(source)\(via), found through Openverse.")
        }
        return lines.joined(separator: "\n")
    }
}
