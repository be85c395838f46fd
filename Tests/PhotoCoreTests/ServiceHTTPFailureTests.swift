import Foundation
import Testing
@testable import Networking
@testable import OpenverseService
@testable import ShutterstockService

/// The HTTP failures Shutterstock and Openverse share are mapped and worded
/// once (`ServiceHTTPFailure`), each service filling in its own words: every
/// sentence is pinned here as each service said it before they were shared.
@Suite struct ServiceHTTPFailureTests {
    @Test func statusesMapToOneCaseEach() {
        #expect(ServiceHTTPFailure(status: 401, retryAfter: .seconds(5), serverMessage: "m") == .unauthorized(serverMessage: "m"))
        #expect(ServiceHTTPFailure(status: 403, retryAfter: nil, serverMessage: nil) == .forbidden(serverMessage: nil))
        #expect(ServiceHTTPFailure(status: 429, retryAfter: .seconds(5), serverMessage: nil)
            == .rateLimited(retryAfter: .seconds(5), serverMessage: nil))
        #expect(ServiceHTTPFailure(status: 503, retryAfter: .seconds(5), serverMessage: nil) == .serverError(status: 503, serverMessage: nil))
        #expect(ServiceHTTPFailure(status: 418, retryAfter: nil, serverMessage: nil) == .rejected(status: 418, serverMessage: nil))
        let transient = [401, 403, 404, 408, 429, 500, 599].filter {
            ServiceHTTPFailure(status: $0, retryAfter: nil, serverMessage: nil).isTransient
        }
        #expect(transient == [408, 429, 500, 599])
        let redacted = ServiceHTTPFailure.rejected(status: 400, serverMessage: "key=SECRET1").redacting(SecretRedactor("SECRET1"))
        #expect(redacted.serverMessage?.contains("SECRET1") == false)
    }

    @Test func shutterstockSaysWhatItSaid() {
        let credentials = "Set SHUTTERSTOCK_API_TOKEN to a valid API token, or SHUTTERSTOCK_KEY and SHUTTERSTOCK_SECRET to your app's consumer key and secret."
        let said: [(ShutterstockError, String)] = [
            (.http(status: 401, body: Data(#"{"message":"m"}"#.utf8)), "Shutterstock refused the credentials (HTTP 401: “m”). \(credentials)"),
            (.http(status: 403), "Shutterstock does not allow this account to search images (HTTP 403). Check the app's products and permissions on Shutterstock's developer site."),
            (.http(status: 429, retryAfter: "7"), "Shutterstock is limiting how fast this app may ask (HTTP 429). Try again in 7 seconds."),
            (.http(status: 429), "Shutterstock is limiting how fast this app may ask (HTTP 429). Wait a moment and try again."),
            (.http(status: 502), "Shutterstock had a problem answering (HTTP 502). Try again in a few minutes."),
            (.http(status: 404), "Shutterstock has no such address (HTTP 404). Check that --api-url (or SHUTTERSTOCK_API_URL) is the API's base URL, such as https://api.shutterstock.com."),
            (.http(status: 400), "Shutterstock refused the search as invalid (HTTP 400)."),
            (.http(status: 418), "Shutterstock refused the request (HTTP 418)."),
        ]
        for (error, sentence) in said {
            #expect(error.description == sentence)
        }
    }

    @Test func openverseSaysWhatItSaid() {
        let registered = "Registered apps (OPENVERSE_CLIENT_ID and OPENVERSE_CLIENT_SECRET) get higher limits."
        let said: [(OpenverseError, String)] = [
            (.http(status: 403), "Openverse does not allow this request (HTTP 403)."),
            (.http(status: 429, retryAfter: "90"), "Openverse is limiting how often this app may ask (HTTP 429). Try again in 90 seconds. \(registered)"),
            (.http(status: 429), "Openverse is limiting how often this app may ask (HTTP 429). Wait a while and try again. \(registered)"),
            (.http(status: 500), "Openverse had a problem answering (HTTP 500). Try again in a few minutes."),
            (.http(status: 404), "Openverse has no such address (HTTP 404). Check that --api-url (or OPENVERSE_API_URL) is the API's base URL, such as https://api.openverse.org."),
            (.http(status: 400), "Openverse refused the search as invalid (HTTP 400)."),
            (.http(status: 410), "Openverse refused the request (HTTP 410)."),
        ]
        for (error, sentence) in said {
            #expect(error.description == sentence)
        }
    }
}
