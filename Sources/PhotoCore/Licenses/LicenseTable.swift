import Foundation

/// Every licence the app knows, keyed by Flickr's licence id (names changed
/// over the years, ids did not), and the Creative Commons licences and tools
/// by kind and version (`standard`), onto which other services' names map.
///
/// The built-in table is Flickr's `flickr.photos.licenses.getInfo` of 2025
/// (ids 0–16; 11–16 are the CC 4.0 licences added on 2025-06-18). A fresher
/// answer from Flickr replaces names and URLs (see `merging(names:)`).
public struct LicenseTable: Sendable, Hashable {
    public private(set) var byFlickrID: [Int: License]

    public init(_ licenses: [License]) {
        var table: [Int: License] = [:]
        for license in licenses {
            if let id = license.flickrID { table[id] = license }
        }
        byFlickrID = table
    }

    public static let builtIn = LicenseTable([
        flickr(0, .allRightsReserved, nil, "All Rights Reserved", "All Rights Reserved",
               "https://www.flickrhelp.com/hc/en-us/articles/10710266545556-Using-Flickr-images-shared-by-other-members"),
        creativeCommons(1, .byNCSA, "2.0"), creativeCommons(2, .byNC, "2.0"), creativeCommons(3, .byNCND, "2.0"),
        creativeCommons(4, .by, "2.0"), creativeCommons(5, .bySA, "2.0"), creativeCommons(6, .byND, "2.0"),
        flickr(7, .noKnownRestrictions, nil, "No known copyright restrictions", "No known copyright restrictions",
               "https://www.flickr.com/commons/usage/"),
        flickr(8, .usGovernmentWork, nil, "United States Government Work", "United States Government Work",
               "https://www.usa.gov/government-copyright"),
        flickr(9, .cc0, "1.0", "CC0 1.0", "Public Domain Dedication (CC0)",
               "https://creativecommons.org/publicdomain/zero/1.0/"),
        flickr(10, .pdm, "1.0", "PDM 1.0", "Public Domain Mark", "https://creativecommons.org/publicdomain/mark/1.0/"),
        creativeCommons(11, .by, "4.0"), creativeCommons(12, .bySA, "4.0"), creativeCommons(13, .byND, "4.0"),
        creativeCommons(14, .byNC, "4.0"), creativeCommons(15, .byNCSA, "4.0"), creativeCommons(16, .byNCND, "4.0"),
    ])

    /// Flickr's licence ids that have every kind in `kinds`.
    public func flickrIDs(of kinds: Set<License.Kind>) -> [Int] {
        byFlickrID.values.filter { kinds.contains($0.kind) }.compactMap(\.flickrID).sorted()
    }

    /// What Flickr lists now (`licenses.getInfo`) over the built-in table:
    /// a known id keeps its names and what it allows (Flickr renames them
    /// from time to time) and takes Flickr's URL; an id the table does not
    /// know is added under Flickr's name as `other`.
    public func merging(names: [(id: Int, name: String, url: URL?)]) -> LicenseTable {
        var table = self
        for entry in names {
            if let known = byFlickrID[entry.id] {
                table.byFlickrID[entry.id] = License(
                    kind: known.kind, version: known.version, shortName: known.shortName, fullName: known.fullName,
                    url: entry.url ?? known.url, flickrID: entry.id)
            } else {
                table.byFlickrID[entry.id] = License(
                    kind: .other, version: nil, shortName: entry.name, fullName: entry.name, url: entry.url,
                    flickrID: entry.id)
            }
        }
        return table
    }

    /// A Creative Commons licence, CC0 or the public domain mark at
    /// `version`, with its names and deed; `nil` for any other kind, or a
    /// version that is not one (`" 4.0 "`, `"../../evil"`).
    public static func standard(_ kind: License.Kind, version: String) -> License? {
        guard isVersion(version) else { return nil }
        switch kind {
        case .cc0:
            return License(kind: .cc0, version: version, shortName: "CC0 \(version)", fullName: "Public Domain Dedication (CC0 \(version))",
                           url: URL(string: "https://creativecommons.org/publicdomain/zero/\(version)/"))
        case .pdm:
            return License(kind: .pdm, version: version, shortName: "PDM \(version)", fullName: "Public Domain Mark \(version)",
                           url: URL(string: "https://creativecommons.org/publicdomain/mark/\(version)/"))
        case let kind where kind.isCreativeCommonsLicence:
            let license = creativeCommons(nil, kind, version)
            return License(kind: kind, version: license.version, shortName: license.shortName, fullName: license.fullName, url: license.url)
        default:
            return nil
        }
    }

    /// Digits and dots, a digit at each end: `4.0`, `2.5`, `1.0`.
    public static func isVersion(_ text: String) -> Bool {
        text.utf8.count <= 8 && text.utf8.first.map(isDigit) == true && text.utf8.last.map(isDigit) == true
            && text.utf8.allSatisfy { isDigit($0) || $0 == UInt8(ascii: ".") } && !text.contains("..")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// The licence whose short name is `name` (`CC BY-SA 2.0`, `CC0 1.0`,
    /// `PDM 1.0`, `All Rights Reserved`): this table's, else a Creative
    /// Commons licence or tool (`standard`). What `--json` and
    /// the sidecars print reads back to the same terms.
    public func license(shortName name: String) -> License? {
        if let known = byFlickrID.values.filter({ $0.shortName == name }).min(by: { ($0.flickrID ?? .max) < ($1.flickrID ?? .max) }) {
            return known
        }
        let words = name.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        switch words.count {
        case 3 where words[0] == "CC":
            guard let kind = License.Kind(rawValue: words[1].lowercased()), kind.isCreativeCommonsLicence,
                  words[1] == words[1].uppercased() else { return nil }
            return Self.standard(kind, version: words[2])
        case 2 where words[0] == "CC0": return Self.standard(.cc0, version: words[1])
        case 2 where words[0] == "PDM": return Self.standard(.pdm, version: words[1])
        default: return nil
        }
    }

    // MARK: - Building the table

    private static func flickr(
        _ id: Int, _ kind: License.Kind, _ version: String?, _ short: String, _ full: String, _ url: String
    ) -> License {
        License(kind: kind, version: version, shortName: short, fullName: full, url: URL(string: url), flickrID: id)
    }

    /// `CC BY-SA 2.0`, "Creative Commons Attribution-ShareAlike 2.0", and its deed.
    private static func creativeCommons(_ id: Int?, _ kind: License.Kind, _ version: String) -> License {
        let parts = kind.rawValue.split(separator: "-").map(String.init)
        let words = parts.map { part -> String in
            switch part {
            case "by": "Attribution"
            case "sa": "ShareAlike"
            case "nd": "NoDerivatives"
            case "nc": "NonCommercial"
            default: part
            }
        }
        return License(
            kind: kind, version: version, shortName: "CC \(kind.rawValue.uppercased()) \(version)",
            fullName: "Creative Commons \(words.joined(separator: "-")) \(version)",
            url: URL(string: "https://creativecommons.org/licenses/\(kind.rawValue)/\(version)/"), flickrID: id)
    }
}

extension License.Kind {
    /// One of the six Creative Commons licences (not CC0 or the mark).
    public var isCreativeCommonsLicence: Bool {
        [.by, .bySA, .byND, .byNC, .byNCSA, .byNCND].contains(self)
    }
}
