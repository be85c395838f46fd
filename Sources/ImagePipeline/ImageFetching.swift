import Networking
import Foundation

/// Fetches the bytes of an image. The pipeline's only way to reach the network.
///
/// Implementations must stop the transfer when the calling task is cancelled
/// (the server should see the connection go away) and then throw `.cancelled`.
/// A transfer that stops receiving must end on its own after an idle timeout
/// with an error whose `isTransient` is true: the pipeline retries it (a
/// bounded number of times, in the same slot) rather than wait forever.
public protocol ImageFetching: Sendable {
    func fetch(_ url: URL, progress: @escaping @Sendable (Int, Int?) -> Void) async throws(NetworkError) -> Data
    /// Transfers the fetcher puts on the wire at once (its connections); a
    /// fetch beyond that would wait inside it, out of the pipeline's reach.
    /// nil: no limit.
    var maxConcurrentTransfers: Int? { get }
}

extension ImageFetching {
    public var maxConcurrentTransfers: Int? { nil }
}

extension NetworkManager: ImageFetching {
    /// Largest image body accepted; Flickr's biggest sizes stay well below it.
    private static let maxImageBytes = 48 << 20

    public func fetch(_ url: URL, progress: @escaping @Sendable (Int, Int?) -> Void) async throws(NetworkError) -> Data {
        try await get(url, maxBytes: Self.maxImageBytes, progress: progress).body
    }

    public var maxConcurrentTransfers: Int? { connectionsPerHost }
}
