import Foundation
import Networking
import Testing

/// OAuth 1.0a signing against published vectors: SHA-1 (FIPS 180 / RFC 3174),
/// HMAC-SHA1 (RFC 2202), and the signed examples of RFC 5849 and of OAuth
/// Core 1.0, from which RFC 5849 grew.
@Suite struct OAuthSignerTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func sha1MatchesTheStandardsVectors(message: String, digest: String) {
        #expect(hex(OAuthHMACSHA1.sha1(Array(message.utf8))) == digest)
    }

    @Test func sha1OfAMillionAsCrossesManyBlocks() {
        #expect(hex(OAuthHMACSHA1.sha1([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    struct HMACCase: Sendable, CustomTestStringConvertible {
        var key: [UInt8]
        var message: [UInt8]
        var digest: String
        var testDescription: String { digest }
    }

    /// RFC 2202, section 3: all seven HMAC-SHA1 cases (the truncated case 5 compared in full).
    static let rfc2202: [HMACCase] = [
        HMACCase(key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8),
                 digest: "b617318655057264e28bc0b6fb378c8ef146be00"),
        HMACCase(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8),
                 digest: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        HMACCase(key: [UInt8](repeating: 0xAA, count: 20), message: [UInt8](repeating: 0xDD, count: 50),
                 digest: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        HMACCase(key: Array(1...25), message: [UInt8](repeating: 0xCD, count: 50),
                 digest: "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        HMACCase(key: [UInt8](repeating: 0x0C, count: 20), message: Array("Test With Truncation".utf8),
                 digest: "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
        HMACCase(key: [UInt8](repeating: 0xAA, count: 80),
                 message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                 digest: "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        HMACCase(key: [UInt8](repeating: 0xAA, count: 80),
                 message: Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
                 digest: "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
    ]

    @Test(arguments: rfc2202)
    func hmacMatchesRFC2202(_ vector: HMACCase) {
        #expect(hex(OAuthHMACSHA1.hmac(key: vector.key, message: vector.message)) == vector.digest)
    }

    /// RFC 5849 section 3.4.1.1: the base string of its example request,
    /// with a query, a form body, a header and a `realm` left out.
    @Test func baseStringOfRFC5849Example() throws {
        let url = try #require(URL(string: "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b"))
        let oauth = [
            ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
            ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"), ("oauth_nonce", "7d8f3e4a"),
        ]
        let form = OAuthSigner.formParameters("c2&a3=2+q")
        let base = OAuthSigner.baseString(method: "post", url: url, parameters: OAuthSigner.queryParameters(of: url) + form + oauth)
        #expect(base == "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7")
    }

    /// RFC 5849 section 1.2: the signed request for the photo, whole, from
    /// the signer's own parameters (fixed clock and nonce).
    @Test func signsRFC5849PhotoRequest() throws {
        let signer = OAuthSigner(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44",
            token: "nnch734d00sl2jdk", tokenSecret: "pfkkdhi9sl3r4s00",
            clock: { Date(timeIntervalSince1970: 137_131_202) }, nonce: { "chapoH" })
        let url = try #require(URL(string: "http://photos.example.net/photos?file=vacation.jpg&size=original"))
        // RFC 5849's example sends no oauth_version; the signer always does, so it is signed again without it.
        let parameters = signer.oauthParameters(method: "GET", url: url).filter { $0.0 != "oauth_version" && $0.0 != "oauth_signature" }
        let base = OAuthSigner.baseString(method: "GET", url: url, parameters: OAuthSigner.queryParameters(of: url) + parameters)
        #expect(OAuthSigner.signature(baseString: base, consumerSecret: "kd94hf93k423kf44", tokenSecret: "pfkkdhi9sl3r4s00")
            == "MdpQcU8iPSUjWoN/UDMsK2sui9I=")
    }

    /// OAuth Core 1.0, appendix A.5: the same request with oauth_version,
    /// which the signer's header carries as is.
    @Test func signsOAuthCoreAppendixExample() throws {
        let signer = OAuthSigner(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44",
            token: "nnch734d00sl2jdk", tokenSecret: "pfkkdhi9sl3r4s00",
            clock: { Date(timeIntervalSince1970: 1_191_242_096) }, nonce: { "kllo9940pd9333jh" })
        let url = try #require(URL(string: "http://photos.example.net/photos?file=vacation.jpg&size=original"))
        let base = OAuthSigner.baseString(
            method: "GET", url: url,
            parameters: OAuthSigner.queryParameters(of: url)
                + signer.oauthParameters(method: "GET", url: url).filter { $0.0 != "oauth_signature" })
        #expect(base == "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal")
        let header = signer.authorizationHeader(method: "GET", url: url)
        #expect(header.0 == "Authorization")
        #expect(header.1.contains("oauth_signature=\"tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D\""))
    }

    @Test func percentEncodingKeepsOnlyUnreservedCharacters() {
        #expect(OAuthSigner.percentEncode("Ladies + Gentlemen") == "Ladies%20%2B%20Gentlemen")
        #expect(OAuthSigner.percentEncode("An encoded string!") == "An%20encoded%20string%21")
        #expect(OAuthSigner.percentEncode("Dogs, Cats & Mice") == "Dogs%2C%20Cats%20%26%20Mice")
        #expect(OAuthSigner.percentEncode("☃") == "%E2%98%83")
        #expect(OAuthSigner.percentEncode("-._~AZaz09*'()/") == "-._~AZaz09%2A%27%28%29%2F")
    }

    @Test func parametersSortByNameThenValueAndKeepDuplicates() {
        let normalized = OAuthSigner.normalizedParameters([("b", "2"), ("a", "z"), ("a", "a b"), ("a", "a"), ("b", "2")])
        #expect(normalized == "a=a&a=a%20b&a=z&b=2&b=2")
    }

    @Test func baseStringURIDropsDefaultPortsQueryAndCase() throws {
        #expect(OAuthSigner.baseStringURI(try #require(URL(string: "HTTP://Example.COM:80/r%20v/X?id=123"))) == "http://example.com/r%20v/X")
        #expect(OAuthSigner.baseStringURI(try #require(URL(string: "https://www.example.net:8080/?q=1"))) == "https://www.example.net:8080/")
        #expect(OAuthSigner.baseStringURI(try #require(URL(string: "https://api.flickr.com:443/services/rest/"))) == "https://api.flickr.com/services/rest/")
    }

    @Test func everyRequestHasAFreshNonceAndTheCurrentTime() throws {
        let signer = OAuthSigner(consumerKey: "k", consumerSecret: "s")
        let url = try #require(URL(string: "https://api.flickr.com/services/rest/"))
        let first = Dictionary(signer.oauthParameters(method: "GET", url: url), uniquingKeysWith: { $1 })
        let second = Dictionary(signer.oauthParameters(method: "GET", url: url), uniquingKeysWith: { $1 })
        #expect(first["oauth_nonce"] != second["oauth_nonce"])
        let stamp = try #require(first["oauth_timestamp"].flatMap(Double.init))
        #expect(abs(stamp - Date().timeIntervalSince1970) < 3_600)
    }

    @Test func signerNeverPrintsItsSecrets() {
        let signer = OAuthSigner(consumerKey: "key-1", consumerSecret: "consumer-secret-2", token: "token-3", tokenSecret: "token-secret-4")
        for text in [String(describing: signer), String(reflecting: signer), "\(Mirror(reflecting: signer).children.map { "\($0.value)" })"] {
            #expect(!text.contains("secret-2") && !text.contains("token-3") && !text.contains("secret-4"))
        }
    }
}
