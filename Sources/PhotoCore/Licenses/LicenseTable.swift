import Foundation

/// The Creative Commons licences and tools by kind and version
/// (`standard`), onto which every provider's names for its terms map. A
/// provider's own table (its ids, its names for the other kinds) lives with
/// the provider.
public enum LicenseTable {
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
            return creativeCommons(kind, version)
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

    /// The standard licence or tool whose short name is `name` (`CC BY-SA
    /// 2.0`, `CC0 1.0`, `PDM 1.0`), so what `--json` and the sidecars print
    /// reads back to the same terms; `nil` for any other name.
    public static func standard(shortName name: String) -> License? {
        let words = name.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        switch words.count {
        case 3 where words[0] == "CC":
            guard let kind = License.Kind(rawValue: words[1].lowercased()), kind.isCreativeCommonsLicence,
                  words[1] == words[1].uppercased() else { return nil }
            return standard(kind, version: words[2])
        case 2 where words[0] == "CC0": return standard(.cc0, version: words[1])
        case 2 where words[0] == "PDM": return standard(.pdm, version: words[1])
        default: return nil
        }
    }

    /// `CC BY-SA 2.0`, "Creative Commons Attribution-ShareAlike 2.0", and its deed.
    private static func creativeCommons(_ kind: License.Kind, _ version: String) -> License {
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
            url: URL(string: "https://creativecommons.org/licenses/\(kind.rawValue)/\(version)/"))
    }
}

extension License.Kind {
    /// One of the six Creative Commons licences (not CC0 or the mark).
    public var isCreativeCommonsLicence: Bool {
        [.by, .bySA, .byND, .byNC, .byNCSA, .byNCND].contains(self)
    }
}

extension License {
    /// The same terms under the provider's own number for them.
    public func numbered(_ providerID: Int?) -> License {
        License(kind: kind, version: version, shortName: shortName, fullName: fullName, url: url, providerID: providerID)
    }
}
