@testable import PhotoCore
import Foundation
import Sandbox
import Testing
import FlickrService

/// Openverse's licence fields are read strictly (a version
/// that is not a version leaves the terms unknown; deeds are built from
/// known parts), its own credit line is used only when it names the same
/// terms, and every licence reads back from the short name printed for it.
@Suite struct OpenverseLicenceTermsTests {
    @Test(arguments: [" 4.0 ", "../../evil", "4.0/../..", "4..0", ".4", "4.", "v4.0", "4.0\u{202E}", "1e3", "4,0", "१.०"])
    func aVersionThatIsNotAVersionLeavesTheTermsUnknown(_ version: String) {
        for slug in ["by", "by-sa", "cc0", "pdm", "sampling+"] {
            #expect(LicenseTable.openverse(slug: slug, version: version, url: nil) == nil, "\(slug) \(version.debugDescription)")
        }
    }

    @Test func aVersionIsDigitsAndDots() throws {
        for version in ["4.0", "2.5", "1.0", "3.0", "2.1"] {
            let license = try #require(LicenseTable.openverse(slug: "by", version: version, url: nil))
            #expect(license.shortName == "CC BY \(version)")
            #expect(license.url?.absoluteString == "https://creativecommons.org/licenses/by/\(version)/")
        }
        #expect(LicenseTable.openverse(slug: "by", version: "", url: nil)?.shortName == "CC BY 4.0", "an empty version is none")
    }

    @Test func theDeedIsBuiltFromKnownPartsNotTheAPIsURL() throws {
        let evil = URL(string: "https://evil.example/licenses/by/4.0/")
        let by = try #require(LicenseTable.openverse(slug: "by", version: "4.0", url: evil))
        #expect(by.url?.absoluteString == "https://creativecommons.org/licenses/by/4.0/")
        let sampling = try #require(LicenseTable.openverse(slug: "sampling+", version: "1.0",
                                                            url: URL(string: "https://creativecommons.org/licenses/sampling+/1.0/")))
        #expect(sampling.url?.host == "creativecommons.org")
        #expect(LicenseTable.openverse(slug: "sampling+", version: "1.0", url: URL(string: "javascript:alert(1)"))?.url == nil)
        #expect(LicenseTable.openverse(slug: "sampling+", version: "1.0", url: evil)?.url == nil)
        #expect(LicenseTable.openverse(slug: "<img src=x>", version: "1.0", url: nil) == nil, "a slug that is not one")
    }

    private func photo(license: License?, attribution: String) -> Photo {
        Photo(id: "1", owner: "o", title: "Lighthouse",
              credit: PhotoCredit(license: license, creator: "Ana", attribution: attribution, pageURL: URL(string: "https://example.test/1")))
    }

    @Test func aCreditLineThatContradictsTheLicenceIsBuiltFromTheFields() throws {
        let by4 = try #require(LicenseTable.openverse(slug: "by", version: "4.0", url: nil))
        let wrong = photo(license: by4, attribution: "\"Lighthouse\" by Ana is licensed under CC BY 2.0.").attributionLine(pageURL: nil)
        #expect(wrong.contains("CC BY 4.0") && !wrong.contains("CC BY 2.0"), "\(wrong)")
        let other = photo(license: by4, attribution: "\"Lighthouse\" by Ana is licensed under CC BY-SA 4.0.").attributionLine(pageURL: nil)
        #expect(other.contains("is licensed under CC BY 4.0") && !other.contains("BY-SA"), "\(other)")
        let none = photo(license: nil, attribution: "\"Lighthouse\" by Ana is licensed under CC BY 2.0.").attributionLine(pageURL: nil)
        #expect(!none.contains("CC BY"), "no licence is claimed where none is stated: \(none)")

        let agreeing = "\"Lighthouse\" by Ana is licensed under CC BY 4.0. To view a copy of this license, visit https://creativecommons.org/licenses/by/4.0/."
        #expect(photo(license: by4, attribution: agreeing).attributionLine(pageURL: nil) == agreeing, "Openverse's own line when it agrees")
        let cc0 = try #require(LicenseTable.openverse(slug: "cc0", version: "1.0", url: nil))
        let marked = "\"Lighthouse\" by Ana is marked with CC0 1.0."
        #expect(photo(license: cc0, attribution: marked).attributionLine(pageURL: nil) == marked)
    }

    @Test func everyBuiltInLicenceReadsBackFromItsShortName() {
        for license in FlickrLicenseTable.builtIn.byFlickrID.values {
            #expect(FlickrLicenseTable.builtIn.license(shortName: license.shortName) == license, "\(license.shortName)")
        }
    }

    /// Generated slugs and versions: what `openverse` accepts reads back from
    /// its short name to the same terms, and what it refuses is never named.
    @Test func openverseLicencesReadBackFromTheirShortNames() {
        var random = SplitMix64(seed: 29_08)
        let slugs = License.Kind.allCases.map(\.rawValue) + ["BY", " by-sa ", "sampling+", "nc-sampling+", "by_nc", "", "cc-by", "<b>"]
        let versionParts = ["0", "1", "2", "4", "10", ".", " ", "..", "/", "a", "\u{202E}", "-"]
        var accepted = 0
        for round in 0..<5_000 {
            let slug = random.pick(slugs)
            let version = random.chance(0.1) ? nil : (0..<(1 + random.below(4))).map { _ in random.pick(versionParts) }.joined()
            guard let license = LicenseTable.openverse(slug: slug, version: version, url: nil) else { continue }
            if let version, !version.isEmpty {
                #expect(license.version == version)
                #expect(version.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }, "round \(round): \(version.debugDescription) was taken")
            }
            #expect(license.url.map { $0.host == "creativecommons.org" && !$0.path.contains("..") } ?? true, "\(license.url?.absoluteString ?? "")")
            if license.kind != .other {
                accepted += 1
                #expect(FlickrLicenseTable.builtIn.license(shortName: license.shortName)?.kind == license.kind, "round \(round): \(license.shortName)")
                #expect(FlickrLicenseTable.builtIn.license(shortName: license.shortName)?.url == license.url, "round \(round): \(license.shortName)")
            }
        }
        #expect(accepted > 500, "the generator reaches valid licences")
    }
}
