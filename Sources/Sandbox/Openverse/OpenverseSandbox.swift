import Foundation
import NIOCore

/// Openverse as the sandbox imitates it: `/v1/` (search, one image's
/// record, the token endpoint), thumbnails and full-size files.
struct OpenverseSandbox: SandboxService {
    private let api: OpenverseAPI
    private let images: SandboxImages

    init(_ shared: SandboxShared) {
        images = shared.images
        api = OpenverseAPI(searches: shared.searches, credentials: shared.configuration.openverseCredentials)
    }

    var routes: [SandboxRoute] {
        [
            // Thumbnails live under `/v1/images/` too: they are the image route's.
            .api(
                claims: { $0.hasPrefix("/v1/") && OpenverseImagePath($0) == nil },
                refusal: { _ in .json(contentType: OpenverseAPI.contentType) { OpenverseAPI.detail($0, $1).body } },
                outage: { _ in Self.content(OpenverseAPI.serviceUnavailable) },
                answer: { request in
                    Self.content(api.respond(
                        method: request.method, path: request.path, parameters: request.parameters,
                        authorization: request.authorization, base: request.base))
                }),
            .images({ OpenverseImagePath($0) }, answer: image),
        ]
    }

    private static func content(_ answer: OpenverseAPI.Answer) -> Content {
        Content(status: answer.status, contentType: OpenverseAPI.contentType, body: ByteBuffer(bytes: answer.body))
    }

    /// A thumbnail or full-size image, in the photo's own format.
    private func image(_ path: OpenverseImagePath) -> Content {
        guard let photo = api.media.photo(identifier: path.identifier) else { return .notFound }
        let format = photo.fileFormat
        let size: (width: Int, height: Int)
        switch path.kind {
        case .thumbnail:
            size = OpenverseCatalog.thumbnailSize(of: photo)
        case .fullSize(let fileExtension):
            guard fileExtension == format.rawValue else { return .notFound }
            size = OpenverseCatalog.fullSize(of: photo)
        }
        let variant = path.kind == .thumbnail ? "openverse-thumb" : "openverse-full"
        return images.image(of: photo, id: OpenverseCatalog.identifier(of: photo), width: size.width, height: size.height,
                            variant: variant, format: format)
    }
}

extension ImitatedService {
    /// Openverse, for the provider list's line.
    public static let openverse = ImitatedService(OpenverseSandbox.self, name: "openverse", apiPath: "")
}
