import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

// MARK: - POST

extension NetworkManager {
    /// POSTs `form` as `application/x-www-form-urlencoded` and returns the
    /// whole answer: the token endpoints of OAuth-style APIs need it.
    ///
    /// The same transport as `get`: pooled client, time-outs, cancellation
    /// that aborts the transfer, and the same `NetworkError`s. Messages name
    /// the host only; the form (which carries secrets) is never logged.
    public func post(
        _ url: URL,
        form: [(String, String)],
        headers: [(String, String)] = [],
        maxBytes: Int = 1 << 20,
        errorBodies: Bool = false
    ) async throws(NetworkError) -> Response {
        let hostLabel = try Self.hostLabel(of: url)

        let body = Self.formEncoded(form)
        var fields = HTTPHeaders([
            ("User-Agent", configuration.userAgent),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ])
        for (name, value) in headers { fields.add(name: name, value: value) }

        do {
            if Task.isCancelled { throw NetworkError.cancelled }
            let request = try HTTPClient.Request(url: url.absoluteString, method: .POST, headers: fields, body: .string(body))
            let collector = ResponseCollector(host: hostLabel, maxBytes: maxBytes, keepsErrorBodies: errorBodies, progress: nil)
            return try await execute(request, on: client, collector: collector, within: configuration.requestTimeout)
        } catch {
            throw Self.classify(error, host: hostLabel)
        }
    }

    /// `name=value&…`, every byte but the unreserved ones percent-encoded
    /// (so `+`, `&` and `=` in a secret arrive as themselves).
    static func formEncoded(_ form: [(String, String)]) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return form.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}
