import Foundation
import Networking

/// A pixel area an image must fill: a grid cell, the detail view, or a named
/// download size, in device pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A square box with `edge` pixels a side: the requirement of a size
    /// known by its longest edge ("640 px").
    public init(longestEdge edge: Int) {
        self.init(width: edge, height: edge)
    }

    public var description: String { "\(width)×\(height)" }

    /// Pixels in all, saturating: the sides come from a server and may be
    /// as large as `Int.max`.
    public var area: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }
}

/// One image file of a photo that the service offers: a size (Flickr's
/// `url_q`, Shutterstock's `small_thumb`), its URL and its pixel size.
public struct PhotoRendition: Sendable, Hashable, Codable {
    /// The service's name for this size: Flickr's size key (`q`, `z`, `o`),
    /// Shutterstock's asset name (`small_thumb`, `preview`).
    public var label: String
    public var url: URL
    public var width: Int?
    public var height: Int?
    /// A crop (Flickr's squares) rather than the whole photo: chosen only
    /// when asked for by name, never to fill an area.
    public var isCrop: Bool

    public init(label: String, url: URL, width: Int? = nil, height: Int? = nil, isCrop: Bool = false) {
        self.label = label
        self.url = url
        self.width = width
        self.height = height
        self.isCrop = isCrop
    }

    /// Both dimensions, when the service sent them (and they make sense).
    public var pixelSize: PixelSize? {
        guard let width, let height, width > 0, height > 0 else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// Whether this image, scaled to fit inside `need` keeping its aspect
    /// ratio, is shown at or below its own resolution: it fits once it is
    /// at least as wide or at least as tall as the box.
    public func covers(_ need: PixelSize) -> Bool {
        guard let size = pixelSize else { return false }
        return size.width >= need.width || size.height >= need.height
    }

    private enum CodingKeys: String, CodingKey {
        case label, url, width, height, isCrop
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        url = try container.decode(URL.self, forKey: .url)
        width = try container.decodeIfPresent(Int.self, forKey: .width)
        height = try container.decodeIfPresent(Int.self, forKey: .height)
        isCrop = try container.decodeIfPresent(Bool.self, forKey: .isCrop) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(url, forKey: .url)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(height, forKey: .height)
        if isCrop { try container.encode(true, forKey: .isCrop) }
    }
}

extension Photo {
    /// The smallest whole-photo rendition that covers `need`; when none is
    /// big enough, the biggest there is (a smaller image beats none).
    /// Renditions of unknown size are a last resort.
    public func bestRendition(covering need: PixelSize) -> PhotoRendition? {
        Self.best(of: renditions, covering: need)
    }

    /// The smallest whole-photo rendition that covers `need`, or nil.
    public func smallestRendition(covering need: PixelSize) -> PhotoRendition? {
        renditions.filter { !$0.isCrop && $0.covers(need) }.min(by: Self.isSmaller)
    }

    /// The rendition the service calls `label` (`"q"`, `"small_thumb"`).
    public func rendition(labelled label: String) -> PhotoRendition? {
        renditions.first { $0.label == label }
    }

    public static func best(of renditions: [PhotoRendition], covering need: PixelSize) -> PhotoRendition? {
        let whole = renditions.filter { !$0.isCrop }
        if let hit = whole.filter({ $0.covers(need) }).min(by: isSmaller) { return hit }
        if let biggest = whole.filter({ $0.pixelSize != nil }).max(by: isSmaller) { return biggest }
        return whole.first
    }

    /// Orders by pixel count, then by label so equal sizes order the same way every time.
    public static func isSmaller(_ a: PhotoRendition, _ b: PhotoRendition) -> Bool {
        let areaA = a.pixelSize?.area ?? Int.max
        let areaB = b.pixelSize?.area ?? Int.max
        return areaA != areaB ? areaA < areaB : a.label < b.label
    }

    /// Width over height of the biggest whole-photo rendition with known size.
    static func aspectRatio(of renditions: [PhotoRendition]) -> Double? {
        guard let size = renditions.filter({ !$0.isCrop }).compactMap(\.pixelSize)
            .max(by: { $0.area < $1.area })
        else { return nil }
        return Double(size.width) / Double(size.height)
    }
}
