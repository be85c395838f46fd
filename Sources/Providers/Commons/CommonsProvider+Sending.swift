import PhotoCore
import Foundation
import Networking
import Logging

// MARK: - Sending, with MediaWiki's errors and lag

extension CommonsProvider {
    /// GETs one `action=query` URL, retried while the failure is transient
    /// (lag, rate limits, 5xx, transport), and reads the answer. An `error`
    /// object in an HTTP 200 answer is an error like any other.
    func query(_ url: URL, page: Int?) async throws(CommonsError) -> CommonsAnswer {
        try await retryPolicy.run(
            classify: { (error: CommonsError) in
                if let wait = error.retryAfter { return .retryAfter(wait) }
                return error.isTransient ? .retry : .stop
            },
            cancelled: { .network(.cancelled) },
            onRetry: { error, wait, retry in
                // A server's wait is long enough to be felt: say so.
                if error.retryAfter != nil, wait >= .seconds(1) {
                    notices?.post("Wikimedia Commons asked to wait \(ServerWait.phrase(wait)); trying again then.")
                }
                logger.debug("Retrying a Commons call", metadata: [
                    "host": "\(url.host ?? "?")", "retry": "\(retry)", "wait": "\(wait)", "error": "\(error.description)",
                ])
            }
        ) { _ throws(CommonsError) in
            try await attempt(url, page: page)
        }
    }

    private func attempt(_ url: URL, page: Int?) async throws(CommonsError) -> CommonsAnswer {
        let response: NetworkManager.Response
        do throws(NetworkError) {
            response = try await network.get(
                url, headers: [("Accept", "application/json")], maxBytes: Self.maxResponseBytes, errorBodies: true)
        } catch {
            throw CommonsError.from(error)
        }
        guard (200..<300).contains(response.status) else {
            throw CommonsError.http(status: response.status, retryAfter: response.retryAfter, body: response.body)
        }
        switch try CommonsResponseDecoder.decode(response.body) {
        case .answer(let answer):
            if answer.skippedPages > 0 {
                logger.debug("Skipped pages of a Commons answer", metadata: ["pages": "\(answer.skippedPages)"])
            }
            return answer
        case .failure(let failure):
            throw CommonsError.from(failure, retryAfter: response.retryAfter, page: page)
        }
    }
}
