import Foundation
import PhotoCore

/// Every licence Flickr lists, keyed by Flickr's licence id (names changed
/// over the years, ids did not). The licences carry the id as their
/// `providerID`.
///
/// The built-in table is Flickr's `flickr.photos.licenses.getInfo` of 2025
/// (ids 0–16; 11–16 are the CC 4.0 licences added on 2025-06-18). A fresher
/// answer from Flickr replaces names and URLs (see `merging(names:)`).
public struct FlickrLicenseTable: Sendable, Hashable {
    public private(set) var byFlickrID: [Int: License]

    public init(_ licenses: [License]) {
        var table: [Int: License] = [:]
        for license in licenses {
            if let id = license.providerID { table[id] = license }
        }
        byFlickrID = table
    }

    public static let builtIn = FlickrLicenseTable([
        named(0, .allRightsReserved, nil, "All Rights Reserved", "All Rights Reserved",
              "https://www.flickrhelp.com/hc/en-us/articles/10710266545556-Using-Flickr-images-shared-by-other-members"),
        standard(1, .byNCSA, "2.0"), standard(2, .byNC, "2.0"), standard(3, .byNCND, "2.0"),
        standard(4, .by, "2.0"), standard(5, .bySA, "2.0"), standard(6, .byND, "2.0"),
        named(7, .noKnownRestrictions, nil, "No known copyright restrictions", "No known copyright restrictions",
              "https://www.flickr.com/commons/usage/"),
        named(8, .usGovernmentWork, nil, "United States Government Work", "United States Government Work",
              "https://www.usa.gov/government-copyright"),
        named(9, .cc0, "1.0", "CC0 1.0", "Public Domain Dedication (CC0)",
              "https://creativecommons.org/publicdomain/zero/1.0/"),
        named(10, .pdm, "1.0", "PDM 1.0", "Public Domain Mark", "https://creativecommons.org/publicdomain/mark/1.0/"),
        standard(11, .by, "4.0"), standard(12, .bySA, "4.0"), standard(13, .byND, "4.0"),
        standard(14, .byNC, "4.0"), standard(15, .byNCSA, "4.0"), standard(16, .byNCND, "4.0"),
    ].compactMap { $0 })

    /// The licence with Flickr's id `id`; an unknown id gets a licence
    /// named after it (so a new id shows, not a blank).
    public func flickr(id: Int) -> License {
        byFlickrID[id] ?? License(
            kind: .other, version: nil, shortName: "Licence \(id)", fullName: "Flickr licence \(id)", url: nil,
            providerID: id)
    }

    /// Flickr's licence ids that have every kind in `kinds`.
    public func flickrIDs(of kinds: Set<License.Kind>) -> [Int] {
        byFlickrID.values.filter { kinds.contains($0.kind) }.compactMap(\.providerID).sorted()
    }

    /// What Flickr lists now (`licenses.getInfo`) over the built-in table:
    /// a known id keeps its names and what it allows (Flickr renames them
    /// from time to time) and takes Flickr's URL; an id the table does not
    /// know is added under Flickr's name as `other`.
    public func merging(names: [(id: Int, name: String, url: URL?)]) -> FlickrLicenseTable {
        var table = self
        for entry in names {
            if let known = byFlickrID[entry.id] {
                table.byFlickrID[entry.id] = License(
                    kind: known.kind, version: known.version, shortName: known.shortName, fullName: known.fullName,
                    url: entry.url ?? known.url, providerID: entry.id)
            } else {
                table.byFlickrID[entry.id] = License(
                    kind: .other, version: nil, shortName: entry.name, fullName: entry.name, url: entry.url,
                    providerID: entry.id)
            }
        }
        return table
    }

    /// The licence whose short name is `name` (`CC BY-SA 2.0`, `CC0 1.0`,
    /// `PDM 1.0`, `All Rights Reserved`): this table's, else a Creative
    /// Commons licence or tool. What `--json` and the sidecars print reads
    /// back to the same terms.
    public func license(shortName name: String) -> License? {
        byFlickrID.values.filter { $0.shortName == name }.min { ($0.providerID ?? .max) < ($1.providerID ?? .max) }
            ?? LicenseTable.standard(shortName: name)
    }

    // MARK: - Building the table

    private static func named(
        _ id: Int, _ kind: License.Kind, _ version: String?, _ short: String, _ full: String, _ url: String
    ) -> License? {
        License(kind: kind, version: version, shortName: short, fullName: full, url: URL(string: url), providerID: id)
    }

    private static func standard(_ id: Int, _ kind: License.Kind, _ version: String) -> License? {
        LicenseTable.standard(kind, version: version)?.numbered(id)
    }
}
