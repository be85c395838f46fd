import Logging
import PhotoCore
import Foundation
import Networking
import NIOConcurrencyHelpers

/// Choosing and building image URLs.
///
/// The photo's own renditions (the `url_*` extras, every size up to 2048 px)
/// come first: the smallest that fills the area wanted. Sizes Flickr left
/// out do not exist for that photo (a small original has no 1024 px size),
/// so they are not built. Only a photo that carries no sizes at all has its
/// URLs built, on Flickr's static host (or the sandbox's origin when
/// `imageHost` says so), never on the API host. Bigger sizes and the
/// original have secrets of their own: `resolveImageURL` asks
/// `flickr.photos.getSizes` for them, once per photo.
extension FlickrProvider {
    public func imageURL(for photo: Photo, covering need: PixelSize) -> URL? {
        if let carried = photo.bestRendition(covering: need) { return carried.url }
        return builtSize(for: photo, covering: need).flatMap { builtURL(for: photo, size: $0) }
    }

    public func imageURL(for photo: Photo, size: PhotoSize) -> URL? {
        guard size.isSquare else { return imageURL(for: photo, covering: size.requirement) }
        // Every photo has both square crops, so they can always be built.
        return photo.rendition(labelled: size.rawValue)?.url ?? builtURL(for: photo, size: size)
    }

    /// The smallest image that fills `need`, asking Flickr for the photo's
    /// sizes when none it carries is big enough. If that call fails, the
    /// best carried (or built) image is the answer; only cancellation throws.
    public func resolveImageURL(for photo: Photo, covering need: PixelSize) async throws(FlickrError) -> URL? {
        if let carried = photo.smallestRendition(covering: need) { return carried.url }
        do {
            let sizes = try await sizes(photoID: photo.id)
            if let best = Photo.best(of: sizes + photo.renditions, covering: need) { return best.url }
        } catch {
            if error == .network(.cancelled) || Task.isCancelled { throw .network(.cancelled) }
            logger.debug("getSizes failed; using the photo's own sizes", metadata: ["error": "\(error.description)"])
        }
        return imageURL(for: photo, covering: need)
    }

    /// `flickr.photos.getSizes`: every size Flickr has of the photo, smallest
    /// first. Answers are kept per photo id for the life of the provider.
    public func sizes(photoID: String) async throws(FlickrError) -> [PhotoRendition] {
        if let cached = sizeCache[photoID] { return cached }
        let url = try requestURL(method: "flickr.photos.getSizes", parameters: [("photo_id", photoID)])
        let sizes = try await call(url) { data throws(FlickrError) in try FlickrDetailsDecoder.decodeSizes(data) }
        sizeCache[photoID] = sizes
        return sizes
    }

    // MARK: - Building

    /// The smallest buildable size that surely fills `need` (with the
    /// photo's aspect ratio when known, else whatever its shape), or the
    /// largest buildable one. Only for photos that carry no sizes: when
    /// Flickr sent some, the ones it left out do not exist.
    func builtSize(for photo: Photo, covering need: PixelSize) -> PhotoSize? {
        guard photo.flickr != nil, !photo.renditions.contains(where: { !$0.isCrop }) else { return nil }
        let buildable = PhotoSize.allCases.filter { $0.isBuildable && !$0.isSquare }
            .sorted { $0.longestEdge < $1.longestEdge }
        let covering = buildable.first { size in
            let edge = size.longestEdge
            guard let ratio = photo.aspectRatio, ratio > 0 else { return edge >= max(need.width, need.height) }
            let width = ratio >= 1 ? edge : Int((Double(edge) * ratio).rounded())
            let height = ratio >= 1 ? Int((Double(edge) / ratio).rounded()) : edge
            return width >= need.width || height >= need.height
        }
        return covering ?? buildable.last
    }

    /// `{base}/{server}/{id}_{secret}_{suffix}.jpg`.
    func builtURL(for photo: Photo, size: PhotoSize) -> URL? {
        guard size.isBuildable, let keys = photo.flickr, Self.isPathSafe(keys.server), Self.isPathSafe(photo.id),
              Self.isPathSafe(keys.secret)
        else { return nil }
        let name = size.urlSuffix.map { "\(photo.id)_\(keys.secret)_\($0).jpg" } ?? "\(photo.id)_\(keys.secret).jpg"
        return imageBase(for: photo).appendingPathComponent(keys.server).appendingPathComponent(name)
    }

    /// The configured image host; else the host (and path prefix) of the
    /// photo's other sizes when they come from a mirror of Flickr's image
    /// host; else Flickr's static host. Flickr's own image hosts, old and
    /// new, all map to today's `live.staticflickr.com`, and the API host
    /// is never used.
    func imageBase(for photo: Photo) -> URL {
        if let imageHost { return imageHost }
        for rendition in photo.renditions {
            if let base = Self.mirrorBase(of: rendition.url, server: photo.server), base.host != endpoint.host {
                return base
            }
        }
        return Self.staticImageHost
    }

    /// `https://mirror.example/images/` from `https://mirror.example/images/65535/1_ab_q.jpg`;
    /// nil for Flickr's own hosts and for URLs of another shape.
    static func mirrorBase(of url: URL, server: String) -> URL? {
        guard let host = url.host?.lowercased(), !host.hasSuffix("staticflickr.com"),
              !host.hasSuffix("static.flickr.com"), !host.hasSuffix(".flickr.com"), host != "flickr.com",
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        let parts = components.path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 2] == server else { return nil }
        components.path = parts.dropLast(2).joined(separator: "/") + "/"
        components.query = nil
        components.fragment = nil
        return components.url
    }
}

/// getSizes answers by photo id, shared by every copy of a provider.
final class SizeCache: Sendable {
    /// Enough for a long session; past it the cache starts over rather than
    /// growing without bound.
    static let capacity = 4_096

    private let entries = NIOLockedValueBox<[String: [PhotoRendition]]>([:])

    subscript(photoID: String) -> [PhotoRendition]? {
        get { entries.withLockedValue { $0[photoID] } }
        set {
            entries.withLockedValue { entries in
                if entries.count >= Self.capacity, entries[photoID] == nil { entries.removeAll(keepingCapacity: true) }
                entries[photoID] = newValue
            }
        }
    }

    var count: Int { entries.withLockedValue(\.count) }
}
