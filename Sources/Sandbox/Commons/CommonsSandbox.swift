import Foundation
import Hummingbird
import NIOCore

/// Wikimedia Commons as the sandbox imitates it: MediaWiki's `/w/api.php`
/// and the upload paths of its files and thumbnails.
struct CommonsSandbox: SandboxService {
    private let api: CommonsAPI
    private let images: SandboxImages

    init(_ shared: SandboxShared) {
        images = shared.images
        api = CommonsAPI(searches: shared.searches)
    }

    var routes: [SandboxRoute] {
        [
            .api(
                claims: { $0 == CommonsAPI.path },
                refusal: { request in
                    let formatVersion = CommonsRequest(request.parameters).formatVersion ?? 1
                    return .mediaWiki(contentType: CommonsAPI.contentType) { code, info in
                        code == "maxlag" ? CommonsAPI.lagged(formatVersion: formatVersion).body
                            : CommonsAPI.error(code, info, formatVersion: formatVersion).body
                    }
                },
                // Commons' outage is a lagged replica: maxlag, as HTTP 200.
                outage: { request in Self.content(CommonsAPI.lagged(formatVersion: CommonsRequest(request.parameters).formatVersion ?? 1)) },
                answer: { request in
                    Self.content(api.respond(
                        method: request.method, parameters: request.parameters,
                        userAgent: request.request.headers[.userAgent], base: request.base))
                }),
            .images({ CommonsImagePath($0) }, answer: image),
        ]
    }

    private static func content(_ answer: CommonsAPI.Answer) -> Content {
        var content = Content(status: answer.status, contentType: answer.contentType, body: ByteBuffer(bytes: answer.body))
        content.headers = answer.headers
        return content
    }

    /// A file (photos only: a video's file is not served) or a thumbnail
    /// at the width its name asks, never wider than the original.
    private func image(_ path: CommonsImagePath) -> Content {
        guard let photo = api.files.photo(pageID: path.photoID) else { return .notFound }
        switch path.kind {
        case .original:
            guard !photo.isVideo else { return .notFound }
            return images.image(
                of: photo, id: photo.id, width: photo.originalWidth, height: photo.originalHeight, variant: "commons-original",
                format: .jpeg)
        case .thumbnail(let width):
            let size = CommonsCatalog.thumbnailSize(of: photo, width: width)
            return images.image(
                of: photo, id: photo.id, width: size.width, height: size.height, variant: "commons-\(size.width)", format: .jpeg)
        }
    }
}

extension ImitatedService {
    /// Commons, for the provider list's line.
    public static let commons = ImitatedService(CommonsSandbox.self, name: "commons", apiPath: "w/api.php")
}
