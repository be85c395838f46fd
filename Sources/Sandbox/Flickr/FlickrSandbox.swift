import Foundation
import NIOCore

/// Flickr as the sandbox imitates it: the REST API, sign-in (OAuth 1.0a),
/// photos at every size and videos' files.
struct FlickrSandbox: SandboxService {
    static let oauthPrefix = "/services/oauth/"

    let rest: RestAPI
    let oauth: FlickrOAuthServer
    private let catalog: Catalog
    private let images: SandboxImages

    init(_ shared: SandboxShared) {
        let configuration = shared.configuration
        catalog = shared.catalog
        images = shared.images
        rest = RestAPI(searches: shared.searches, requiredAPIKey: configuration.requiredAPIKey)
        oauth = FlickrOAuthServer(
            consumerKey: configuration.requiredAPIKey, consumerSecret: configuration.flickrAPISecret,
            user: catalog.wellKnownOwner, seed: configuration.seed)
    }

    var routes: [SandboxRoute] {
        [
            .api(
                claims: { $0 == "/services/rest/" || $0 == "/services/rest" },
                // By method and arguments, GET or POST alike; never by signature values.
                faultKey: { request in
                    let kept = request.parameters.filter { !QueryString.isSecretOrVolatile($0.0) }
                    return request.path + "?" + kept.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
                },
                refusal: { .flickr(format: RestAPI.format($0.value) ?? .xml) },
                outage: Self.outage,
                answer: { request in
                    let (body, contentType) = restAnswer(request)
                    return Content(status: 200, contentType: contentType, body: ByteBuffer(bytes: body))
                }),
            // Sign-in reads its own form (it checks the signature over it), and refuses in plain text.
            .api(
                claims: { $0.hasPrefix(Self.oauthPrefix) }, readsParameters: false,
                refusal: { _ in .image }, outage: Self.outage, answer: oauthAnswer),
            // An upload reads its own multipart form (the signature covers its fields, not the photo).
            .api(
                claims: { $0 == "/services/upload/" || $0 == "/services/upload" }, readsParameters: false,
                refusal: { _ in .flickr(format: .xml) }, outage: Self.outage, answer: uploadAnswer),
            .images({ VideoPath($0) }, answer: video),
            .images({ ImagePath($0) }, answer: image),
        ]
    }

    /// Flickr's error 105, in HTTP 200 as Flickr sends it.
    @Sendable private static func outage(_ request: SandboxRequest) -> Content {
        let (body, contentType) = RestAPI.serviceUnavailable(request.parameters)
        return Content(status: 200, contentType: contentType, body: ByteBuffer(bytes: body))
    }

    private func image(_ path: ImagePath) -> Content {
        if let uploaded = uploadedImage(path) { return uploaded }
        guard let photo = rest.account.anyPhoto(id: path.id), photo.hasSize(path.size),
              photo.secret(for: path.size) == path.secret, photo.server == path.server
        else { return .notFound }
        let (width, height) = photo.dimensions(path.size)
        return images.image(of: photo, id: photo.id, width: width, height: height, variant: path.size.rawValue, format: .jpeg)
    }

    /// A video's file: only for videos, with the size's own secret.
    private func video(_ path: VideoPath) -> Content {
        guard let photo = catalog.photo(id: path.id), photo.isVideo, photo.owner == path.owner,
              photo.videoSecret(path.size) == path.secret
        else { return .notFound }
        return Content(status: 200, contentType: SandboxVideoSize.mimeType,
                       body: ByteBuffer(bytes: FakeVideo.bytes(for: photo, size: path.size)))
    }
}

extension ImitatedService {
    /// Flickr, for the provider list's line.
    public static let flickr = ImitatedService(FlickrSandbox.self, name: "flickr", apiPath: "services/rest/")
}
