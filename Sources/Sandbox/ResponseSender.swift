import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A response before it is sent: status, type, the bytes, and how the
/// body goes out (whole, half then a reset, or not at all).
struct Content {
    enum Delivery { case whole, resetHalfway, stall }

    var status: Int
    var contentType: String
    var body: ByteBuffer
    var delivery = Delivery.whole
    /// `gzip` once the body is compressed.
    var contentEncoding: String?
    /// API answers differ by `Accept-Encoding`, so they say so to caches.
    var variesByEncoding = false
    /// Headers beyond the type and encoding (a refusal's `Retry-After`).
    var headers: [(String, String)] = []
    /// The id of the photo an image shows, for the request log.
    var photo: String?

    static let notFound = Content(status: 404, contentType: "text/plain; charset=utf-8",
                                  body: ByteBuffer(string: "Not Found\n"))

    /// The same content gzip-compressed (replacement bodies of faults stay
    /// plain). A body that would not shrink (a short error) goes out as it
    /// is, as servers with a minimum length for compression send it.
    func gzipped() -> Content {
        guard let compressed = Gzip.compress(body), compressed.readableBytes < body.readableBytes else { return self }
        var result = self
        result.body = compressed
        result.contentEncoding = "gzip"
        return result
    }

    /// This content as the configured fault changes it (`slow-headers` and
    /// `api-error` are applied by the handler, which knows the route).
    func withFault(_ faults: FaultConfiguration) -> Content {
        var faulty = self
        switch faults.kind {
        case .status, .apiError:
            faulty.status = faults.status
            faulty.contentType = "text/plain; charset=utf-8"
            faulty.body = ByteBuffer(string: "Injected fault: HTTP \(faults.status)\n")
            faulty.contentEncoding = nil
        case .reset:
            faulty.delivery = .resetHalfway
        case .truncate:
            // Of a compressed body, half the compressed stream: the client's gzip decoder meets the cut.
            faulty.body = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) ?? ByteBuffer()
        case .garbage:
            let filler = "<html><body>This is not what you asked for.</body></html>\n"
            faulty.body = ByteBuffer(string: String(repeating: filler, count: max(1, body.readableBytes / 2 / filler.utf8.count)))
            faulty.contentEncoding = nil
        case .stall:
            faulty.delivery = .stall
        case .slowHeaders, .hostile:
            break
        }
        return faulty
    }
}

enum SandboxConnectionError: Error {
    case resetInjected
    case stalled
    case shuttingDown
}

/// Sends response bodies (throttled, or over one shared link, when
/// configured) and the faults that live on the connection, and ends every
/// transfer promptly at shutdown.
final class ResponseSender: Sendable {
    private let throttleKBps: Int?
    private let link: SharedLink?
    private let shuttingDown = NIOLockedValueBox(false)
    /// How often a held response checks whether its client left or the
    /// server is stopping.
    private static let pollInterval: Duration = .milliseconds(20)

    init(throttleKBps: Int?, linkKBps: Int? = nil) {
        self.throttleKBps = throttleKBps
        self.link = linkKBps.map(SharedLink.init(kBps:))
    }

    func beginShutdown() { shuttingDown.withLockedValue { $0 = true } }

    var isShuttingDown: Bool { shuttingDown.withLockedValue { $0 } }

    /// Makes a client that closes its end close the connection. Hummingbird
    /// allows half-closed connections, so a client that gives up on a held
    /// response would otherwise leave it open (and counted in flight) until
    /// shutdown.
    func noticeDeparture(of channel: any Channel) async {
        try? await channel.setOption(ChannelOptions.allowRemoteHalfClosure, value: false).get()
    }

    /// Waits `delay` before the status line goes out (the `slow-headers`
    /// fault); returns early when the client leaves or the server stops.
    func holdHeaders(for delay: Duration, channel: any Channel) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: delay)
        while clock.now < deadline, channel.isActive, !isShuttingDown {
            try? await clock.sleep(until: min(deadline, clock.now.advanced(by: Self.pollInterval)))
        }
    }

    func response(for content: Content, tracker: ResponseTracker, channel: any Channel) -> Response {
        let body = content.body
        let delivery = content.delivery
        let responseBody = ResponseBody(contentLength: body.readableBytes) { [self] writer in
            do {
                switch delivery {
                case .whole:
                    try await send(body, to: &writer, tracker: tracker)
                    try await writer.finish(nil)
                    tracker.end(aborted: false)
                case .resetHalfway:
                    // Announced the whole length, sent half: the client sees the connection drop.
                    let half = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) ?? ByteBuffer()
                    try await send(half, to: &writer, tracker: tracker)
                    tracker.end(aborted: false)
                    channel.close(promise: nil)
                    throw SandboxConnectionError.resetInjected
                case .stall:
                    // The head is out; hold the connection without a body byte.
                    while channel.isActive, !isShuttingDown {
                        try? await Task.sleep(for: Self.pollInterval)
                    }
                    channel.close(promise: nil)
                    throw SandboxConnectionError.stalled
                }
            } catch {
                tracker.end(aborted: true)
                throw error
            }
        }
        var headers: HTTPFields = [.contentType: content.contentType]
        if let encoding = content.contentEncoding { headers[.contentEncoding] = encoding }
        if content.variesByEncoding { headers[.vary] = "Accept-Encoding" }
        for (name, value) in content.headers {
            if let field = HTTPFields.Element.Name(name) { headers[field] = value }
        }
        return Response(status: HTTPResponse.Status(code: content.status), headers: headers, body: responseBody)
    }

    /// Writes `body`, in chunks paced to the throttle and carried over the
    /// shared link when there are (small enough that a transfer is still
    /// mid-body when a client cancels, and that transfers on the link take
    /// turns often).
    private func send(_ body: ByteBuffer, to writer: inout any ResponseBodyWriter, tracker: ResponseTracker) async throws {
        let pace = throttleKBps.flatMap { $0 > 0 ? Double($0) * 1024 : nil }
        guard pace != nil || link != nil else {
            try await writer.write(body)
            tracker.sent(body.readableBytes)
            return
        }
        let slowest = min(pace ?? .infinity, link?.bytesPerSecond ?? .infinity)
        let chunkSize = max(256, Int(slowest / 50))
        let clock = ContinuousClock()
        let start = clock.now
        var remaining = body
        var sent = 0
        while remaining.readableBytes > 0 {
            if isShuttingDown { throw SandboxConnectionError.shuttingDown }
            let length = min(chunkSize, remaining.readableBytes)
            guard let chunk = remaining.readSlice(length: length) else { break }
            // The chunk arrives once it has crossed the line, after what was
            // booked before it: that may be long with many transfers, so
            // the wait looks up for shutdown as a held response does.
            if let due = link?.book(length) {
                while clock.now < due {
                    if isShuttingDown { throw SandboxConnectionError.shuttingDown }
                    try await clock.sleep(until: min(due, clock.now.advanced(by: Self.pollInterval)))
                }
            }
            try await writer.write(chunk)
            sent += length
            tracker.sent(length)
            if let pace { try await clock.sleep(until: start.advanced(by: .seconds(Double(sent) / pace))) }
        }
    }
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
