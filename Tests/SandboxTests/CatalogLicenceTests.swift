import Foundation
import Sandbox
import Testing

/// Licences, creators and file formats of the catalog, and the Flickr
/// extras that show them.
@Suite struct CatalogLicenceTests {
    @Test func everyFlickrLicenceAndOpenverseSlugOccurs() {
        for count in [3_000, 20_000] {
            let catalog = Catalog(photoCount: count)
            let photos = (0..<catalog.count).map(catalog.photo(at:))
            #expect(Set(photos.map(\.license)) == Set(0...16), "\(count) photos")
            #expect(Set(photos.compactMap { openverseSlug($0.license) })
                == ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd", "cc0", "pdm"])
            let reserved = photos.filter { $0.license == 0 }.count
            #expect(reserved > count / 6 && reserved < count / 3, "all rights reserved is the most common, not the rule")
        }
    }

    @Test func ownersHaveSeveralPhotosAndMostHaveAPathAlias() {
        let catalog = Catalog(photoCount: 5_000)
        var byOwner: [String: [CatalogPhoto]] = [:]
        for index in 0..<catalog.count { byOwner[catalog.photo(at: index).owner, default: []].append(catalog.photo(at: index)) }
        #expect(byOwner.values.filter { $0.count > 1 }.count > byOwner.count / 2)
        for photos in byOwner.values {
            #expect(Set(photos.map(\.pathAlias)).count == 1 && Set(photos.map(\.ownerName)).count == 1)
        }
        let aliases = byOwner.values.compactMap(\.first?.pathAlias)
        let named = aliases.filter { !$0.isEmpty }
        #expect(named.count > aliases.count / 2 && named.count < aliases.count)
        #expect(named.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) } })
    }

    /// A few percent PNG, GIF and WebP each: every query with 60 or more
    /// Openverse matches (every subject word, every pair of the common ones)
    /// meets all four formats.
    @Test func everyQueryWithSixtyMatchesMeetsEveryFormat() {
        for count in [3_000, 20_000] {
            let catalog = Catalog(photoCount: count)
            let photos = (0..<catalog.count).map(catalog.photo(at:))
            for format in SandboxImageFormat.allCases where format != .jpeg {
                let share = Double(photos.filter { $0.fileFormat == format }.count) / Double(count)
                #expect(share > 0.03 && share < 0.1, "\(format): \(share)")
            }
            let words = ["kittens", "sunset", "beach", "cat", "dog", "puppy", "ocean", "sea", "sky", "clouds", "tree",
                         "forest", "flowers", "garden", "city", "street", "night", "portrait", "family", "birds", "snow",
                         "winter", "summer", "autumn", "spring", "river", "bridge", "architecture", "travel", "food",
                         "coffee", "bicycle", "train", "boat", "sand", "waves", "light", "mountain", "lake", "red", "car"]
            var queries = words
            for first in words.prefix(12) { for second in words.prefix(12) where first < second { queries.append("\(first) \(second)") } }
            var checked = 0
            for query in queries {
                let found = openverseExpected(catalog, text: query)
                guard found.count >= 60 else { continue }
                checked += 1
                #expect(Set(found.map(\.fileFormat)) == Set(SandboxImageFormat.allCases), "\(query) in \(count): \(found.count) matches")
            }
            #expect(checked > 30)
        }
    }

    @Test func licenceOwnerNameAndPathAliasExtrasInJSONAndXML() async throws {
        try await withSandbox { server, network in
            let json = photos(in: try await network.json(server.jsonCall("flickr.photos.search", [
                "text": "beach", "per_page": "50", "extras": "license,owner_name,path_alias",
            ])))
            #expect(json.count == 50)
            for item in json {
                let photo = try #require(server.catalog.photo(id: item["id"] as? String ?? ""))
                #expect(item["license"] as? String == String(photo.license), "a string, as Flickr sends it")
                #expect(item["ownername"] as? String == photo.ownerName)
                #expect(item["pathalias"] as? String == photo.pathAlias)
            }
            let plain = photos(in: try await network.json(server.jsonCall("flickr.photos.search", ["text": "beach", "per_page": "5"])))
            #expect(plain.allSatisfy { $0["license"] == nil && $0["pathalias"] == nil && $0["ownername"] == nil })

            let xml = try await network.text(server.rest([
                "method": "flickr.photos.getRecent", "api_key": "k", "per_page": "3", "extras": "license,path_alias",
            ]))
            let first = server.catalog.photo(at: 0)
            #expect(xml.contains(" license=\"\(first.license)\" pathalias=\"\(first.pathAlias)\""))
            let info = try await network.json(server.jsonCall("flickr.photos.getInfo", ["photo_id": first.id]))
            #expect(((info["photo"] as? [String: Any])?["owner"] as? [String: Any])?["path_alias"] as? String == first.pathAlias)
        }
    }
}
