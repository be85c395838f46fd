import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking
@testable import OpenverseService
import Sandbox
@testable import ShutterstockService
import TestSupport

/// Each provider's filters against the sandbox over real HTTP: what comes
/// back honours the filter, judged from the catalog the sandbox serves.
@Suite struct FilterSandboxTests {
    private func query(_ text: String) throws -> SearchQuery {
        try #require(try SearchQuery.parse(text))
    }

    @Test func flickrHonoursLicenceDatesUserTagsAndBox() async throws {
        try await withSandbox { server, provider, _ in
            let catalog = server.catalog
            func photos(_ text: String) async throws -> [CatalogPhoto] {
                try await provider.search(try query(text), page: 1, perPage: 100).photos.compactMap { catalog.photo(id: $0.id) }
            }
            let by = try await photos("sunset license:by")
            #expect(!by.isEmpty && by.allSatisfy { [4, 11].contains($0.license) })

            let middle = catalog.photo(at: catalog.count / 2).dateTaken.prefix(7)
            let taken = try await photos("sunset taken:\(middle)")
            #expect(!taken.isEmpty && taken.allSatisfy { $0.dateTaken.hasPrefix(String(middle)) }, "\(middle)")

            let owner = catalog.photo(at: 10)
            let theirs = try await photos("user:\"\(owner.ownerName)\"")
            #expect(!theirs.isEmpty, "a username, through people.findByUsername")
            let byNSID = try await photos("user:\(owner.owner)")
            #expect(!byNSID.isEmpty && byNSID.allSatisfy { $0.owner == owner.owner })
            #expect(theirs.allSatisfy { $0.owner == owner.owner })
            if !owner.pathAlias.isEmpty {
                let byAlias = try await photos("user:\(owner.pathAlias)")
                #expect(!byAlias.isEmpty && byAlias.allSatisfy { $0.owner == owner.owner }, "the path alias, through urls.lookupUser")
            }

            let tag = try #require(owner.tags.first)
            let tagged = try await photos("tag:\(tag)")
            #expect(!tagged.isEmpty && tagged.allSatisfy { $0.tags.contains(tag) })

            let boxed = try await provider.search(try query("sunset bbox:-180,0,0,70"), page: 1, perPage: 10)
            let everywhere = try await provider.search(try query("sunset"), page: 1, perPage: 10)
            #expect(boxed.total > 0 && boxed.total < everywhere.total)

            let oldest = try await provider.search(try query("sunset sort:oldest"), page: 1, perPage: 20).photos
            let uploads = oldest.compactMap { catalog.photo(id: $0.id)?.dateUpload }
            #expect(uploads == uploads.sorted(), "oldest first")
        }
    }

    @Test func aUserFlickrDoesNotKnowIsASentence() async throws {
        try await withSandbox { _, provider, _ in
            let error = try await #require(throws: FlickrError.self) {
                try await provider.search(try query("user:nobody-at-all"), page: 1, perPage: 10)
            }
            #expect(error.description.contains("Flickr has no user “nobody-at-all”"))
        }
    }

    @Test func openverseHonoursLicenceTypeAndOrientation() async throws {
        try await withSandbox { server, _, network in
            let provider = OpenverseProvider(baseURL: server.baseURL, network: network)
            let cc0 = try await provider.search(try query("kittens license:cc0,pdm"), page: 1, perPage: 20).photos
            #expect(!cc0.isEmpty && cc0.allSatisfy { ["CC0 1.0", "PDM 1.0"].contains($0.credit?.license?.shortName ?? "") })
            let commercial = try await provider.search(try query("kittens license:commercial"), page: 1, perPage: 20).photos
            #expect(!commercial.isEmpty && commercial.allSatisfy { $0.credit?.license?.allowsCommercialUse == true })
            let wide = try await provider.search(try query("kittens orientation:landscape"), page: 1, perPage: 20).photos
            #expect(!wide.isEmpty && wide.allSatisfy { ($0.aspectRatio ?? 0) > 1 }, "\(wide.map(\.aspectRatio))")
            await #expect(throws: OpenverseError.self) { try await provider.search(try query("kittens taken:2020"), page: 1, perPage: 20) }
        }
    }

    @Test func shutterstockHonoursContributorOrientationAndAddedDates() async throws {
        try await withSandbox { server, _, network in
            let provider = ShutterstockProvider(credentials: try .token("t"), baseURL: server.baseURL, network: network)
            let catalog = server.catalog
            let owner = catalog.photo(at: 3)
            let contributor = String(owner.owner.prefix { $0 != "@" })
            let theirs = try await provider.search(try query("user:\(contributor)"), page: 1, perPage: 50).photos
            #expect(!theirs.isEmpty && theirs.allSatisfy { $0.owner == contributor })
            let tall = try await provider.search(try query("sunset orientation:portrait"), page: 1, perPage: 50).photos
            #expect(!tall.isEmpty && tall.allSatisfy { ($0.aspectRatio ?? 2) < 1 })
            let day = Date(timeIntervalSince1970: TimeInterval(catalog.photo(at: catalog.count / 2).dateUpload))
            let month = String(ISO8601DateFormatter().string(from: day).prefix(7))
            let added = try await provider.search(try query("sunset uploaded:\(month)"), page: 1, perPage: 50).photos
            #expect(!added.isEmpty)
            for photo in added {
                let upload = try #require(catalog.photo(id: photo.id)).dateUpload
                #expect(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(upload))).hasPrefix(month))
            }
        }
    }
}
