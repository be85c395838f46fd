import Foundation

/// A signed request as the sandbox sees it: every parameter from the query,
/// the form body and the `Authorization: OAuth` header, and the base string
/// the client should have signed (RFC 5849, section 3.4), rebuilt here.
struct SignedRequest {
    /// Query and form parameters, then the header's `oauth_*` ones.
    let parameters: [(String, String)]
    let method: String
    /// `http://host[:port]/path` as the client addressed it.
    let baseURI: String

    init(method: String, host: String, path: String, parameters: [(String, String)], authorization: String?) {
        self.method = method.uppercased()
        self.parameters = parameters + (authorization.map(Self.headerParameters) ?? [])
        var authority = host.lowercased()
        if authority.hasSuffix(":80") { authority.removeLast(3) }
        baseURI = "http://\(authority)\(path)"
    }

    func value(_ name: String) -> String? { parameters.first { $0.0 == name }?.1 }

    /// Whether the client meant to sign: it sent a signature or a token. A
    /// header with the consumer key alone (and perhaps a nonce) only names the key.
    var isSigned: Bool {
        parameters.contains { $0.0 == "oauth_signature" || $0.0 == "oauth_token" }
    }

    /// The base string: method, URI and the sorted parameters but the signature.
    var baseString: String {
        let pairs = parameters.filter { $0.0 != "oauth_signature" }
            .map { (Self.encode($0.0), Self.encode($0.1)) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            .map { $0.0 + "=" + $0.1 }
        return [method, Self.encode(baseURI), Self.encode(pairs.joined(separator: "&"))].joined(separator: "&")
    }

    /// Whether `oauth_signature` is HMAC-SHA1 of the base string under these secrets.
    func hasValidSignature(consumerSecret: String, tokenSecret: String) -> Bool {
        guard let sent = value("oauth_signature"), let sentBytes = Data(base64Encoded: sent) else { return false }
        let key = Self.encode(consumerSecret) + "&" + Self.encode(tokenSecret)
        let expected = SandboxHMAC.mac(key: Array(key.utf8), Array(baseString.utf8))
        // Compared in full whatever differs first, as a server should.
        return sentBytes.count == expected.count && zip(sentBytes, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// RFC 5849 section 3.6: all but `ALPHA DIGIT - . _ ~`, as `%XX` in capitals.
    static func encode(_ text: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        return text.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }

    /// `OAuth realm="…", oauth_consumer_key="…", …`, values percent-decoded; `realm` left out (section 3.4.1.3.1).
    static func headerParameters(_ header: String) -> [(String, String)] {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("oauth ") else { return [] }
        return trimmed.dropFirst(6).split(separator: ",").compactMap { field in
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            guard name != "realm" else { return nil }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return (name.removingPercentEncoding ?? name, value.removingPercentEncoding ?? value)
        }
    }
}
