import Foundation
import NIOCore

/// Shutterstock as the sandbox imitates it: `/v2/` (search and the token
/// endpoint) and its preview assets.
struct ShutterstockSandbox: SandboxService {
    private let api: ShutterstockAPI
    private let catalog: Catalog
    private let images: SandboxImages

    init(_ shared: SandboxShared) {
        catalog = shared.catalog
        images = shared.images
        api = ShutterstockAPI(searches: shared.searches, credentials: shared.configuration.shutterstockCredentials,
                              seed: shared.configuration.seed)
    }

    var routes: [SandboxRoute] {
        [
            .api(
                claims: { $0.hasPrefix("/v2/") },
                refusal: { _ in .json(contentType: ShutterstockAPI.contentType) { ShutterstockAPI.error($0, $1).body } },
                outage: { _ in Self.content(ShutterstockAPI.error(503, "Service Unavailable")) },
                answer: { request in
                    Self.content(api.respond(
                        method: request.method, path: request.path, parameters: request.parameters,
                        authorization: request.authorization, imageBase: request.base))
                }),
            .images({ ShutterstockImagePath($0) }, answer: image),
        ]
    }

    private static func content(_ answer: ShutterstockAPI.Answer) -> Content {
        Content(status: answer.status, contentType: ShutterstockAPI.contentType, body: ByteBuffer(bytes: answer.body))
    }

    private func image(_ path: ShutterstockImagePath) -> Content {
        guard let photo = catalog.photo(id: path.id) else { return .notFound }
        let (width, height) = path.asset.dimensions(of: photo)
        return images.image(of: photo, id: photo.id, width: width, height: height, variant: path.asset.variant, format: .jpeg)
    }
}

extension ImitatedService {
    /// Shutterstock, for the provider list's line.
    public static let shutterstock = ImitatedService(ShutterstockSandbox.self, name: "shutterstock", apiPath: "")
}
