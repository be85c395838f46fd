import Foundation
import Networking
import Sandbox
import Testing

/// The sandbox narrows `flickr.photos.search` as Flickr does, and answers
/// the user lookups and the licence list.
@Suite struct FlickrFilterTests {
    private func photos(_ response: [String: Any]) -> [[String: Any]] {
        (response["photos"] as? [String: Any])?["photo"] as? [[String: Any]] ?? []
    }

    private func search(_ server: SandboxServer, _ network: NetworkManager, _ parameters: [String: String]) async throws -> [[String: Any]] {
        photos(try await network.json(server.jsonCall("flickr.photos.search", [
            "text": "sunset", "per_page": "100", "extras": "license,date_taken,date_upload",
        ].merging(parameters) { $1 })))
    }

    @Test func licenceIdsNarrowTheResults() async throws {
        try await withSandbox { server, network in
            let all = try await search(server, network, [:])
            let cc0 = try await search(server, network, ["license": "9,10"])
            #expect(!cc0.isEmpty && cc0.count < all.count)
            #expect(cc0.allSatisfy { ["9", "10"].contains($0["license"] as? String ?? "") }, "\(cc0.prefix(3))")
        }
    }

    @Test func takenAndUploadDatesNarrowTheResults() async throws {
        try await withSandbox { server, network in
            let taken = try await search(server, network, [
                "min_taken_date": "2025-01-01 00:00:00", "max_taken_date": "2025-10-31 23:59:59",
            ])
            #expect(!taken.isEmpty)
            #expect(taken.allSatisfy { ($0["datetaken"] as? String ?? "") >= "2025-01-01" && ($0["datetaken"] as? String ?? "") <= "2025-10-31 23:59:59" })
            // A window in the middle of this catalog's uploads.
            let middle = server.catalog.photo(at: server.catalog.count / 2).dateUpload
            let window = (middle - 200_000)...(middle + 200_000)
            let uploaded = try await search(server, network, [
                "min_upload_date": String(window.lowerBound), "max_upload_date": String(window.upperBound),
            ])
            #expect(!uploaded.isEmpty)
            #expect(uploaded.allSatisfy { window.contains(Int($0["dateupload"] as? String ?? "") ?? 0) })
        }
    }

    @Test func aBoundingBoxKeepsOnlyPhotosInside() async throws {
        try await withSandbox { server, network in
            func total(_ parameters: [String: String]) async throws -> Int {
                let response = try await network.json(server.jsonCall("flickr.photos.search", ["text": "sunset"].merging(parameters) { $1 }))
                return (response["photos"] as? [String: Any])?["total"] as? Int ?? -1
            }
            let all = try await total([:])
            let inside = try await total(["bbox": "-180,0,0,70"])
            let near = try await total(["lat": "20", "lon": "-90", "radius": "32"])
            #expect(inside > 0 && inside < all, "\(inside) of \(all)")
            #expect(near < inside, "a 32 km circle holds fewer than a quarter of the world")
            let box = try await search(server, network, ["bbox": "10,10,5,20"])
            #expect(box.isEmpty, "an illogical box is refused")
        }
    }

    @Test func usersAreFoundByNameAndByProfileURL() async throws {
        try await withSandbox { server, network in
            let photo = try #require((0..<server.catalog.count).lazy.map(server.catalog.photo(at:)).first { !$0.pathAlias.isEmpty })
            let byName = try await network.json(server.jsonCall("flickr.people.findByUsername", ["username": photo.ownerName.uppercased()]))
            #expect((byName["user"] as? [String: Any])?["nsid"] as? String == photo.owner)
            let byURL = try await network.json(server.jsonCall("flickr.urls.lookupUser", [
                "url": "https://www.flickr.com/photos/\(photo.pathAlias)/",
            ]))
            #expect((byURL["user"] as? [String: Any])?["id"] as? String == photo.owner)
            let missing = try await network.json(server.jsonCall("flickr.people.findByUsername", ["username": "nobody-at-all"]))
            #expect(missing["stat"] as? String == "fail" && missing["code"] as? Int == 1)
            #expect(missing["message"] as? String == "User not found")
        }
    }

    @Test func theLicenceListHasEveryId() async throws {
        try await withSandbox { server, network in
            let response = try await network.json(server.jsonCall("flickr.photos.licenses.getInfo"))
            let licenses = (response["licenses"] as? [String: Any])?["license"] as? [[String: Any]] ?? []
            #expect(Set(licenses.compactMap { $0["id"] as? Int }) == Set(0...16))
            #expect(licenses.first { $0["id"] as? Int == 11 }?["name"] as? String == "CC BY 4.0")
        }
    }
}
