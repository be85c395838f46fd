import Foundation
import Sandbox
import Testing

/// The default-sized catalog, built once for the query-richness tests.
private let defaultCatalog = Catalog()

@Suite struct CatalogTests {
    @Test func sameSeedBuildsTheSameCatalog() {
        let first = Catalog(photoCount: 2_000, seed: 7)
        let second = Catalog(photoCount: 2_000, seed: 7)
        #expect(first.count == 2_000)
        for index in [0, 1, 999, 1_999] {
            #expect(first.photo(at: index) == second.photo(at: index))
        }
        #expect(first.search(text: "kittens") == second.search(text: "kittens"))
    }

    @Test func differentSeedsBuildDifferentCatalogs() {
        let first = Catalog(photoCount: 500, seed: 1)
        let second = Catalog(photoCount: 500, seed: 2)
        let differing = (0..<500).filter { first.photo(at: $0).secret != second.photo(at: $0).secret }
        #expect(differing.count > 450)
    }

    @Test func idsAreElevenDigitsAndDescendWithUploadDate() {
        let catalog = Catalog(photoCount: 5_000)
        for index in 1..<catalog.count {
            let newer = catalog.photo(at: index - 1)
            let older = catalog.photo(at: index)
            #expect(older.id.count == 11 && older.id.allSatisfy(\.isNumber))
            #expect(Int64(older.id) ?? 0 < Int64(newer.id) ?? 0)
            #expect(older.dateUpload < newer.dateUpload)
        }
    }

    @Test func photosHaveFlickrShapedFields() throws {
        let catalog = Catalog(photoCount: 5_000)
        let nsid = try Regex("^[0-9]{8}@N0[0-9]$")
        let secret = try Regex("^[0-9a-f]{10}$")
        let server = try Regex("^(65535|[0-9]{4})$")
        let taken = try Regex("^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$")
        var owners = Set<String>()
        for index in 0..<catalog.count {
            let photo = catalog.photo(at: index)
            #expect(photo.owner.wholeMatch(of: nsid) != nil, "owner \(photo.owner)")
            #expect(photo.secret.wholeMatch(of: secret) != nil, "secret \(photo.secret)")
            #expect(photo.server.wholeMatch(of: server) != nil, "server \(photo.server)")
            #expect(photo.dateTaken.wholeMatch(of: taken) != nil, "date taken \(photo.dateTaken)")
            #expect(!photo.ownerName.isEmpty)
            #expect(photo.farm > 0)
            owners.insert(photo.owner)
        }
        #expect((100...300).contains(owners.count))
    }

    @Test func photoIsFoundByID() {
        let catalog = Catalog(photoCount: 1_000)
        let photo = catalog.photo(at: 421)
        #expect(catalog.photo(id: photo.id) == photo)
        #expect(catalog.photo(id: "10000000000") == nil)
        #expect(catalog.photo(id: "not-an-id") == nil)
    }

    @Test func everydayQueriesMatchWellOver4000Photos() {
        for query in ["kittens", "sunset", "beach"] {
            #expect(defaultCatalog.search(text: query).count > 4_500, "\(query)")
        }
    }

    @Test func narrowQueriesMatchAFewToHundreds() {
        for query in ["mountain lake", "red car"] {
            let count = defaultCatalog.search(text: query).count
            #expect((3...500).contains(count), "\(query): \(count)")
        }
    }

    @Test func nonsenseMatchesNothing() {
        #expect(defaultCatalog.search(text: "xqzzyvw").isEmpty)
        #expect(defaultCatalog.search(text: "kittens xqzzyvw").isEmpty)
        #expect(defaultCatalog.search(text: "   ").isEmpty)
    }

    @Test func everyWordMustMatchTitleTagsOrDescription() {
        for index in defaultCatalog.search(text: "sunset beach").prefix(300) {
            let photo = defaultCatalog.photo(at: index)
            let text = ([photo.title, photo.description] + photo.tags).joined(separator: " ").lowercased()
            #expect(text.contains("sunset") && text.contains("beach"))
        }
    }

    @Test func minusWordExcludesMatches() {
        let kittens = Set(defaultCatalog.search(text: "kittens"))
        let beach = Set(defaultCatalog.search(text: "beach"))
        let result = defaultCatalog.search(text: "kittens -beach")
        #expect(Set(result) == kittens.subtracting(beach))
        #expect(!result.isEmpty)
    }

    @Test func matchingIgnoresCaseAndPluralS() {
        let expected = defaultCatalog.search(text: "kittens")
        #expect(defaultCatalog.search(text: "KITTENS") == expected)
        #expect(defaultCatalog.search(text: "Kitten") == expected)
    }

    @Test func datePostedDescendingIsNewestFirstAndAscendingIsItsReverse() {
        let descending = defaultCatalog.search(text: "red car")
        #expect(descending == descending.sorted())
        #expect(defaultCatalog.search(text: "red car", sort: .datePostedAsc) == Array(descending.reversed()))
        #expect(Set(defaultCatalog.search(text: "red car", sort: .relevance)) == Set(descending))
    }

    @Test func titlesIncludeEmptyInternationalAndHostileOnes() {
        let titles = (0..<defaultCatalog.count).map { defaultCatalog.photo(at: $0).title }
        #expect(titles.filter(\.isEmpty).count > 500)
        #expect(titles.filter { $0.unicodeScalars.contains { $0.value > 0x2E80 } }.count > 100)
        #expect(titles.contains { $0.unicodeScalars.contains { $0.properties.generalCategory == .nonspacingMark } })
        let hostile = titles.filter { $0.unicodeScalars.contains { $0.value < 0x20 || (0x202A...0x202E).contains($0.value) } }
        #expect((20...120).contains(hostile.count))
        #expect(hostile.contains { $0.contains("\u{1B}") } && hostile.contains { $0.contains("\n") })
    }

    @Test func sizesKeepTheAspectRatioAndSquaresAreSquare() {
        var shapes = Set<String>()
        for index in 0..<300 {
            let photo = defaultCatalog.photo(at: index)
            #expect(photo.dimensions(.q) == (150, 150))
            #expect(photo.dimensions(.sq) == (75, 75))
            let large = photo.dimensions(.l)
            #expect(max(large.width, large.height) == 1024)
            let ratio = Double(photo.originalWidth) / Double(photo.originalHeight)
            #expect(abs(Double(large.width) / Double(large.height) - ratio) < 0.01)
            shapes.insert(ratio > 1 ? "landscape" : ratio < 1 ? "portrait" : "square")
        }
        #expect(shapes == ["landscape", "portrait", "square"])
    }
}
