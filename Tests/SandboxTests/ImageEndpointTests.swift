import PhotoCore
import Foundation
import Sandbox
import Testing

@Suite struct ImageEndpointTests {
    @Test func thumbnailIsAJPEGOfTheSizesDimensions() async throws {
        try await withSandbox { server, network in
            let photo = server.catalog.photo(at: 5)
            let response = try await network.get(server.imageURL(photo, .q))
            #expect(response.contentType == "image/jpeg")
            let dimensions = try #require(jpegDimensions(response.body))
            #expect(dimensions == (150, 150))
            #expect(response.body.suffix(2) == Data([0xFF, 0xD9]))
        }
    }

    @Test func everySizeHasTheAnnouncedDimensions() async throws {
        try await withSandbox { server, network in
            let portrait = try #require((0..<200).map(server.catalog.photo(at:)).first { $0.originalHeight > $0.originalWidth })
            for size in portrait.availableSizes {
                let body = try await network.get(server.imageURL(portrait, size)).body
                let dimensions = try #require(jpegDimensions(body), "\(size)")
                #expect(dimensions == portrait.dimensions(size), "\(size)")
            }
        }
    }

    @Test func fiveHundredPixelSizeHasNoSuffixAndLargeUsesB() {
        let photo = Catalog(photoCount: 10).photo(at: 0)
        #expect(photo.imagePath(.m) == "/\(photo.server)/\(photo.id)_\(photo.secret).jpg")
        #expect(photo.imagePath(.l).hasSuffix("_b.jpg"))
        #expect(photo.imagePath(.s).hasSuffix("_m.jpg"))
        #expect(photo.imagePath(.sq).hasSuffix("_s.jpg"))
    }

    @Test func imagesAreDeterministicAndDifferPerPhoto() async throws {
        try await withSandbox { server, network in
            let first = try await network.get(server.imageURL(server.catalog.photo(at: 1), .n)).body
            let again = try await network.get(server.imageURL(server.catalog.photo(at: 1), .n)).body
            let other = try await network.get(server.imageURL(server.catalog.photo(at: 2), .n)).body
            #expect(first == again)
            #expect(first != other)
        }
    }

    @Test func wrongSecretUnknownIDAndBadPathsAre404() async throws {
        try await withSandbox { server, network in
            let photo = server.catalog.photo(at: 3)
            let base = server.baseURL.absoluteString
            let urls = [
                "\(base)/\(photo.server)/\(photo.id)_0000000000_q.jpg",
                "\(base)/\(photo.server)/10000000001_\(photo.secret)_q.jpg",
                "\(base)/\(photo.server)/\(photo.id)_\(photo.secret)_x.jpg",
                "\(base)/\(photo.server)/\(photo.id)_\(photo.secret)_q.png",
                "\(base)/nothing/here",
            ]
            for url in urls {
                let target = try #require(URL(string: url))
                #expect(await network.status(target) == 404, "\(url)")
            }
        }
    }
}
