import Foundation
import Testing
@testable import PhotoCore
@testable import ShutterstockService

/// Credentials from the environment, and the promise that no description of
/// them, of the provider or of any error ever shows their values.
@Suite struct ShutterstockCredentialsTests {
    private let token = "v2/TOKEN-a1b2c3"
    private let key = "KEY-d4e5f6"
    private let secret = "SECRET-g7h8i9"

    @Test func noVariablesMeansNoCredentials() throws {
        #expect(try ShutterstockCredentials(environment: [:]) == nil)
        #expect(try ShutterstockCredentials(environment: ["FLICKR_API_KEY": "x"]) == nil)
    }

    @Test func tokenIsReadAndTrimmed() throws {
        let credentials = try #require(try ShutterstockCredentials(environment: ["SHUTTERSTOCK_API_TOKEN": " \(token)\n"]))
        #expect(credentials.authorization == "Bearer \(token)")
        #expect(credentials.kind == "API token")
    }

    @Test func keyAndSecretAreRead() throws {
        let credentials = try #require(try ShutterstockCredentials(environment: [
            "SHUTTERSTOCK_KEY": "my-key", "SHUTTERSTOCK_SECRET": "my-secret",
        ]))
        #expect(credentials.authorization == "Basic bXkta2V5Om15LXNlY3JldA==")
        #expect(credentials.kind == "consumer key and secret")
    }

    @Test func tokenWinsOverKeyAndSecret() throws {
        let credentials = try #require(try ShutterstockCredentials(environment: [
            "SHUTTERSTOCK_API_TOKEN": token, "SHUTTERSTOCK_KEY": key, "SHUTTERSTOCK_SECRET": secret,
        ]))
        #expect(credentials.authorization == "Bearer \(token)")
    }

    @Test(arguments: [
        (["SHUTTERSTOCK_API_TOKEN": ""], "SHUTTERSTOCK_API_TOKEN is set but empty"),
        (["SHUTTERSTOCK_API_TOKEN": "  \n"], "SHUTTERSTOCK_API_TOKEN is set but empty"),
        (["SHUTTERSTOCK_KEY": "k"], "SHUTTERSTOCK_KEY is set but SHUTTERSTOCK_SECRET is not"),
        (["SHUTTERSTOCK_SECRET": "s"], "SHUTTERSTOCK_SECRET is set but SHUTTERSTOCK_KEY is not"),
        (["SHUTTERSTOCK_KEY": "", "SHUTTERSTOCK_SECRET": "s"], "SHUTTERSTOCK_KEY is set but empty"),
        (["SHUTTERSTOCK_KEY": "k", "SHUTTERSTOCK_SECRET": " "], "SHUTTERSTOCK_SECRET is set but empty"),
        (["SHUTTERSTOCK_KEY": "a:b", "SHUTTERSTOCK_SECRET": "s"], "contains “:”"),
    ])
    func incompleteCredentialsNameTheVariable(_ environment: [String: String], _ expected: String) throws {
        let error = try #require(throws: ShutterstockError.self) { try ShutterstockCredentials(environment: environment) }
        guard case .credentials(let reason) = error else {
            Issue.record("expected .credentials, got \(error)")
            return
        }
        #expect(reason.contains(expected), "\(reason)")
    }

    @Test func emptyValuesAreRefusedByTheFactoriesToo() {
        #expect(throws: ShutterstockError.self) { try ShutterstockCredentials.token("") }
        #expect(throws: ShutterstockError.self) { try ShutterstockCredentials.key("k", secret: "") }
        #expect(throws: ShutterstockError.self) { try ShutterstockCredentials.key(" ", secret: "s") }
    }

    // MARK: - Secrecy

    /// Every text a value could show: description, debug description, a dump
    /// through its mirror, and interpolation.
    private func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped, "\(value)"]
    }

    /// The values, and the first eight characters of each (what a cut to
    /// length could leave behind).
    private var forbidden: [String] {
        let whole = [token, key, secret, Data("\(key):\(secret)".utf8).base64EncodedString()]
        return whole + whole.map { String($0.prefix(8)) }
    }

    private func expectClean(_ value: Any, _ label: String) {
        for text in renderings(value) {
            for secret in forbidden {
                #expect(!text.contains(secret), "\(label) shows a credential: \(text)")
            }
        }
    }

    @Test func credentialsNeverShowTheirValues() throws {
        let bearer = try ShutterstockCredentials.token(token)
        let basic = try ShutterstockCredentials.key(key, secret: secret)
        expectClean(bearer, "token credentials")
        expectClean(basic, "key credentials")
        #expect(String(describing: bearer).contains("API token"))
        #expect(String(describing: basic).contains("[redacted]"))
    }

    @Test func providerNeverShowsTheCredentials() throws {
        for credentials in [try ShutterstockCredentials.token(token), try .key(key, secret: secret)] {
            let provider = ShutterstockProvider(credentials: credentials, network: ShutterstockRequestTests.idleNetwork)
            expectClean(provider, "provider")
            #expect(String(describing: provider).contains("api.shutterstock.com"))
        }
    }

    /// Server text that echoes a credential is scrubbed before it reaches any
    /// error, whichever case the status picks, and before it is cut to length.
    @Test func errorsNeverShowTheCredentials() throws {
        let secrets = try ShutterstockCredentials.key(key, secret: secret).secrets + ShutterstockCredentials.token(token).secrets
        let echo = "you sent \(token) and \(key):\(secret) as \(Data("\(key):\(secret)".utf8).base64EncodedString())"
        // Long enough that a cut to length would fall inside the echoed token.
        let padded = String(repeating: "x", count: ShutterstockError.serverMessageLimit - "you sent ".count - 8) + echo
        var errors: [ShutterstockError] = []
        for text in [echo, padded] {
            let json = try JSONSerialization.data(withJSONObject: ["message": text])
            for status in [400, 401, 403, 404, 429, 500, 503] {
                errors.append(ShutterstockError.http(status: status, body: json, redacting: secrets))
                errors.append(ShutterstockError.http(status: status, contentType: "text/html", body: Data("<h1>\(text)</h1>".utf8), redacting: secrets))
            }
            errors.append(ShutterstockError.malformedResponse(text).redacting(secrets))
            errors.append(ShutterstockError.network(.other(text, host: "h")).redacting(secrets))
        }
        for environment in [["SHUTTERSTOCK_KEY": key], ["SHUTTERSTOCK_SECRET": secret], ["SHUTTERSTOCK_API_TOKEN": ""]] {
            do {
                _ = try ShutterstockCredentials(environment: environment)
                Issue.record("\(environment.keys) should not make credentials")
            } catch {
                errors.append(error)
            }
        }
        #expect(errors.count == 35)
        for error in errors { expectClean(error, "an error") }
        #expect(errors.contains { $0.description.contains("[redacted]") }, "the echo was there to scrub")
    }

    @Test func malformedAnswerEchoingTheTokenIsScrubbed() throws {
        let credentials = try ShutterstockCredentials.token(token)
        let body = Data("<html><h1>Bad token \(token)</h1></html>".utf8)
        let error = try #require(throws: ShutterstockError.self) { try ShutterstockResponseDecoder.decodeSearch(body) }
        #expect(error.description.contains(token), "precondition: the page echoes the token")
        expectClean(error.redacting(credentials.secrets), "scrubbed error")
    }
}
