import Foundation
import Testing
@testable import PhotoCore
@testable import ShutterstockService

/// Each status and each kind of error body becomes an error a person can act
/// on, quoting the server briefly and cleanly.
@Suite struct ShutterstockErrorTests {
    @Test func recorded401SaysWhichVariablesToSet() throws {
        let body = try ShutterstockRecorded.data(ShutterstockRecorded.unauthorized401)
        let error = ShutterstockError.http(status: 401, contentType: "application/json; charset=utf8", body: body)
        #expect(error == .http(.unauthorized(serverMessage: "Invalid access token")))
        #expect(error.description.contains("“Invalid access token”"))
        for variable in ["SHUTTERSTOCK_API_TOKEN", "SHUTTERSTOCK_KEY", "SHUTTERSTOCK_SECRET"] {
            #expect(error.description.contains(variable))
        }
        #expect(!error.isTransient)
    }

    @Test func recorded404PointsAtTheAddress() throws {
        let body = try ShutterstockRecorded.data(ShutterstockRecorded.notFound404)
        let error = ShutterstockError.http(status: 404, contentType: "application/json; charset=utf8", body: body)
        #expect(error == .http(.rejected(status: 404, serverMessage: "Not Found")))
        #expect(error.description.contains("--api-url"))
        let lightbox = ShutterstockError.http(status: 404, body: try ShutterstockRecorded.data(ShutterstockRecorded.lightbox404))
        #expect(lightbox == .http(.rejected(status: 404, serverMessage: "Featured lightbox not found")))
    }

    @Test func recordedHTML400QuotesItsHeadline() throws {
        let body = try ShutterstockRecorded.data(ShutterstockRecorded.html400)
        let error = ShutterstockError.http(status: 400, contentType: "text/html", body: body)
        #expect(error == .http(.rejected(status: 400, serverMessage: "An error occurred.")))
        #expect(error.description == "Shutterstock refused the search as invalid (HTTP 400: “An error occurred.”).")
        // The same page without a content type is still recognised as HTML.
        #expect(ShutterstockError.http(status: 400, body: body) == error)
    }

    @Test func validationErrorsListEachProblem() {
        let body = #"{"message":"Validation failed","errors":[{"code":"VALIDATION_ERROR","message":"per_page must be an integer from 1 to 500","path":"$.query.per_page"},{"code":"VALIDATION_ERROR","message":"sort must be one of popular, newest","path":"$.query.sort"}]}"#
        let error = ShutterstockError.http(status: 400, body: Data(body.utf8))
        #expect(error == .http(.rejected(status: 400, serverMessage:
            "Validation failed; per_page must be an integer from 1 to 500 ($.query.per_page); sort must be one of popular, newest ($.query.sort)")))
    }

    @Test func errorsWithoutAMessageFallBackToTheirCode() {
        let body = #"{"errors":[{"code":"INTERNAL"}]}"#
        #expect(ShutterstockError.http(status: 400, body: Data(body.utf8)) == .http(.rejected(status: 400, serverMessage: "INTERNAL")))
    }

    @Test func forbiddenSaysTheAccountMayNot() {
        let body = #"{"message":"You do not have access to this route. Please contact api@shutterstock.com for more information"}"#
        let error = ShutterstockError.http(status: 403, body: Data(body.utf8))
        guard case .http(.forbidden(let message?)) = error else {
            Issue.record("expected .forbidden with a message, got \(error)")
            return
        }
        #expect(message.hasPrefix("You do not have access to this route."))
        #expect(error.description.contains("does not allow this account"))
        #expect(!error.isTransient)
    }

    @Test func rateLimitCarriesRetryAfterSeconds() {
        let error = ShutterstockError.http(status: 429, retryAfter: "7", body: Data(#"{"message":"Too Many Requests"}"#.utf8))
        #expect(error == .http(.rateLimited(retryAfter: .seconds(7), serverMessage: "Too Many Requests")))
        #expect(error.retryAfter == .seconds(7))
        #expect(error.isTransient)
        #expect(error.description.contains("Try again in 7 seconds."))
    }

    @Test func rateLimitReadsAnHTTPDate() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2019-01-06T21:17:18Z"))
        let error = ShutterstockError.http(status: 429, retryAfter: "Sun, 06 Jan 2019 21:18:48 GMT", now: now)
        #expect(error.retryAfter == .seconds(90))
        let past = ShutterstockError.http(status: 429, retryAfter: "Sun, 06 Jan 2019 21:00:00 GMT", now: now)
        #expect(past.retryAfter == .seconds(0))
    }

    @Test func rateLimitWithoutOrWithAGarbledRetryAfterHasNoWait() {
        #expect(ShutterstockError.http(status: 429).retryAfter == nil)
        #expect(ShutterstockError.http(status: 429, retryAfter: "soon").retryAfter == nil)
        #expect(ShutterstockError.http(status: 429).description.contains("Wait a moment"))
    }

    @Test(arguments: [500, 502, 503, 504])
    func serverErrorsAreTransient(_ status: Int) {
        let error = ShutterstockError.http(status: status, body: Data("Bad gateway\n".utf8))
        #expect(error == .http(.serverError(status: status, serverMessage: "Bad gateway")))
        #expect(error.isTransient)
        #expect(error.description.contains("Try again in a few minutes"))
    }

    @Test func emptyBodiesLeaveNoQuote() {
        #expect(ShutterstockError.http(status: 401, body: Data()) == .http(.unauthorized(serverMessage: nil)))
        #expect(ShutterstockError.http(status: 401, body: Data("{}".utf8)) == .http(.unauthorized(serverMessage: nil)))
        #expect(ShutterstockError.http(status: 500).description == "Shutterstock had a problem answering (HTTP 500). Try again in a few minutes.")
    }

    @Test func serverTextIsCutShortAndFreeOfControlCharacters() throws {
        let noisy = "\u{1B}[31mred\u{07}\r\nline\u{202E}two " + String(repeating: "long ", count: 200)
        let body = try JSONSerialization.data(withJSONObject: ["message": noisy])
        let error = ShutterstockError.http(status: 400, body: body)
        guard case .http(.rejected(_, let message?)) = error else {
            Issue.record("expected a message, got \(error)")
            return
        }
        #expect(message.count <= ShutterstockError.serverMessageLimit + 1)
        #expect(message.hasSuffix("…"))
        #expect(message.hasPrefix("[31mred line two long"))
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{7F}" || $0 == "\u{202E}" })
    }

    @Test func transportFailuresStayNetworkErrors() {
        #expect(ShutterstockProvider.error(from: .timedOut(host: "h"), redacting: []) == .network(.timedOut(host: "h")))
        #expect(ShutterstockProvider.error(from: .timedOut(host: "h"), redacting: []).isTransient)
        #expect(ShutterstockProvider.error(from: .notConnected(host: "h"), redacting: []).isOffline)
        #expect(ShutterstockProvider.error(from: .httpStatus(401, host: "h"), redacting: []) == .http(.unauthorized(serverMessage: nil)))
        #expect(ShutterstockProvider.error(from: .httpStatus(429, host: "h"), redacting: []).isTransient)
        #expect(ShutterstockProvider.error(from: .httpStatus(408, host: "h"), redacting: []).isTransient)
        #expect(!ShutterstockProvider.error(from: .httpStatus(404, host: "h"), redacting: []).isTransient)
    }
}
