import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Gathers one response on the connection's event loop, piece by piece as
/// it arrives, and turns bad statuses and oversized bodies into
/// `NetworkError`s there.
///
/// Taking every piece at once, rather than streaming it to the caller, is
/// what makes the idle timeout honest: AsyncHTTPClient stops reading while
/// a streaming caller has not asked for the next piece, and its idle timer
/// keeps running meanwhile, so a caller that is merely slow to be scheduled
/// (a busy machine) would see a healthy server reported as stalled.
final class ResponseCollector: HTTPClientResponseDelegate {
    typealias Response = NetworkManager.Response

    private struct State {
        var status = 0
        var contentType: String?
        var retryAfter: String?
        var expected: Int?
        var body = Data()
    }

    private let host: String
    private let maxBytes: Int
    private let keepsErrorBodies: Bool
    private let progress: NetworkManager.Progress?
    // Callbacks come one at a time on the event loop; the lock makes that
    // visible to the compiler and the thread sanitizer.
    private let state = NIOLockedValueBox(State())

    init(host: String, maxBytes: Int, keepsErrorBodies: Bool = false, progress: NetworkManager.Progress?) {
        self.host = host
        self.maxBytes = maxBytes
        self.keepsErrorBodies = keepsErrorBodies
        self.progress = progress
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let status = Int(head.status.code)
        guard (200..<300).contains(status) || keepsErrorBodies else {
            // Failing here cancels the request: the body is never read.
            let retryAfter = head.headers.first(name: "retry-after").flatMap { RetryPolicy.retryAfter($0) }
            if status == 429 || (status >= 500 && retryAfter != nil) {
                return task.eventLoop.makeFailedFuture(NetworkError.retryLater(status: status, after: retryAfter, host: host))
            }
            return task.eventLoop.makeFailedFuture(NetworkError.httpStatus(status, host: host))
        }
        let announced = head.headers.first(name: "content-length").flatMap { Int($0) }
        if let announced, announced > maxBytes {
            return task.eventLoop.makeFailedFuture(NetworkError.responseTooLarge(limit: maxBytes, host: host))
        }
        // A compressed body's length says nothing of the decoded bytes that
        // arrive here (a short answer can even grow when compressed); the
        // transfer's own framing still catches a cut-off body.
        let encoding = head.headers.first(name: "content-encoding")?.lowercased() ?? "identity"
        let expected = encoding == "identity" ? announced : nil
        state.withLockedValue { state in
            state.status = status
            state.contentType = head.headers.first(name: "content-type")
            state.retryAfter = head.headers.first(name: "retry-after")
            state.expected = expected
            state.body.reserveCapacity(min(expected ?? 16_384, maxBytes))
        }
        progress?(0, expected)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let (received, expected) = state.withLockedValue { state in
            state.body.append(contentsOf: buffer.readableBytesView)
            return (state.body.count, state.expected)
        }
        guard received <= maxBytes else {
            return task.eventLoop.makeFailedFuture(NetworkError.responseTooLarge(limit: maxBytes, host: host))
        }
        progress?(received, expected)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        let state = state.withLockedValue { $0 }
        if let expected = state.expected, state.body.count < expected { throw NetworkError.connectionLost(host: host) }
        return Response(status: state.status, contentType: state.contentType, retryAfter: state.retryAfter, body: state.body)
    }
}
