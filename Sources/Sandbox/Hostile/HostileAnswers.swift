import NIOCore

/// The refusals and images of the hostile cases, each in the shape of the
/// service it imitates.
extension HostileCase {
    /// Which service an answer imitates, for the body of a refusal.
    enum Service {
        case flickr(format: ResponseFormat)
        /// A JSON API: its type, and its error body for a status and a sentence.
        case json(contentType: String, error: @Sendable (_ status: Int, _ message: String) -> [UInt8])
        /// MediaWiki's api.php, whose errors are HTTP 200 with an `error`
        /// object: a refusal that names a wait is `maxlag` (the one error a
        /// client waits on), its body from `error(code, info)`.
        case mediaWiki(contentType: String, error: @Sendable (_ code: String, _ info: String) -> [UInt8])
        /// Plain text (images, sign-in pages).
        case image
    }

    /// The `Retry-After` value of a refusal case (nil: none sent).
    public var retryAfter: String? {
        switch self {
        case .retryAfterHuge: "9223372036854775807"
        case .retryAfterOverflow: "99999999999999999999999"
        case .retryAfterNegative: "-1"
        case .retryAfterFarDate: "Fri, 31 Dec 9999 23:59:59 GMT"
        case .retryAfterPastDate: "Thu, 01 Jan 1970 00:00:00 GMT"
        default: nil
        }
    }

    /// The sentence a refusal's body carries.
    var refusalMessage: String {
        switch self {
        case .throttledDetail: "Request was throttled. Expected available in 9223372036854775807 seconds."
        case .errorMessage: samples[0]
        default: "Request was throttled."
        }
    }

    /// The whole answer of a refusal case; nil for other kinds.
    func refusal(for service: Service) -> Content? {
        guard kind == .refusal else { return nil }
        let status = switch self {
        case .retryAfterOverflow, .retryAfterFarDate, .errorMessage: 503
        default: 429
        }
        var content: Content
        switch service {
        case .flickr(let format):
            if self == .errorMessage {
                // Flickr's own outage answer: HTTP 200, stat="fail".
                let body = WireFormat.render(.failure(code: 105, message: refusalMessage), as: format)
                return Content(status: 200, contentType: format.contentType, body: ByteBuffer(bytes: body))
            }
            content = Content(status: status, contentType: "text/plain; charset=utf-8",
                              body: ByteBuffer(string: refusalMessage + "\n"))
        case .json(let contentType, let error):
            content = Content(status: status, contentType: contentType, body: ByteBuffer(bytes: error(status, refusalMessage)))
        case .mediaWiki(let contentType, let error):
            // A lagged replica with a hostile wait, or an error with a hostile
            // sentence; only the throttle stays a 429.
            let (code, mediaWikiStatus) = retryAfter != nil ? ("maxlag", 200) : self == .errorMessage ? ("internal_api_error", 200) : ("ratelimited", 429)
            content = Content(status: mediaWikiStatus, contentType: contentType, body: ByteBuffer(bytes: error(code, refusalMessage)))
        case .image:
            content = Content(status: status, contentType: "text/plain; charset=utf-8",
                              body: ByteBuffer(string: refusalMessage + "\n"))
        }
        if let retryAfter { content.headers.append(("Retry-After", retryAfter)) }
        return content
    }
}

/// Image bodies that lie about themselves.
enum HostileImages {
    static let claimedEdge = 8_000

    /// A PNG of a few dozen bytes whose IHDR claims 8000×8000 RGB: its
    /// pixel data (a valid zlib stream) holds a few bytes.
    static let pngHugeHeader = png(
        edge: claimedEdge, depthAndColour: [8, 2],
        pixels: (try? PNGEncoder.zlibStream([UInt8](repeating: 0, count: 16))) ?? [])

    /// A real 8192×8192 one-bit grey PNG, all black: about 8 KB on the wire,
    /// 256 MB as RGBA.
    static let pngHugeValid: [UInt8] = {
        let edge = 8_192
        let rowBytes = 1 + edge / 8
        let rows = [UInt8](repeating: 0, count: rowBytes * edge)
        return png(edge: edge, depthAndColour: [1, 0], pixels: (try? PNGEncoder.zlibStream(rows, level: 9)) ?? [])
    }()

    /// A square PNG of `edge` pixels a side: signature, IHDR (bit depth and
    /// colour type as given, no interlace), one IDAT of `pixels`, IEND.
    private static func png(edge: Int, depthAndColour: [UInt8], pixels: [UInt8]) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(edge))
        header.appendBigEndian(UInt32(edge))
        header += depthAndColour + [0, 0, 0]
        PNGEncoder.appendChunk("IHDR", header, to: &png)
        PNGEncoder.appendChunk("IDAT", pixels, to: &png)
        PNGEncoder.appendChunk("IEND", [], to: &png)
        return png
    }

    /// A lossy WebP (RIFF, `VP8 ` chunk) whose key frame header claims 8000×8000, and nothing after it.
    static let webpHugeHeader: [UInt8] = {
        // Frame tag: key frame, version 0, shown, first partition of 10 bytes; then the start code.
        var frame: [UInt8] = [0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A]
        frame.appendLittleEndian(UInt16(claimedEdge))
        frame.appendLittleEndian(UInt16(claimedEdge))
        frame += [0, 0, 0, 0]
        var chunk = Array("VP8 ".utf8)
        chunk.appendLittleEndian32(UInt32(frame.count))
        chunk += frame
        var riff = Array("RIFF".utf8)
        riff.appendLittleEndian32(UInt32(4 + chunk.count))
        return riff + Array("WEBP".utf8) + chunk
    }()

    /// `jpeg` with its frame header (SOF0–SOF2) changed to claim 65535×65535;
    /// nil when it has none.
    static func jpegHugeHeader(from jpeg: [UInt8]) -> [UInt8]? {
        var bytes = jpeg
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC2).contains(marker) {
                for offset in 5...8 { bytes[index + offset] = 0xFF }
                return bytes
            }
            index += 2 + length
        }
        return nil
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendLittleEndian32(_ value: UInt32) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)])
    }
}
