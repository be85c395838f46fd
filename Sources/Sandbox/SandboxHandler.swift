import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Routes requests, applies latency and faults, and keeps the counters
/// honest about what really reached the connection.
final class SandboxHandler: Sendable {
    let catalog: Catalog
    let recorder = StatsRecorder()
    private let configuration: SandboxConfiguration
    let rest: RestAPI
    let flickrOAuth: FlickrOAuthServer
    private let shutterstock: ShutterstockAPI
    private let openverse: OpenverseAPI
    private let images: ImageRenderer
    private let faults: FaultInjector
    let sender: ResponseSender
    /// `host:port` used in image URLs when a request carries no usable Host.
    private let fallbackAuthority = NIOLockedValueBox("127.0.0.1:0")

    init(configuration: SandboxConfiguration) {
        self.configuration = configuration
        catalog = Catalog(photoCount: configuration.photoCount, seed: configuration.seed)
        let searches = SearchCache(catalog: catalog)
        rest = RestAPI(searches: searches, requiredAPIKey: configuration.requiredAPIKey)
        flickrOAuth = FlickrOAuthServer(consumerKey: configuration.requiredAPIKey, consumerSecret: configuration.flickrAPISecret, user: catalog.wellKnownOwner, seed: configuration.seed)
        shutterstock = ShutterstockAPI(searches: searches, credentials: configuration.shutterstockCredentials,
                                       seed: configuration.seed)
        openverse = OpenverseAPI(searches: searches, credentials: configuration.openverseCredentials)
        images = ImageRenderer(seed: configuration.seed)
        faults = FaultInjector(configuration: configuration.faults)
        sender = ResponseSender(throttleKBps: configuration.throttleKBps)
    }

    func setAddress(hostPart: String, port: Int) {
        fallbackAuthority.withLockedValue { $0 = "\(hostPart):\(port)" }
    }

    func beginShutdown() { sender.beginShutdown() }

    // MARK: - Routing

    func respond(to request: Request, context: SandboxRequestContext) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix("/sandbox/") { return control(path: path, method: request.method) }

        let route = Route(path: path)
        let redactedQuery = QueryString.redacted(request.uri.query ?? "")
        let loggedPath = redactedQuery.isEmpty ? path : path + "?" + redactedQuery
        let sequence = recorder.begin(path: loggedPath, kind: route.kind)
        let tracker = ResponseTracker(recorder: recorder, sequence: sequence, kind: route.kind)

        if configuration.latency > .zero {
            try? await Task.sleep(for: configuration.latency)
        }

        let imageBase = "http://" + authority(of: request)
        var faultKey = loggedPath
        var parameters: [(String, String)] = []
        switch route {
        case .flickrREST:
            parameters = await Self.parameters(of: request)
            let kept = parameters.filter { !QueryString.isSecretOrVolatile($0.0) }
            faultKey = path + "?" + kept.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        case .shutterstock, .openverse:
            parameters = await Self.parameters(of: request)
        case .openverseImage, .flickrImage, .flickrVideo, .shutterstockImage:
            faultKey = path
        case .flickrOAuth, .flickrUpload, .other:
            break
        }
        let hostility = route.kind == .other ? nil : faults.hostileCase(key: faultKey, isImage: route.kind == .image).map {
            Hostility(chosen: $0, textCases: faults.configuration.hostileCases.filter { $0.kind == .text },
                      seed: faults.configuration.seed)
        }
        var content: Content
        if case .flickrOAuth(let endpoint) = route {
            content = await flickrOAuthAnswer(endpoint: endpoint, request: request)
        } else if case .flickrUpload = route {
            content = await flickrUploadAnswer(request: request)
        } else {
            content = Hostility.$current.withValue(hostility) {
                answer(route, request: request, parameters: parameters, imageBase: imageBase)
            }
        }
        if let hostility, content.status == 200,
           let refusal = hostility.chosen.refusal(for: Self.service(of: route, parameters: parameters)) {
            content = refusal
        }
        if route.kind == .image, content.status == 200, let photo = content.photo {
            recorder.setImage(photo: photo, fingerprint: SandboxFingerprint.of(content.body.readableBytesView),
                              sequence: sequence)
        }

        // API answers (never images) go out gzip-compressed to clients that accept it.
        let compresses = route.kind == .rest && Gzip.isAccepted(by: request.headers[.acceptEncoding])
        if route.kind == .rest {
            content.variesByEncoding = true
            if compresses { content = content.gzipped() }
        }

        var headersDelay: Duration = .zero
        let faulted = hostility != nil || (faults.configuration.kind != .hostile && content.status == 200
            && route.kind != .other && faults.shouldFault(key: faultKey, isImage: route.kind == .image))
        if faulted {
            switch faults.configuration.kind {
            case .slowHeaders:
                headersDelay = faults.configuration.slowHeadersDelay
            case .hostile:
                break
            case .apiError where route.kind == .rest:
                content = apiError(route: route, parameters: parameters)
                content.variesByEncoding = true
                if compresses { content = content.gzipped() }
            default:
                content = content.withFault(faults.configuration)
            }
        }
        recorder.setStatus(content.status, sequence: sequence)
        if headersDelay > .zero || content.delivery == .stall {
            await sender.noticeDeparture(of: context.channel)
        }
        // Counted once a held response watches for the client leaving: a
        // client (or test) that sees the count and then leaves is noticed.
        if faulted { recorder.faultInjected() }
        if headersDelay > .zero {
            await sender.holdHeaders(for: headersDelay, channel: context.channel)
        }
        return sender.response(for: content, tracker: tracker, channel: context.channel)
    }

    /// The route's own answer (under the hostile case in force, if any).
    private func answer(_ route: Route, request: Request, parameters: [(String, String)], imageBase: String) -> Content {
        let path = request.uri.path
        switch route {
        case .flickrREST:
            let (body, contentType) = flickrRESTAnswer(request: request, parameters: parameters, imageBase: imageBase)
            return Content(status: 200, contentType: contentType, body: ByteBuffer(bytes: body))
        case .shutterstock:
            let answer = shutterstock.respond(
                method: request.method.rawValue, path: path, parameters: parameters,
                authorization: request.headers[.authorization], imageBase: imageBase)
            return Content(status: answer.status, contentType: ShutterstockAPI.contentType, body: ByteBuffer(bytes: answer.body))
        case .openverse:
            let answer = openverse.respond(
                method: request.method.rawValue, path: path, parameters: parameters,
                authorization: request.headers[.authorization], base: imageBase)
            return Content(status: answer.status, contentType: OpenverseAPI.contentType, body: ByteBuffer(bytes: answer.body))
        case .openverseImage(let image): return openverseImage(image)
        case .flickrImage(let image): return flickrImage(image)
        case .flickrVideo(let video): return flickrVideo(video)
        case .shutterstockImage(let image): return shutterstockImage(image)
        case .flickrOAuth, .flickrUpload, .other: return .notFound
        }
    }

    /// Which service's shape a refusal on `route` takes.
    private static func service(of route: Route, parameters: [(String, String)]) -> HostileCase.Service {
        switch route {
        case .flickrREST: .flickr(format: RestAPI.format { name in parameters.first { $0.0 == name }?.1 } ?? .xml)
        case .flickrUpload: .flickr(format: .xml)
        case .shutterstock: .shutterstock
        case .openverse: .openverse
        default: .image
        }
    }

    /// Query parameters, then those of an `application/x-www-form-urlencoded` body.
    static func parameters(of request: Request) async -> [(String, String)] {
        var request = request
        var parameters = QueryString.parse(request.uri.query ?? "")
        let isForm = request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        if request.method == .post, isForm, let body = try? await request.collectBody(upTo: 1 << 20) {
            parameters += QueryString.parse(String(buffer: body))
        }
        return parameters
    }

    /// The API's own outage answer (the `api-error` fault).
    private func apiError(route: Route, parameters: [(String, String)]) -> Content {
        if case .openverse = route {
            return Content(status: 503, contentType: OpenverseAPI.contentType,
                           body: ByteBuffer(bytes: OpenverseAPI.serviceUnavailable.body))
        }
        if case .shutterstock = route {
            let answer = ShutterstockAPI.error(503, "Service Unavailable")
            return Content(status: 503, contentType: ShutterstockAPI.contentType, body: ByteBuffer(bytes: answer.body))
        }
        let (body, contentType) = RestAPI.serviceUnavailable(parameters)
        return Content(status: 200, contentType: contentType, body: ByteBuffer(bytes: body))
    }

    /// `/sandbox/stats`, `/sandbox/log`, `/sandbox/reset`: neither delayed nor counted.
    private func control(path: String, method: HTTPRequest.Method) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func json(_ value: some Encodable) -> Response {
            let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        switch (path, method) {
        case ("/sandbox/stats", .get): return json(recorder.snapshot())
        case ("/sandbox/log", .get): return json(recorder.log())
        case ("/sandbox/reset", .post):
            recorder.reset()
            return json(recorder.snapshot())
        case ("/sandbox/stats", _), ("/sandbox/log", _), ("/sandbox/reset", _):
            return Response(status: .methodNotAllowed, body: .init(byteBuffer: ByteBuffer(string: "Method not allowed\n")))
        default:
            return Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "Not found\n")))
        }
    }

    // MARK: - Images

    private func flickrImage(_ path: ImagePath) -> Content {
        if let uploaded = flickrUploadedImage(path) { return uploaded }
        guard let photo = rest.account.anyPhoto(id: path.id), photo.hasSize(path.size),
              photo.secret(for: path.size) == path.secret, photo.server == path.server
        else { return .notFound }
        let (width, height) = photo.dimensions(path.size)
        return image(of: photo, id: photo.id, width: width, height: height, variant: path.size.rawValue, format: .jpeg)
    }

    /// One image of `photo`, as the hostile case in force changes it; `id`
    /// is the photo's id in the service's own terms, for the request log.
    private func image(
        of photo: CatalogPhoto, id: String, width: Int, height: Int, variant: String, format: SandboxImageFormat
    ) -> Content {
        guard let bytes = try? images.image(for: photo, width: width, height: height, variant: variant, format: format)
        else { return .notFound }
        var content = Content(status: 200, contentType: format.mimeType, body: bytes)
        content.photo = id
        guard let hostile = Hostility.active(.image) else { return content }
        switch hostile {
        case .pngHugeHeader: content.body = ByteBuffer(bytes: HostileImages.pngHugeHeader)
        case .pngHugeValid: content.body = ByteBuffer(bytes: HostileImages.pngHugeValid)
        case .webpHugeHeader: content.body = ByteBuffer(bytes: HostileImages.webpHugeHeader)
        case .jpegHugeHeader:
            let jpeg = format == .jpeg ? bytes : (try? images.image(for: photo, width: width, height: height, variant: variant, format: .jpeg))
            content.body = ByteBuffer(bytes: jpeg.flatMap { HostileImages.jpegHugeHeader(from: Array($0.readableBytesView)) } ?? [])
        case .truncatedImage:
            content.body = bytes.getSlice(at: bytes.readerIndex, length: bytes.readableBytes / 2) ?? ByteBuffer()
        case .mislabelledImage:
            // Another format's bytes under this format's type: PNG for JPEG, JPEG for the rest.
            let other: SandboxImageFormat = format == .jpeg ? .png : .jpeg
            content.body = (try? images.image(for: photo, width: width, height: height, variant: variant, format: other)) ?? ByteBuffer()
        case .emptyImage: content.body = ByteBuffer()
        default: break
        }
        return content
    }

    /// A video's file: only for videos, with the size's own secret.
    private func flickrVideo(_ path: VideoPath) -> Content {
        guard let photo = catalog.photo(id: path.id), photo.isVideo, photo.owner == path.owner,
              photo.videoSecret(path.size) == path.secret
        else { return .notFound }
        return Content(status: 200, contentType: SandboxVideoSize.mimeType,
                       body: ByteBuffer(bytes: FakeVideo.bytes(for: photo, size: path.size)))
    }

    /// An Openverse thumbnail or full-size image, in the photo's own format.
    private func openverseImage(_ path: OpenverseImagePath) -> Content {
        guard let photo = openverse.media.photo(identifier: path.identifier) else { return .notFound }
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
        return image(of: photo, id: OpenverseCatalog.identifier(of: photo), width: size.width, height: size.height,
                     variant: variant, format: format)
    }

    private func shutterstockImage(_ path: ShutterstockImagePath) -> Content {
        guard let photo = catalog.photo(id: path.id) else { return .notFound }
        let (width, height) = path.asset.dimensions(of: photo)
        return image(of: photo, id: photo.id, width: width, height: height, variant: path.asset.variant, format: .jpeg)
    }

    /// The Host the client used, so image URLs point where it connected;
    /// the bound address when the header is missing or odd.
    private func authority(of request: Request) -> String {
        if let host = request.head.authority, !host.isEmpty, host.count < 256,
           host.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || ".:-[]".unicodeScalars.contains($0)) }) {
            return host
        }
        return fallbackAuthority.withLockedValue { $0 }
    }
}
