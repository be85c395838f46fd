/// The video files `flickr.photos.getSizes` lists for a video, after the
/// poster frame's image sizes (`media="video"`). The raw value is the
/// kind in the file's URL (`/photos/OWNER/ID/play/KIND/SECRET/`).
public enum SandboxVideoSize: String, Sendable, CaseIterable {
    case site, mobile, hd, orig, p720 = "720p", p360 = "360p"

    public var label: String {
        switch self {
        case .site: "Site MP4"
        case .mobile: "Mobile MP4"
        case .hd: "HD MP4"
        case .orig: "Video Original"
        case .p720: "720p"
        case .p360: "360p"
        }
    }

    /// Longest edge in pixels; nil for the original (1920 px).
    var longestEdge: Int? {
        switch self {
        case .site, .p360: 640
        case .mobile: 480
        case .hd, .p720: 1280
        case .orig: nil
        }
    }

    /// A video's files are "Video Original" and its encodings.
    public static let mimeType = "video/mp4"
}

extension CatalogPhoto {
    /// Pixel size of one of a video's files, in the poster's aspect ratio.
    public func videoDimensions(_ size: SandboxVideoSize) -> (width: Int, height: Int) {
        scaled(toLongestEdge: size.longestEdge ?? 1_920)
    }

    /// The secret in a video file's URL: the original's own for "Video Original".
    func videoSecret(_ size: SandboxVideoSize) -> String { size == .orig ? originalSecret : secret }

    /// Path of a video file on the sandbox, shaped like Flickr's play URLs.
    public func videoPath(_ size: SandboxVideoSize) -> String {
        "/photos/\(owner)/\(id)/play/\(size.rawValue)/\(videoSecret(size))/"
    }

    /// A video's length in seconds (5–59).
    public var videoDuration: Int { 5 + views % 55 }

    /// getSizes' `url` of a video file: the video's page.
    var videoPageURL: String { "https://www.flickr.com/photos/\(owner)/\(id)/" }
}

/// `/photos/{owner}/{id}/play/{kind}/{secret}/`, taken apart.
struct VideoPath: Equatable {
    var owner: String
    var id: String
    var size: SandboxVideoSize
    var secret: String

    init?(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard path.hasPrefix("/photos/"), parts.count == 6, parts[0] == "photos", parts[3] == "play",
              let size = SandboxVideoSize(rawValue: parts[4])
        else { return nil }
        owner = parts[1]
        id = parts[2]
        self.size = size
        secret = parts[5]
    }
}

/// A small, fixed stand-in for an MP4 file: an `ftyp` box, then an `mdat`
/// box of bytes drawn from the photo and size (not a playable video; enough
/// for downloads and content sniffing).
enum FakeVideo {
    static func bytes(for photo: CatalogPhoto, size: SandboxVideoSize) -> [UInt8] {
        var out: [UInt8] = []
        func box(_ type: String, _ payload: [UInt8]) {
            let length = UInt32(8 + payload.count)
            out += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            out += Array(type.utf8)
            out += payload
        }
        box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8))
        var random = SplitMix64(seed: StableHash.hash(photo.id + "/" + size.rawValue, seed: 0x0F1D_E0))
        let count = 2 * (size.longestEdge ?? 1_920)
        var payload: [UInt8] = []
        payload.reserveCapacity(count)
        while payload.count < count {
            let value = random.next()
            for shift in stride(from: 0, to: 64, by: 8) where payload.count < count { payload.append(UInt8(value >> UInt64(shift) & 0xFF)) }
        }
        box("mdat", payload)
        return out
    }
}

/// One entry of `flickr.photos.getSizes`.
struct SizeEntry {
    var label: String
    var width: Int
    var height: Int
    var source: String
    var url: String
    var media: String
}

extension CatalogPhoto {
    /// What `flickr.photos.getSizes` lists, in order: the image sizes,
    /// then, for a video, its video files.
    func sizeEntries(imageBase: String) -> [SizeEntry] {
        availableSizes.map { size in
            let (width, height) = dimensions(size)
            return SizeEntry(label: size.label, width: width, height: height, source: imageBase + imagePath(size),
                             url: sizePageURL(size), media: "photo")
        } + (isVideo ? SandboxVideoSize.allCases : []).map { size in
            let (width, height) = videoDimensions(size)
            return SizeEntry(label: size.label, width: width, height: height, source: imageBase + videoPath(size),
                             url: videoPageURL, media: "video")
        }
    }

    /// What `flickr.photos.getSizes` lists for the photo, in order: its
    /// image sizes, then, for a video, its video files.
    public var sizeList: [(label: String, width: Int, height: Int, media: String)] {
        sizeEntries(imageBase: "").map { ($0.label, $0.width, $0.height, $0.media) }
    }
}
