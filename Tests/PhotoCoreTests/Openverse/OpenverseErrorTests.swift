import Foundation
import Testing
@testable import PhotoCore
@testable import Networking
@testable import OpenverseService

/// What a person reads for each way an Openverse call can fail.
@Suite struct OpenverseErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var status: Int
        var body: String
        var authenticated = false
        var page: Int? = nil
        var retryAfter: String? = nil
        /// Pieces the sentence must hold.
        var says: [String]
        var transient: Bool

        var testDescription: String { "HTTP \(status) \(body.prefix(30))" }
    }

    static let cases: [Case] = [
        Case(status: 401, body: #"{"detail":"Authentication credentials were not provided."}"#,
             says: ["Openverse", "HTTP 401", "Openverse allows at most 20 per page without credentials: use --per-page 20 or set OPENVERSE_CLIENT_ID and OPENVERSE_CLIENT_SECRET"],
             transient: false),
        Case(status: 401, body: #"{"detail":"Token has expired."}"#, authenticated: true,
             says: ["refused the access token", "Token has expired.", "OPENVERSE_CLIENT_ID"], transient: false),
        Case(status: 400, body: #"{"detail":"Invalid page."}"#, page: 21,
             says: ["Page 21 is past the last page Openverse serves", "Invalid page."], transient: false),
        Case(status: 400, body: #"{"page":["Ensure this value is less than or equal to 20."]}"#, page: 21,
             says: ["past the last page", "page: Ensure this value"], transient: false),
        Case(status: 400, body: #"{"detail":{"page_size":["Ensure this value is less than or equal to 500."]}}"#,
             says: ["refused the search as invalid", "page_size: Ensure this value is less than or equal to 500."], transient: false),
        Case(status: 400, body: #"{"license":["Select a valid choice."],"aspect_ratio":["\"round\" is not a valid choice."]}"#,
             says: ["refused the search as invalid", "aspect_ratio: \"round\" is not a valid choice.; license: Select a valid choice."],
             transient: false),
        Case(status: 429, body: #"{"detail":"Request was throttled. Expected available in 3600 seconds."}"#,
             says: ["limiting", "HTTP 429", "Try again in 1 hour."], transient: true),
        Case(status: 429, body: #"{"detail":"Request was throttled."}"#, retryAfter: "45",
             says: ["Try again in 45 seconds."], transient: true),
        Case(status: 429, body: "", says: ["Wait a while and try again."], transient: true),
        Case(status: 500, body: #"{"detail":"Internal Server Error"}"#,
             says: ["Openverse had a problem answering (HTTP 500: “Internal Server Error”)"], transient: true),
        Case(status: 503, body: "<html><title>Service Unavailable</title></html>",
             says: ["HTTP 503: “Service Unavailable”"], transient: true),
        Case(status: 404, body: #"{"detail":"Not found."}"#, says: ["no such address", "OPENVERSE_API_URL"], transient: false),
        Case(status: 403, body: #"{"detail":"You do not have permission to perform this action."}"#,
             says: ["does not allow", "permission"], transient: false),
        Case(status: 418, body: "short and stout", says: ["refused the request (HTTP 418: “short and stout”)"], transient: false),
    ]

    @Test(arguments: cases)
    func statusAndBodyBecomeASentence(_ test: Case) {
        let error = OpenverseError.http(
            status: test.status, retryAfter: test.retryAfter, body: Data(test.body.utf8),
            authenticated: test.authenticated, page: test.page)
        for piece in test.says {
            #expect(error.description.contains(piece), "“\(piece)” in: \(error.description)")
        }
        #expect(error.isTransient == test.transient)
        #expect(userMessage(for: error) == error.description, "UserMessage knows OpenverseError")
    }

    /// A network failure reads as NetworkError's own sentence; one that says
    /// the API cannot be reached adds how to try Openverse offline.
    @Test func networkErrorsReadAsNetworkErrorsDo() {
        let refused = OpenverseError.from(.connectionRefused(host: "127.0.0.1:9"), authenticated: false, redacting: [])
        #expect(refused.description.hasPrefix(NetworkError.connectionRefused(host: "127.0.0.1:9").description))
        #expect(refused.description.hasSuffix("run `flickr sandbox --port 8080` and pass `--api-url http://127.0.0.1:8080`."))
        let cut = OpenverseError.from(.connectionLost(host: "h"), authenticated: false, redacting: [])
        #expect(cut.description == NetworkError.connectionLost(host: "h").description)
        #expect(OpenverseError.from(.httpStatus(401, host: "h"), authenticated: false, redacting: [])
            == .unauthorized(anonymous: true, serverMessage: nil))
        #expect(OpenverseError.from(.retryLater(status: 429, after: .seconds(5), host: "h"), authenticated: false, redacting: []).retryAfter
            == .seconds(5))
    }

    @Test func expiredTokenIsToldApartFromAWrongOne() {
        #expect(OpenverseError.unauthorized(anonymous: false, serverMessage: "Token has expired.").isExpiredToken)
        #expect(OpenverseError.unauthorized(anonymous: false, serverMessage: nil).isExpiredToken)
        #expect(OpenverseError.unauthorized(anonymous: false, serverMessage: "Invalid token.").isExpiredToken)
        #expect(!OpenverseError.unauthorized(anonymous: true, serverMessage: "Token has expired.").isExpiredToken)
        #expect(!OpenverseError.tokenRefused(status: 401, serverMessage: "invalid_client").isExpiredToken)
    }

    @Test func secretsEchoedByTheServerAreRedactedEverywhere() {
        let secret = "s3cr3t+/client==value"
        let token = "tok_ABCdef123456"
        let secrets = [secret, token]
        let bodies = [
            #"{"detail":"bad client_secret s3cr3t+/client==value and token tok_ABCdef123456"}"#,
            #"{"client_secret":["s3cr3t%2B%2Fclient%3D%3Dvalue is wrong"]}"#,
            "<html><h1>Authorization: Bearer tok_ABCdef123456</h1></html>",
        ]
        for status in [400, 401, 429, 500] {
            for body in bodies {
                let error = OpenverseError.http(status: status, body: Data(body.utf8), authenticated: true, redacting: secrets)
                for text in [error.description, String(describing: error), String(reflecting: error), userMessage(for: error)] {
                    #expect(!text.contains(secret) && !text.contains(token) && !text.contains("s3cr3t"), "\(text)")
                }
            }
        }
        let malformed = OpenverseError.malformedResponse("it begins tok_ABCdef123456").redacting(secrets)
        #expect(!malformed.description.contains(token))
        let other = OpenverseError.network(.other("echo s3cr3t+/client==value", host: "h")).redacting(secrets)
        #expect(!other.description.contains(secret))
    }

    @Test func durationsReadNaturally() {
        #expect(ServerWait.phrase(.seconds(1)) == "1 second")
        #expect(ServerWait.phrase(.seconds(90)) == "90 seconds")
        #expect(ServerWait.phrase(.seconds(600)) == "10 minutes")
        #expect(ServerWait.phrase(.seconds(3600)) == "1 hour")
        #expect(ServerWait.phrase(.seconds(86_400)) == "24 hours")
    }

    @Test func throttleWaitIsReadFromTheDetail() {
        #expect(OpenverseErrorBody.throttleWait(in: "Request was throttled. Expected available in 3600 seconds.") == .seconds(3600))
        #expect(OpenverseErrorBody.throttleWait(in: "Request was throttled.") == nil)
        #expect(OpenverseErrorBody.throttleWait(in: "available in 99999999999999999999999 seconds") == .seconds(Int64(Int32.max)))
    }
}
