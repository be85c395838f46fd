import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Routes requests, applies latency, faults and throttling, and keeps the
/// counters honest about what really reached the connection.
final class SandboxHandler: Sendable {
    let catalog: Catalog
    let recorder = StatsRecorder()
    private let configuration: SandboxConfiguration
    private let rest: RestAPI
    private let images: ImageRenderer
    private let faults: FaultInjector
    /// `host:port` used in image URLs when a request carries no usable Host.
    private let fallbackAuthority = NIOLockedValueBox("127.0.0.1:0")
    private let shuttingDown = NIOLockedValueBox(false)

    init(configuration: SandboxConfiguration) {
        self.configuration = configuration
        catalog = Catalog(photoCount: configuration.photoCount, seed: configuration.seed)
        rest = RestAPI(catalog: catalog, requiredAPIKey: configuration.requiredAPIKey)
        images = ImageRenderer(seed: configuration.seed)
        faults = FaultInjector(configuration: configuration.faults)
    }

    func setAddress(hostPart: String, port: Int) {
        fallbackAuthority.withLockedValue { $0 = "\(hostPart):\(port)" }
    }

    func beginShutdown() { shuttingDown.withLockedValue { $0 = true } }

    private var isShuttingDown: Bool { shuttingDown.withLockedValue { $0 } }

    // MARK: - Routing

    func respond(to request: Request, context: SandboxRequestContext) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix("/sandbox/") { return control(path: path, method: request.method) }

        let kind: StatsRecorder.Kind
        let image = ImagePath(path)
        if path == "/services/rest/" || path == "/services/rest" {
            kind = .rest
        } else if image != nil {
            kind = .image
        } else {
            kind = .other
        }
        let loggedPath = Self.redacted(path: path, query: request.uri.query)
        let sequence = recorder.begin(path: loggedPath, kind: kind)
        let tracker = ResponseTracker(recorder: recorder, sequence: sequence, kind: kind)

        if configuration.latency > .zero {
            try? await Task.sleep(for: configuration.latency)
        }

        var content: Content
        switch kind {
        case .rest:
            let imageBase = "http://" + authority(of: request)
            var request = request
            content = await restContent(&request, imageBase: imageBase)
        case .image:
            content = imageContent(image)
        case .other:
            content = .notFound
        }
        if content.status == 200, kind != .other,
           faults.shouldFault(key: kind == .image ? path : loggedPath, isImage: kind == .image) {
            recorder.faultInjected()
            content = content.withFault(faults.configuration)
        }
        recorder.setStatus(content.status, sequence: sequence)
        return response(for: content, tracker: tracker, channel: context.channel)
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

    // MARK: - Content

    /// A response before it is sent: status, type, the bytes, and how many
    /// of them to announce (more than sent only for the reset fault).
    struct Content {
        var status: Int
        var contentType: String
        var body: ByteBuffer
        var resetAfterBody = false

        static let notFound = Content(status: 404, contentType: "text/plain; charset=utf-8",
                                      body: ByteBuffer(string: "Not Found\n"))

        func withFault(_ faults: FaultConfiguration) -> Content {
            var faulty = self
            let half = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) ?? ByteBuffer()
            switch faults.kind {
            case .status:
                faulty.status = faults.status
                faulty.contentType = "text/plain; charset=utf-8"
                faulty.body = ByteBuffer(string: "Injected fault: HTTP \(faults.status)\n")
            case .reset:
                faulty.resetAfterBody = true
            case .truncate:
                faulty.body = half
            case .garbage:
                let filler = "<html><body>This is not what you asked for.</body></html>\n"
                faulty.body = ByteBuffer(string: String(repeating: filler, count: max(1, body.readableBytes / 2 / filler.utf8.count)))
            }
            return faulty
        }
    }

    private func restContent(_ request: inout Request, imageBase: String) async -> Content {
        var parameters = QueryString.parse(request.uri.query ?? "")
        let isForm = request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        if request.method == .post, isForm, let body = try? await request.collectBody(upTo: 1 << 20) {
            parameters += QueryString.parse(String(buffer: body))
        }
        let oauthKey = request.headers[.authorization].flatMap(QueryString.oauthConsumerKey)
        let (body, contentType) = rest.respond(to: parameters, oauthConsumerKey: oauthKey, imageBase: imageBase)
        return Content(status: 200, contentType: contentType, body: ByteBuffer(bytes: body))
    }

    private func imageContent(_ path: ImagePath?) -> Content {
        guard let path, let photo = catalog.photo(id: path.id), photo.secret == path.secret,
              photo.server == path.server, let bytes = try? images.jpeg(for: photo, size: path.size)
        else { return .notFound }
        return Content(status: 200, contentType: "image/jpeg", body: bytes)
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

    // MARK: - Sending

    private func response(for content: Content, tracker: ResponseTracker, channel: any Channel) -> Response {
        let body = content.body
        let throttle = configuration.throttleKBps
        let reset = content.resetAfterBody
        let shuttingDown = self.shuttingDown
        let responseBody = ResponseBody(contentLength: body.readableBytes) { writer in
            do {
                let toSend = reset ? (body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) ?? ByteBuffer()) : body
                try await Self.send(toSend, to: &writer, kBps: throttle, tracker: tracker) { shuttingDown.withLockedValue { $0 } }
                if reset {
                    // Announced the whole length, sent half: the client sees the connection drop.
                    tracker.end(aborted: false)
                    channel.close(promise: nil)
                    throw SandboxConnectionError.resetInjected
                }
                try await writer.finish(nil)
                tracker.end(aborted: false)
            } catch {
                tracker.end(aborted: true)
                throw error
            }
        }
        return Response(
            status: HTTPResponse.Status(code: content.status),
            headers: [.contentType: content.contentType],
            body: responseBody)
    }

    /// Writes `body`, in chunks paced to `kBps` when throttled (small
    /// enough that a transfer is still mid-body when a client cancels).
    private static func send(
        _ body: ByteBuffer, to writer: inout any ResponseBodyWriter, kBps: Int?, tracker: ResponseTracker,
        isShuttingDown: () -> Bool
    ) async throws {
        guard let kBps, kBps > 0 else {
            try await writer.write(body)
            tracker.sent(body.readableBytes)
            return
        }
        let bytesPerSecond = Double(kBps) * 1024
        let chunkSize = max(256, Int(bytesPerSecond / 50))
        let clock = ContinuousClock()
        let start = clock.now
        var remaining = body
        var sent = 0
        while remaining.readableBytes > 0 {
            if isShuttingDown() { throw SandboxConnectionError.shuttingDown }
            let length = min(chunkSize, remaining.readableBytes)
            guard let chunk = remaining.readSlice(length: length) else { break }
            try await writer.write(chunk)
            sent += length
            tracker.sent(length)
            try await clock.sleep(until: start.advanced(by: .seconds(Double(sent) / bytesPerSecond)))
        }
    }

    /// Path and query as logged: the API key is never recorded.
    static func redacted(path: String, query: String?) -> String {
        guard let query, !query.isEmpty else { return path }
        let kept = query.split(separator: "&").filter { !$0.hasPrefix("api_key=") }
        return kept.isEmpty ? path : path + "?" + kept.joined(separator: "&")
    }
}

enum SandboxConnectionError: Error {
    case resetInjected
    case shuttingDown
}

/// Ends a response's record exactly once. If Hummingbird drops the
/// response without calling its body (the client left before the head
/// could be written), `deinit` records it as aborted, so `in_flight`
/// always returns to 0.
final class ResponseTracker: Sendable {
    private let recorder: StatsRecorder
    private let sequence: Int
    private let kind: StatsRecorder.Kind
    private let ended = NIOLockedValueBox(false)

    init(recorder: StatsRecorder, sequence: Int, kind: StatsRecorder.Kind) {
        self.recorder = recorder
        self.sequence = sequence
        self.kind = kind
    }

    func sent(_ count: Int) { recorder.addBytes(count, kind: kind, sequence: sequence) }

    func end(aborted: Bool) {
        let first = ended.withLockedValue { ended -> Bool in
            defer { ended = true }
            return !ended
        }
        if first { recorder.end(sequence: sequence, aborted: aborted) }
    }

    deinit { end(aborted: true) }
}

/// `/{server}/{id}_{secret}[_{suffix}].jpg`, taken apart.
struct ImagePath: Equatable {
    var server: String
    var id: String
    var secret: String
    var size: SandboxImageSize

    init?(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasSuffix(".jpg") else { return nil }
        let pieces = parts[2].dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
        guard pieces.count == 2 || pieces.count == 3,
              let size = SandboxImageSize(urlSuffix: pieces.count == 3 ? String(pieces[2]) : nil)
        else { return nil }
        server = String(parts[1])
        id = String(pieces[0])
        secret = String(pieces[1])
        self.size = size
    }
}

/// `a=1&b=two+words` → pairs, percent-decoded, `+` as space.
enum QueryString {
    static func parse(_ query: String) -> [(String, String)] {
        query.split(separator: "&").compactMap { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(pair[0]), !name.isEmpty else { return nil }
            return (name, pair.count > 1 ? decode(pair[1]) ?? "" : "")
        }
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The consumer key of an `Authorization: OAuth oauth_consumer_key="…", …` header.
    static func oauthConsumerKey(_ header: String) -> String? {
        guard header.lowercased().hasPrefix("oauth ") else { return nil }
        for field in header.dropFirst(6).split(separator: ",") {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "oauth_consumer_key" else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.removingPercentEncoding ?? value
        }
        return nil
    }
}
