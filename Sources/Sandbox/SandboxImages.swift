import Foundation
import NIOCore

/// The images every service serves: a catalog photo drawn at a size and in
/// a format, as the hostile case in force (if any) changes it.
struct SandboxImages: Sendable {
    private let renderer: ImageRenderer

    init(seed: UInt64) {
        renderer = ImageRenderer(seed: seed)
    }

    /// One image of `photo`; `id` is the photo's id in the service's own
    /// terms, for the request log.
    func image(
        of photo: CatalogPhoto, id: String, width: Int, height: Int, variant: String, format: SandboxImageFormat
    ) -> Content {
        guard let bytes = try? renderer.image(for: photo, width: width, height: height, variant: variant, format: format)
        else { return .notFound }
        var content = Content(status: 200, contentType: format.mimeType, body: bytes)
        content.photo = id
        guard let hostile = Hostility.active(.image) else { return content }
        switch hostile {
        case .pngHugeHeader: content.body = ByteBuffer(bytes: HostileImages.pngHugeHeader)
        case .pngHugeValid: content.body = ByteBuffer(bytes: HostileImages.pngHugeValid)
        case .webpHugeHeader: content.body = ByteBuffer(bytes: HostileImages.webpHugeHeader)
        case .jpegHugeHeader:
            let jpeg = format == .jpeg ? bytes : (try? renderer.image(for: photo, width: width, height: height, variant: variant, format: .jpeg))
            content.body = ByteBuffer(bytes: jpeg.flatMap { HostileImages.jpegHugeHeader(from: Array($0.readableBytesView)) } ?? [])
        case .truncatedImage:
            content.body = bytes.getSlice(at: bytes.readerIndex, length: bytes.readableBytes / 2) ?? ByteBuffer()
        case .mislabelledImage:
            // Another format's bytes under this format's type: PNG for JPEG, JPEG for the rest.
            let other: SandboxImageFormat = format == .jpeg ? .png : .jpeg
            content.body = (try? renderer.image(for: photo, width: width, height: height, variant: variant, format: other)) ?? ByteBuffer()
        case .emptyImage: content.body = ByteBuffer()
        default: break
        }
        return content
    }
}
