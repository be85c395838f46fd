/// Flickr's image sizes as the sandbox serves them: the `extras` key suffix is
/// the raw value (`url_q`), `urlSuffix` is what the static image URL carries.
public enum SandboxImageSize: String, Sendable, CaseIterable {
    case sq, q, t, s, n, w, m, z, c, l, h, k, o

    /// `{id}_{secret}_{suffix}.jpg`; nil for the 500 px size, which has none.
    public var urlSuffix: String? {
        switch self {
        case .sq: "s"
        case .s: "m"
        case .m: nil
        case .l: "b"
        default: rawValue
        }
    }

    /// nil for the original, whose size is the photo's own.
    public var longestEdge: Int? {
        switch self {
        case .sq: 75
        case .q: 150
        case .t: 100
        case .s: 240
        case .n: 320
        case .w: 400
        case .m: 500
        case .z: 640
        case .c: 800
        case .l: 1024
        case .h: 1600
        case .k: 2048
        case .o: nil
        }
    }

    /// The name `flickr.photos.getSizes` gives the size.
    public var label: String {
        switch self {
        case .sq: "Square"
        case .q: "Large Square"
        case .t: "Thumbnail"
        case .s: "Small"
        case .n: "Small 320"
        case .w: "Small 400"
        case .m: "Medium"
        case .z: "Medium 640"
        case .c: "Medium 800"
        case .l: "Large"
        case .h: "Large 1600"
        case .k: "Large 2048"
        case .o: "Original"
        }
    }

    /// The two smallest sizes are square crops.
    public var isSquare: Bool { self == .sq || self == .q }

    /// Sizes from 1600 px up and the original have secrets of their own, so
    /// their URLs cannot be built from the photo's `secret`.
    public var hasOwnSecret: Bool { self == .h || self == .k || self == .o }

    /// The size an image URL's suffix names (nil suffix = 500 px).
    init?(urlSuffix: String?) {
        guard let size = Self.allCases.first(where: { $0.urlSuffix == urlSuffix }) else { return nil }
        self = size
    }
}

/// The encodings the sandbox serves images in.
public enum SandboxImageFormat: String, Sendable, CaseIterable {
    case jpeg = "jpg", png, gif, webp

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        }
    }
}

/// One synthetic photo. Everything is derived from the catalog seed and the
/// photo's index, so two catalogs with one seed are identical.
public struct CatalogPhoto: Sendable, Hashable {
    /// Position in the catalog: 0 is the newest upload.
    public let index: Int
    /// 11 digits, descending with upload date, as Flickr's ids are.
    public let id: String
    /// The owner's NSID (`12345678@N01`).
    public let owner: String
    public internal(set) var ownerName: String
    /// The owner's real name (the `realname` extra); may be empty.
    public internal(set) var ownerRealName: String
    /// 10 lowercase hex characters.
    public let secret: String
    public let server: String
    public let farm: Int
    /// May be empty, in any script, and (rarely) hostile: escape codes,
    /// bidi overrides, newlines.
    public internal(set) var title: String
    public internal(set) var description: String
    public internal(set) var tags: [String]
    /// Unix seconds.
    public let dateUpload: Int
    /// `YYYY-MM-DD HH:MM:SS`, as Flickr sends it.
    public let dateTaken: String
    public let originalWidth: Int
    public let originalHeight: Int
    /// Secrets of the original and of the 1600 and 2048 px sizes.
    public let originalSecret: String
    public let secret1600: String
    public let secret2048: String
    public let views: Int
    /// Flickr's license id (0 = all rights reserved, 4 = CC BY 2.0, …, 11–16 = the CC 4.0 licences);
    /// its owner may change it (`flickr.photos.licenses.setLicense`).
    public internal(set) var license: Int
    /// The format Openverse serves the photo in (Flickr's own URLs stay JPEG).
    public let fileFormat: SandboxImageFormat
    /// The owner's Flickr URL name (`path_alias`); empty when the owner never chose one.
    public let pathAlias: String
    /// A video (`media="video"`): its images are the poster frame, and
    /// `getSizes` adds the video files (`SandboxVideoSize`).
    public let isVideo: Bool
    /// What the hostile sandbox changes beyond the text (nothing, normally).
    var hostile = HostileOverrides()
    /// Who may see the photo: everyone, but for the test user's private
    /// photos and uploads (`AccountStore`).
    public internal(set) var visibility = PhotoVisibility.everyone

    /// `photo` or `video`, as the `media` extra and getInfo say.
    public var media: String { isVideo ? "video" : "photo" }

    /// Originals are JPEGs throughout the catalog.
    public var originalFormat: String { "jpg" }

    /// The secret in the URL of `size`.
    public func secret(for size: SandboxImageSize) -> String {
        switch size {
        case .h: secret1600
        case .k: secret2048
        case .o: originalSecret
        default: secret
        }
    }

    /// Whether Flickr would have this size: nothing larger than the original
    /// is made (the square crops always are).
    public func hasSize(_ size: SandboxImageSize) -> Bool {
        guard let edge = size.longestEdge, !size.isSquare else { return true }
        return max(originalWidth, originalHeight) >= edge
    }

    /// The sizes `flickr.photos.getSizes` lists, smallest first.
    public var availableSizes: [SandboxImageSize] { SandboxImageSize.allCases.filter(hasSize) }

    /// Pixel size of one of the photo's images; squares for `sq` and `q`,
    /// the original's own size for `o`, otherwise the original's aspect
    /// ratio scaled to the size's longest edge.
    public func dimensions(_ size: SandboxImageSize) -> (width: Int, height: Int) {
        guard let edge = size.longestEdge else { return (originalWidth, originalHeight) }
        if size.isSquare { return (edge, edge) }
        return scaled(toLongestEdge: edge)
    }

    /// The original's aspect ratio with its longer side `edge` pixels.
    func scaled(toLongestEdge edge: Int) -> (width: Int, height: Int) {
        if originalWidth >= originalHeight {
            return (edge, max(1, Int((Double(edge) * Double(originalHeight) / Double(originalWidth)).rounded())))
        }
        return (max(1, Int((Double(edge) * Double(originalWidth) / Double(originalHeight)).rounded())), edge)
    }

    /// Path of one size's image on the sandbox: `/{server}/{id}_{secret}[_{suffix}].jpg`.
    public func imagePath(_ size: SandboxImageSize) -> String {
        if let suffix = size.urlSuffix { return "/\(server)/\(id)_\(secret(for: size))_\(suffix).jpg" }
        return "/\(server)/\(id)_\(secret).jpg"
    }

    /// The photo's page on Flickr, as `getInfo` and `getSizes` link it.
    public var pageURL: String { hostile.pageURL ?? "https://www.flickr.com/photos/\(owner)/\(id)/" }
}
