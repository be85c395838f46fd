import Foundation

/// Signs requests with OAuth 1.0a HMAC-SHA1 (RFC 5849), as Flickr asks.
///
/// The signature covers the method, the URL without its query, and every
/// parameter: the query's, a form body's and the `oauth_*` ones. The
/// `oauth_*` parameters travel in an `Authorization: OAuth …` header, so
/// the token and signature stay out of URLs (and out of any log of them).
///
/// Never printed: its description and mirror hide the secrets.
public struct OAuthSigner: Sendable {
    public typealias Clock = @Sendable () -> Date
    public typealias NonceSource = @Sendable () -> String

    public let consumerKey: String
    private let consumerSecret: String
    /// The request token or access token, when there is one.
    public let token: String?
    private let tokenSecret: String
    private let clock: Clock
    private let nonce: NonceSource

    /// - Parameters:
    ///   - clock: the time stamped on each request (the tests fix it).
    ///   - nonce: a value used once; random by default.
    public init(
        consumerKey: String, consumerSecret: String, token: String? = nil, tokenSecret: String = "",
        clock: @escaping Clock = { Date() }, nonce: @escaping NonceSource = OAuthSigner.randomNonce
    ) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
        self.clock = clock
        self.nonce = nonce
    }

    /// The same consumer with another token (after the exchange).
    public func with(token: String?, tokenSecret: String) -> OAuthSigner {
        OAuthSigner(consumerKey: consumerKey, consumerSecret: consumerSecret, token: token, tokenSecret: tokenSecret,
                    clock: clock, nonce: nonce)
    }

    /// Every secret this signer holds, for a `SecretRedactor`.
    public var secrets: [String] { [consumerKey, consumerSecret, token ?? "", tokenSecret] }

    /// The `oauth_*` parameters of one request, `oauth_signature` last.
    ///
    /// - Parameters:
    ///   - form: the fields of an `application/x-www-form-urlencoded` body (signed too).
    ///   - extra: `oauth_*` parameters this step adds (`oauth_callback`, `oauth_verifier`).
    public func oauthParameters(
        method: String, url: URL, form: [(String, String)] = [], extra: [(String, String)] = []
    ) -> [(String, String)] {
        var oauth = [
            ("oauth_consumer_key", consumerKey),
            ("oauth_nonce", nonce()),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(Int(clock().timeIntervalSince1970))),
            ("oauth_version", "1.0"),
        ]
        if let token { oauth.append(("oauth_token", token)) }
        oauth += extra
        let base = Self.baseString(method: method, url: url, parameters: Self.queryParameters(of: url) + form + oauth)
        oauth.append(("oauth_signature", Self.signature(baseString: base, consumerSecret: consumerSecret, tokenSecret: tokenSecret)))
        return oauth
    }

    /// `Authorization: OAuth k="v", …` for one request.
    public func authorizationHeader(
        method: String, url: URL, form: [(String, String)] = [], extra: [(String, String)] = []
    ) -> (String, String) {
        let fields = oauthParameters(method: method, url: url, form: form, extra: extra)
            .map { "\(Self.percentEncode($0.0))=\"\(Self.percentEncode($0.1))\"" }
        return ("Authorization", "OAuth " + fields.joined(separator: ", "))
    }

    // MARK: - RFC 5849, section 3.4

    /// Percent-encodes every byte of the UTF-8 form but the unreserved
    /// characters (`A-Z a-z 0-9 - . _ ~`), hex in capitals (section 3.6).
    public static func percentEncode(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// The query's parameters, decoded as a form decodes them (`+` is a space).
    public static func queryParameters(of url: URL) -> [(String, String)] {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery else { return [] }
        return formParameters(query)
    }

    /// `a=1&b=two+words` as pairs, percent-decoded, `+` as a space.
    public static func formParameters(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(pair[0]), pair.count > 1 ? decode(pair[1]) : "")
        }
    }

    /// Encoded, sorted by name then value (duplicates kept), joined with `&` (section 3.4.1.3.2).
    public static func normalizedParameters(_ parameters: [(String, String)]) -> String {
        parameters.map { (percentEncode($0.0), percentEncode($0.1)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// Scheme and host in lower case, the default port left out, no query
    /// or fragment (section 3.4.1.2).
    public static func baseStringURI(_ url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let scheme = (components?.scheme ?? "http").lowercased()
        let host = (components?.percentEncodedHost ?? "").lowercased()
        var authority = host
        if let port = components?.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            authority += ":\(port)"
        }
        let path = components?.percentEncodedPath ?? ""
        return "\(scheme)://\(authority)\(path.isEmpty ? "/" : path)"
    }

    /// `METHOD&enc(URL)&enc(parameters)`; `parameters` must not hold `oauth_signature`.
    public static func baseString(method: String, url: URL, parameters: [(String, String)]) -> String {
        [method.uppercased(), percentEncode(baseStringURI(url)), percentEncode(normalizedParameters(parameters))]
            .joined(separator: "&")
    }

    /// Base64 of HMAC-SHA1 over the base string, keyed `enc(consumer secret)&enc(token secret)`.
    public static func signature(baseString: String, consumerSecret: String, tokenSecret: String) -> String {
        let key = percentEncode(consumerSecret) + "&" + percentEncode(tokenSecret)
        return Data(OAuthHMACSHA1.hmac(key: Array(key.utf8), message: Array(baseString.utf8))).base64EncodedString()
    }

    /// 32 random hex digits.
    public static func randomNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

// The signer holds secrets: never print or reflect them.
extension OAuthSigner: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "OAuthSigner(\(SecretRedactor.placeholder))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
