import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking

/// `SecretRedactor` catches a secret however a URL, body or header spelled it.
@Suite struct SecretRedactorTests {
    /// Keys with the characters that percent-encoding, form encoding and
    /// JSON escaping each treat differently.
    static let awkwardKeys = ["ab/cd ef+gh", "k3y+with/slash", "sp ace", "plain0123456789abcdef"]

    @Test(arguments: awkwardKeys)
    func everySpellingOfTheKeyIsRedacted(_ key: String) throws {
        let redactor = SecretRedactor(key)
        var components = try #require(URLComponents(string: "https://api.flickr.com/services/rest/"))
        components.queryItems = [URLQueryItem(name: "api_key", value: key), URLQueryItem(name: "method", value: "m")]
        let componentsQuery = try #require(components.percentEncodedQuery)
        let strict = try #require(key.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let spellings = [
            "raw \(key) here",
            "query ?\(componentsQuery)",
            "query with plus fixed ?\(componentsQuery.replacingOccurrences(of: "+", with: "%2B"))",
            "strict \(strict) and lower-case hex \(strict.lowercased())",
            "form \(strict.replacingOccurrences(of: "%20", with: "+"))",
            "spaces as plus \(key.replacingOccurrences(of: " ", with: "+"))",
            #"json {"api_key":{"_content":"\#(key.replacingOccurrences(of: "/", with: "\\/"))"}}"#,
            "xml <api_key>\(key.replacingOccurrences(of: "&", with: "&amp;"))</api_key>",
        ]
        for text in spellings {
            let redacted = redactor.redact(text)
            #expect(redacted.contains(SecretRedactor.placeholder), "nothing redacted in: \(text)")
            #expect(!redacted.contains(key), "raw key left in: \(redacted)")
            #expect(!redacted.contains(strict), "encoded key left in: \(redacted)")
            #expect(!redacted.lowercased().contains(strict.lowercased()), "encoded key left in: \(redacted)")
        }
    }

    /// Encoders disagree on "/" and "+" beside a space: each mix is caught.
    @Test(arguments: ["ab/cd ef+gh", "a/b c"])
    func keysWithASlashAndASpaceAreRedactedInEveryMix(_ key: String) {
        let redactor = SecretRedactor(key)
        func spelled(space: String, slash: String, plus: String) -> String {
            key.replacingOccurrences(of: "+", with: plus).replacingOccurrences(of: " ", with: space)
                .replacingOccurrences(of: "/", with: slash)
        }
        var spellings: [String] = []
        for space in [" ", "+", "%20"] {
            for slash in ["/", "%2F", "%2f"] {
                for plus in ["+", "%2B", "%2b"] where !(space == "+" && plus == "+") {
                    spellings.append(spelled(space: space, slash: slash, plus: plus))
                }
            }
        }
        spellings += [spelled(space: " ", slash: "&#x2F;", plus: "+"), spelled(space: " ", slash: "&#47;", plus: "+"),
                      spelled(space: " ", slash: "\\u002F", plus: "\\u002B")]
        for spelling in spellings {
            let text = "GET /services/rest/?method=m&key=\(spelling)&format=json"
            let redacted = redactor.redact(text)
            #expect(redacted == "GET /services/rest/?method=m&key=[redacted]&format=json", "\(spelling) → \(redacted)")
        }
    }

    @Test func basicCredentialsOfAKeyAndSecretAreRedacted() {
        let key = "consumer/key+1"
        let secret = "s3cr et"
        let redactor = SecretRedactor(key, secret)
        let credential = Data("\(key):\(secret)".utf8).base64EncodedString()
        // Not after "Authorization:", so only the pair's own spelling can catch it.
        let redacted = redactor.redact("sent credential \(credential) to the server")
        #expect(!redacted.contains(credential))
        #expect(redacted == "sent credential [redacted] to the server")
    }

    @Test func credentialHeadersAndParametersAreRedactedWhateverTheyHold() {
        let redactor = SecretRedactor(secrets: [])
        let text = """
            Authorization: Bearer v2/abcdefghijklmnop
            authorization: Basic dXNlcjpwYXNz
            GET /services/rest/?method=x&api_key=unknownkey123&format=json
            {"client_secret": "hidden-value"}
            """
        let redacted = redactor.redact(text)
        for leaked in ["v2/abcdefghijklmnop", "dXNlcjpwYXNz", "unknownkey123", "hidden-value"] {
            #expect(!redacted.contains(leaked), "\(leaked) left in: \(redacted)")
        }
        #expect(redacted.contains("method=x&api_key=[redacted]&format=json"))
    }

    @Test func textWithoutSecretsIsUnchanged() {
        let text = "Flickr error 18: Illogical arguments (100% sure, a+b/c)"
        #expect(SecretRedactor("abc123secret").redact(text) == text)
        #expect(SecretRedactor(secrets: []).redact(text) == text)
        #expect(SecretRedactor("").redact(text) == text)
    }

    @Test func aLongerSpellingIsReplacedWhole() {
        let redactor = SecretRedactor("a b")
        #expect(redactor.redact("x=a%20b&y") == "x=[redacted]&y")
        #expect(redactor.redact("x=a+b&y") == "x=[redacted]&y")
    }

    @Test func theRedactorNeverPrintsItsSecrets() {
        let redactor = SecretRedactor("SECRETKEY123")
        var dumped = ""
        dump(redactor, to: &dumped)
        for text in [String(describing: redactor), String(reflecting: redactor), dumped] {
            #expect(!text.contains("SECRETKEY123"))
        }
    }

    @Test func flickrErrorsAreRedactedInEveryCase() {
        let key = "ab/cd+ef"
        let encoded = "ab%2Fcd%2Bef"
        let errors: [FlickrError] = [
            .api(code: 100, message: "bad key \(key)"),
            .malformedResponse("it begins “api_key=\(encoded)”"),
            .invalidRequest(key),
            .network(.other("GET /?api_key=\(encoded) failed", host: "h")),
            .network(.invalidURL("x?api_key=\(key)")),
            .network(.tlsFailure("bad \(key)", host: "h")),
        ]
        for error in errors {
            let redacted = error.redacting(SecretRedactor(key))
            #expect(!redacted.description.contains(key))
            #expect(!redacted.description.contains(encoded))
            #expect(!String(reflecting: redacted).contains(key))
        }
    }
}
