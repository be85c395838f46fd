import Foundation
import Sandbox
import Testing

/// Each imitated service registers its routes; an API owns its path
/// prefix, so an API path shaped like another service's image file stays
/// the API's (and is counted as an API call).
@Suite struct RoutingTests {
    @Test func anAPIPathShapedLikeAFlickrPhotoIsTheAPIs() async throws {
        try await withSandbox { server, _ in
            let shutterstock = try await http(.GET, server.baseURL.appendingPathComponent("v2/1_abc.jpg"))
            #expect(shutterstock.status == 404)
            #expect(try shutterstock.json()["message"] as? String == "Not Found", "Shutterstock's own JSON: \(shutterstock.text)")
            let openverse = try await http(.GET, server.baseURL.appendingPathComponent("v1/1_abc.jpg"))
            #expect(openverse.headers.first(name: "Content-Type") == "application/json", "Openverse's own answer: \(openverse.text)")
            let stats = server.stats()
            #expect(stats.restRequests == 2 && stats.imageRequests == 0, "\(stats)")
        }
    }

    @Test func everyServiceAnswersItsOwnPathsAndNothingElseAnswersOthers() async throws {
        try await withSandbox { server, _ in
            let photo = server.catalog.photo(at: 2)
            let flickr = try await http(.GET, server.imageURL(photo, .q))
            #expect(flickr.status == 200 && flickr.headers.first(name: "Content-Type") == "image/jpeg")
            let rest = try await http(.GET, server.restURL.appending(queryItems: [
                .init(name: "method", value: "flickr.test.echo"), .init(name: "api_key", value: "k"),
            ]))
            #expect(rest.status == 200 && rest.text.contains("flickr.test.echo"), "\(rest.text)")
            let nobody = try await http(.GET, server.baseURL.appendingPathComponent("nobody/serves/this"))
            #expect(nobody.status == 404)
            #expect(server.requestLog().last?.kind == "other", "\(server.requestLog())")
        }
    }
}
