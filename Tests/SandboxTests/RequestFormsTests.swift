@testable import PhotoCore
@testable import FlickrService
import Foundation
import Sandbox
import Testing

/// How calls reach `/services/rest/`: methods, key sources, formats.
@Suite struct RequestFormsTests {
    @Test func noFormatAnswersXMLLikeFlickr() async throws {
        try await withSandbox { server, _ in
            let answer = try await http(.GET, server.rest(["method": "flickr.test.echo", "api_key": "k", "x": "1"]))
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "content-type") == "text/xml; charset=utf-8")
            #expect(answer.text.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<rsp stat=\"ok\">"))
        }
    }

    @Test func keyIsTakenFromEveryPlaceFlickrReadsIt() async throws {
        try await withSandbox { $0.requiredAPIKey = "0123456789abcdef0123456789abcdef" } _: { server, _ in
            let key = "0123456789abcdef0123456789abcdef"
            let base = ["method": "flickr.test.echo", "format": "json", "nojsoncallback": "1"]
            let byQuery = try await http(.GET, server.rest(base.merging(["api_key": key]) { $1 })).json()
            let byConsumerKey = try await http(.GET, server.rest(base.merging(["oauth_consumer_key": key]) { $1 })).json()
            let byForm = try await http(.POST, server.restURL, form: base.map { ($0.key, $0.value) } + [("api_key", key)]).json()
            let byFormConsumerKey = try await http(
                .POST, server.restURL, form: base.map { ($0.key, $0.value) } + [("oauth_consumer_key", key)]).json()
            let byHeader = try await http(
                .POST, server.restURL,
                headers: [("Authorization", "OAuth oauth_consumer_key=\"\(key)\"")],
                form: base.map { ($0.key, $0.value) }).json()
            for response in [byQuery, byConsumerKey, byForm, byFormConsumerKey, byHeader] {
                #expect(response["stat"] as? String == "ok")
                #expect(response["oauth_consumer_key"] == nil && response["api_key"] == nil)
            }
        }
    }

    @Test func postedFormParametersDriveTheCall() async throws {
        try await withSandbox { server, _ in
            let response = try await http(.POST, server.restURL, form: [
                ("method", "flickr.photos.search"), ("api_key", "k"), ("text", "red car"), ("per_page", "4"),
                ("format", "json"), ("nojsoncallback", "1"),
            ]).json()
            let ids = photos(in: response).compactMap { $0["id"] as? String }
            #expect(ids == server.catalog.search(text: "red car").prefix(4).map { server.catalog.photo(at: $0).id })
        }
    }

    @Test func wellFormedButUnknownKeyIsNotFound() async throws {
        try await withSandbox { $0.requiredAPIKey = "0123456789abcdef0123456789abcdef" } _: { server, _ in
            let unknown = try await http(.GET, server.jsonCall("flickr.test.echo", ["api_key": String(repeating: "a", count: 32)])).json()
            #expect(unknown["code"] as? Int == 100)
            #expect(unknown["message"] as? String == "Invalid API Key (Key not found)")
            let malformed = try await http(.GET, server.jsonCall("flickr.test.echo", ["api_key": "short"])).json()
            #expect(malformed["message"] as? String == "Invalid API Key (Key has invalid format)")
        }
    }

    @Test func oauthValuesAndKeysStayOutOfTheLog() async throws {
        try await withSandbox { server, _ in
            _ = try await http(.GET, server.rest([
                "method": "flickr.test.echo", "oauth_consumer_key": "ck-secret", "oauth_signature": "sig-secret",
                "api_sig": "apisig-secret",
            ]))
            try await settled(server)
            let logged = try #require(server.requestLog().last?.path)
            #expect(logged.contains("method=flickr.test.echo"))
            #expect(!logged.contains("secret"))
        }
    }

    @Test func apiErrorFaultAnswersFlickrError105InTheCallsFormat() async throws {
        try await withSandbox({ configuration in
            configuration.faults.kind = .apiError
            configuration.faults.rate = 1
            configuration.faults.scope = .all
        }) { server, network in
            let json = try await http(.GET, server.jsonCall("flickr.photos.search", ["text": "kittens"]))
            #expect(json.status == 200)
            let response = try json.json()
            #expect(response["stat"] as? String == "fail")
            #expect(response["code"] as? Int == 105)
            #expect(response["message"] as? String == "Service currently unavailable")
            let xml = try await http(.GET, server.rest(["method": "flickr.test.echo", "api_key": "k"]))
            let error = try #require(try FlickrXMLReader.parse(Data(xml.text.utf8)).children(named: "err").first)
            #expect(error.attributes["code"] == "105")
            // Images have no API error of their own: they get the status fault.
            #expect(await network.status(server.imageURL(server.catalog.photo(at: 0), .q)) == 503)
        }
    }
}
