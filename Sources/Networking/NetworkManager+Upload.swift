import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

// MARK: - Streamed POST (uploads)

extension NetworkManager {
    /// A request body sent piece by piece: bytes held in memory (a form's
    /// text fields, part headers) and files read from disk as they are sent,
    /// so a photo of hundreds of megabytes is never held whole.
    public struct StreamedBody: Sendable {
        public enum Piece: Sendable {
            case bytes([UInt8])
            /// The first `length` bytes of the file at `path`.
            case file(path: String, length: Int)
        }

        public var pieces: [Piece]

        public init(_ pieces: [Piece]) {
            self.pieces = pieces
        }

        /// Bytes in all, for `Content-Length` (saturating: lengths come from the disk).
        public var length: Int {
            pieces.reduce(0) { total, piece in
                switch piece {
                case .bytes(let bytes): total.addingReportingOverflow(bytes.count).overflow ? .max : total + bytes.count
                case .file(_, let length): total.addingReportingOverflow(length).overflow ? .max : total + length
                }
            }
        }
    }

    /// Called as the body goes out: bytes handed to the connection so far
    /// (told just before each piece is handed over), and the total.
    public typealias SendProgress = @Sendable (_ sent: Int, _ total: Int) -> Void

    /// How much of a file is read and written at once.
    static let uploadChunkSize = 256 << 10

    /// POSTs `body` with `contentType` and returns the whole answer.
    ///
    /// The same transport and errors as `get`, with two clocks of its own:
    /// a piece the connection has not taken within `idleTimeout` ends the send
    /// as `.stalled`, and once the last byte is out the answer may take up to
    /// `answerTimeout` (the server processes the photo first). The
    /// whole-request deadline grows with the body, a floor of 256 KB/s past
    /// `requestTimeout` and the answer's wait, so a large photo on a slow
    /// line is not cut off for being large. A file that
    /// cannot be read (or ends before its stated length) fails the request
    /// with `.other`. Messages name the host only; the body is never logged.
    public func post(
        _ url: URL,
        body: StreamedBody,
        contentType: String,
        headers: [(String, String)] = [],
        maxBytes: Int = 1 << 20,
        errorBodies: Bool = false,
        progress: SendProgress? = nil
    ) async throws(NetworkError) -> Response {
        let hostLabel = try Self.hostLabel(of: url)

        var fields = HTTPHeaders([("User-Agent", configuration.userAgent), ("Content-Type", contentType)])
        for (name, value) in headers { fields.add(name: name, value: value) }
        let total = body.length
        let stall = configuration.idleTimeout
        let stream = HTTPClient.Body.stream(contentLength: Int64(total)) { writer in
            let promise = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
            promise.completeWithTask {
                try await Self.send(body, to: writer, host: hostLabel, total: total, stall: stall, progress: progress)
            }
            return promise.futureResult
        }

        do {
            if Task.isCancelled { throw NetworkError.cancelled }
            let request = try HTTPClient.Request(url: url.absoluteString, method: .POST, headers: fields, body: stream)
            let collector = ResponseCollector(host: hostLabel, maxBytes: maxBytes, keepsErrorBodies: errorBodies, progress: nil)
            let allowance = Duration.seconds(total / (256 << 10))
            return try await execute(
                request, on: uploadClient, collector: collector,
                within: configuration.requestTimeout + allowance + configuration.answerTimeout)
        } catch {
            throw Self.classify(error, host: hostLabel)
        }
    }

    /// Writes every piece in order, one chunk at a time: the next chunk is
    /// read only once the connection took the last, so memory stays at a chunk.
    private static func send(
        _ body: StreamedBody, to writer: HTTPClient.Body.StreamWriter, host: String, total: Int, stall: Duration,
        progress: SendProgress?
    ) async throws {
        var sent = 0
        // Told before the bytes are handed over, never after: the server may
        // answer (or the answer fail) as soon as the last byte is out, and a
        // caller that hears of that must already know every byte went out.
        func write(_ buffer: ByteBuffer) async throws {
            sent += buffer.readableBytes
            progress?(sent, total)
            try await taken(writer.write(.byteBuffer(buffer)), within: stall, host: host)
        }
        progress?(0, total)
        for piece in body.pieces {
            switch piece {
            case .bytes(let bytes):
                try await write(ByteBuffer(bytes: bytes))
            case .file(let path, let length):
                guard let file = FileHandle(forReadingAtPath: path) else {
                    throw NetworkError.other("the file being sent could not be opened", host: host)
                }
                defer { try? file.close() }
                var left = length
                while left > 0 {
                    if Task.isCancelled { throw NetworkError.cancelled }
                    let chunk = (try? file.read(upToCount: min(left, uploadChunkSize))) ?? nil
                    guard let chunk, !chunk.isEmpty else {
                        throw NetworkError.other("the file being sent ended early (was it changed meanwhile?)", host: host)
                    }
                    try await write(ByteBuffer(bytes: chunk))
                    left -= chunk.count
                }
            }
        }
    }

    /// Waits for the connection to take a piece, at most `limit`: a server
    /// that stops reading leaves the piece's future pending for good (the
    /// client waits for the socket to drain), and the whole-request deadline
    /// is far off for a large photo. Throwing here fails the request, which
    /// closes the connection and so settles the pending future.
    private static func taken(_ future: EventLoopFuture<Void>, within limit: Duration, host: String) async throws {
        let settled = NIOLockedValueBox(false)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            @Sendable func finish(_ result: Result<Void, any Error>) {
                let first = settled.withLockedValue { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(with: result) }
            }
            let timer = future.eventLoop.scheduleTask(in: .nanoseconds(limit.nanoseconds)) {
                finish(.failure(NetworkError.stalled(host: host)))
            }
            future.whenComplete { result in
                timer.cancel()
                finish(result)
            }
        }
    }
}
