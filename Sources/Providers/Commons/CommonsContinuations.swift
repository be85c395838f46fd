import NIOConcurrencyHelpers

/// The `continue` object each page of a search ended with, kept so the
/// next page sends it back whole, as the API asks, rather than an offset
/// worked out here. Bounded: paging through many searches keeps the newest.
final class CommonsContinuations: Sendable {
    private struct Key: Hashable {
        var search: String
        var sort: String?
        var limit: Int
        var page: Int
    }

    static let capacity = 64
    private let stored = NIOLockedValueBox<[Key: [String: String]]>([:])

    /// What page `request.page` should send, if its page before was read.
    func continuation(for request: CommonsSearchRequest) -> [String: String]? {
        stored.withLockedValue { $0[Self.key(request, page: request.page)] }
    }

    /// Keeps `continuation` for the page after `request`'s. One too large
    /// to send back in a URL (a hostile server's) is not kept: that page
    /// then asks by its offset.
    func remember(_ continuation: [String: String]?, after request: CommonsSearchRequest) {
        guard let continuation, request.page < Int.max, Self.isSendable(continuation) else { return }
        stored.withLockedValue { stored in
            if stored.count >= Self.capacity { stored.removeAll(keepingCapacity: true) }
            stored[Self.key(request, page: request.page + 1)] = continuation
        }
    }

    /// A few short members, as MediaWiki's are (`gsroffset`, `continue`, `iicontinue`).
    static func isSendable(_ continuation: [String: String]) -> Bool {
        continuation.count <= 16 && continuation.allSatisfy { $0.key.utf8.count <= 64 && $0.value.utf8.count <= 512 }
    }

    private static func key(_ request: CommonsSearchRequest, page: Int) -> Key {
        Key(search: request.search, sort: request.sort, limit: request.limit, page: page)
    }
}
