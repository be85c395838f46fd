import Foundation
import Networking

/// Flickr's named image sizes, which are also the sizes a person can name
/// (`--size z`). The raw value is the `extras` key suffix (`url_q`) and the
/// label of the matching `PhotoRendition`.
public enum PhotoSize: String, Sendable, Hashable, Codable, CaseIterable, CodingKeyRepresentable {
    case square75 = "sq"
    case square150 = "q"
    case thumbnail100 = "t"
    case small240 = "s"
    case small320 = "n"
    case small400 = "w"
    case medium500 = "m"
    case medium640 = "z"
    case medium800 = "c"
    case large1024 = "l"
    case large1600 = "h"
    case large2048 = "k"

    /// The `extras` value that asks for this size's URL and dimensions.
    public var extra: String { "url_\(rawValue)" }

    /// The suffix in the static image URL (`{id}_{secret}_{suffix}.jpg`);
    /// `nil` for the 500 px size, which has none.
    public var urlSuffix: String? {
        switch self {
        case .square75: "s"
        case .small240: "m"
        case .medium500: nil
        case .large1024: "b"
        default: rawValue
        }
    }

    /// Longest edge in pixels.
    public var longestEdge: Int {
        switch self {
        case .square75: 75
        case .square150: 150
        case .thumbnail100: 100
        case .small240: 240
        case .small320: 320
        case .small400: 400
        case .medium500: 500
        case .medium640: 640
        case .medium800: 800
        case .large1024: 1024
        case .large1600: 1600
        case .large2048: 2048
        }
    }

    /// Square crops rather than the photo's own aspect ratio.
    public var isSquare: Bool { self == .square75 || self == .square150 }

    /// Built from the photo's shared `secret`. Bigger sizes have secrets of
    /// their own, so only the service can name their URLs.
    public var isBuildable: Bool { longestEdge <= 1024 }

    /// The area this size fills, as a requirement for choosing a rendition.
    public var requirement: PixelSize { PixelSize(longestEdge: longestEdge) }

    /// Parses the names a person types: `q`, `url_q`, `z`, `b`, `500`, ...
    public init?(argument: String) {
        let name = argument.hasPrefix("url_") ? String(argument.dropFirst(4)) : argument
        if let size = PhotoSize(rawValue: name) {
            self = size
        } else if let size = PhotoSize.allCases.first(where: { $0.urlSuffix == name }) {
            self = size
        } else if let edge = Int(name), let size = PhotoSize.allCases.first(where: { $0.longestEdge == edge && !$0.isSquare }) {
            self = size
        } else {
            return nil
        }
    }

    public func rendition(of image: PhotoImage) -> PhotoRendition {
        PhotoRendition(label: rawValue, url: image.url, width: image.width, height: image.height, isCrop: isSquare)
    }
}

/// A URL of one size of a photo, with its pixel dimensions when known: the
/// Flickr-sized view of a `PhotoRendition`.
public struct PhotoImage: Sendable, Hashable, Codable {
    public var url: URL
    public var width: Int?
    public var height: Int?

    public init(url: URL, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }
}

extension Photo {
    /// The renditions that are Flickr sizes, by size. Setting it replaces
    /// those renditions and keeps the others.
    public var images: [PhotoSize: PhotoImage] {
        get {
            var result: [PhotoSize: PhotoImage] = [:]
            for rendition in renditions {
                guard let size = PhotoSize(rawValue: rendition.label) else { continue }
                result[size] = PhotoImage(url: rendition.url, width: rendition.width, height: rendition.height)
            }
            return result
        }
        set {
            renditions = renditions.filter { PhotoSize(rawValue: $0.label) == nil }
                + newValue.map { $0.key.rendition(of: $0.value) }
        }
    }

    /// The size shown large (`/open`, `image_url`): 1024 px when the service
    /// offers it (or said nothing about sizes), else 640 px.
    public var detailSize: PhotoSize {
        images[.large1024] != nil || images[.medium640] == nil ? .large1024 : .medium640
    }
}
