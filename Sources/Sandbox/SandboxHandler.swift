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
    /// One per imitated service, in the order the server was told them.
    let services: [any SandboxService]
    /// Every service's routes, API routes first: an API owns its path
    /// prefix, while an image route matches a path's shape, which could
    /// otherwise claim an API's path (`/v2/a_b.jpg` looks like a Flickr photo).
    private let routes: [SandboxRoute]
    private let faults: FaultInjector
    let sender: ResponseSender
    /// `host:port` used in image URLs when a request carries no usable Host.
    private let fallbackAuthority = NIOLockedValueBox("127.0.0.1:0")

    init(configuration: SandboxConfiguration, services imitated: [ImitatedService]) {
        self.configuration = configuration
        catalog = Catalog(photoCount: configuration.photoCount, seed: configuration.seed)
        let shared = SandboxShared(
            configuration: configuration, catalog: catalog, searches: SearchCache(catalog: catalog),
            images: SandboxImages(seed: configuration.seed))
        services = imitated.map { $0.make(shared) }
        let all = services.flatMap(\.routes)
        routes = all.filter { $0.kind == .rest } + all.filter { $0.kind != .rest }
        faults = FaultInjector(configuration: configuration.faults)
        sender = ResponseSender(throttleKBps: configuration.throttleKBps, linkKBps: configuration.linkKBps)
    }

    func setAddress(hostPart: String, port: Int) {
        fallbackAuthority.withLockedValue { $0 = "\(hostPart):\(port)" }
    }

    func beginShutdown() { sender.beginShutdown() }

    // MARK: - Routing

    func respond(to request: Request, context: SandboxRequestContext) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix("/sandbox/") { return control(path: path, method: request.method) }

        let route = routes.first { $0.claims(path) }
        let kind = route?.kind ?? .other
        let redactedQuery = QueryString.redacted(request.uri.query ?? "")
        let loggedPath = redactedQuery.isEmpty ? path : path + "?" + redactedQuery
        let sequence = recorder.begin(path: loggedPath, kind: kind)
        let tracker = ResponseTracker(recorder: recorder, sequence: sequence, kind: kind)

        if configuration.latency > .zero {
            try? await Task.sleep(for: configuration.latency)
        }

        let parameters = route?.readsParameters == true ? await SandboxRequest.parameters(of: request) : []
        let asked = SandboxRequest(
            request: request, loggedPath: loggedPath, parameters: parameters, base: "http://" + authority(of: request))
        let faultKey = route?.faultKey(asked) ?? loggedPath
        let hostility = kind == .other ? nil : faults.hostileCase(key: faultKey, isImage: kind == .image).map {
            Hostility(chosen: $0, textCases: faults.configuration.hostileCases.filter { $0.kind == .text },
                      seed: faults.configuration.seed)
        }
        var content = await Hostility.$current.withValue(hostility) { await route?.answer(asked) ?? .notFound }
        if let hostility, let route, content.status == 200, let refusal = hostility.chosen.refusal(for: route.refusal(asked)) {
            content = refusal
        }
        if kind == .image, content.status == 200, let photo = content.photo {
            recorder.setImage(photo: photo, fingerprint: SandboxFingerprint.of(content.body.readableBytesView),
                              sequence: sequence)
        }

        // API answers (never images) go out gzip-compressed to clients that accept it.
        let compresses = kind == .rest && Gzip.isAccepted(by: request.headers[.acceptEncoding])
        if kind == .rest {
            content.variesByEncoding = true
            if compresses { content = content.gzipped() }
        }

        var headersDelay: Duration = .zero
        let faulted = hostility != nil || (faults.configuration.kind != .hostile && content.status == 200
            && kind != .other && faults.shouldFault(key: faultKey, isImage: kind == .image))
        if faulted {
            switch (faults.configuration.kind, route?.outage) {
            case (.slowHeaders, _):
                headersDelay = faults.configuration.slowHeadersDelay
            case (.hostile, _):
                break
            case (.apiError, let outage?):
                content = outage(asked)
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
