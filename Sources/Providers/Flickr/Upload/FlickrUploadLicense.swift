import Foundation
import PhotoCore

/// The licence `flickr upload --license` sets, as Flickr's id.
///
/// Named as the `license:` filter names licences (`by`, `by-sa`, … `by-nc-nd`,
/// `cc0`, `pdm`), with an optional version (`by-2.0`); a name without one
/// means the 4.0 licence Flickr added in 2025. `all-rights-reserved` (0) takes
/// a licence back. Flickr's own id works too, except 7 and 8, which Flickr
/// does not let people choose.
public struct FlickrUploadLicense: Sendable, Equatable {
    public let id: Int

    /// What a name without a version means for each Creative Commons kind.
    static let defaultVersion = "4.0"
    static let allRightsReserved = "all-rights-reserved"
    /// Licences Flickr keeps for institutions (Flickr Commons, US government works).
    static let notOffered: Set = [7, 8]

    public init(_ text: String, table: FlickrLicenseTable = .builtIn) throws(FlickrUploadSettingError) {
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let number = Int(name), name.allSatisfy(\.isASCII) {
            guard table.byFlickrID[number] != nil, !Self.notOffered.contains(number) else {
                throw .unknownLicense(text, names: Self.names(in: table))
            }
            id = number
            return
        }
        guard let found = Self.id(named: name, in: table) else { throw .unknownLicense(text, names: Self.names(in: table)) }
        id = found
    }

    /// The licence, for the summary.
    public func license(in table: FlickrLicenseTable = .builtIn) -> License { table.flickr(id: id) }

    private static func id(named name: String, in table: FlickrLicenseTable) -> Int? {
        if name == allRightsReserved { return 0 }
        // `by-nc-2.0`: the kind, then a version that starts with a digit.
        var kindName = name
        var version: String?
        if let dash = name.lastIndex(of: "-"), name[name.index(after: dash)...].first?.isNumber == true {
            kindName = String(name[..<dash])
            let digits = String(name[name.index(after: dash)...])
            version = digits.contains(".") ? digits : digits + ".0"
        }
        guard let kind = License.Kind(rawValue: kindName), offeredKinds.contains(kind) else { return nil }
        let candidates = table.byFlickrID.values.filter { $0.kind == kind && !notOffered.contains($0.providerID ?? -1) }
        if let hit = candidates.first(where: { $0.version == (version ?? defaultVersion) }) { return hit.providerID }
        // CC0 and the Public Domain Mark have one version each: theirs is meant.
        return version == nil && candidates.count == 1 ? candidates[0].providerID : nil
    }

    private static let offeredKinds: [License.Kind] = [.by, .bySA, .byND, .byNC, .byNCSA, .byNCND, .cc0, .pdm]

    /// "by, by-sa, … (4.0; add -2.0 for the 2.0 licence), cc0, pdm, all-rights-reserved, or Flickr's id 0–16 but 7 and 8".
    static func names(in table: FlickrLicenseTable) -> String {
        let kinds = offeredKinds.map(\.rawValue).joined(separator: ", ")
        let ids = table.byFlickrID.keys.filter { !notOffered.contains($0) }.sorted()
        return "\(kinds) (CC 4.0; add a version for another, as in by-2.0), \(allRightsReserved), or Flickr's licence id "
            + "(\(ids.map(String.init).joined(separator: ", ")))"
    }
}

/// `--privacy`: who may see an upload. Sent explicitly with every upload as
/// `is_public`, `is_friend` and `is_family`: Flickr makes a photo public when
/// they are absent.
public enum FlickrUploadPrivacy: String, Sendable, CaseIterable {
    case `public`, friends, family, friendsFamily = "friends-family", `private`

    public init(_ text: String) throws(FlickrUploadSettingError) {
        guard let privacy = Self(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw .unknownPrivacy(text)
        }
        self = privacy
    }

    /// `is_public`, `is_friend`, `is_family`, as Flickr's form takes them.
    public var fields: [(String, String)] {
        let isPublic = self == .public
        let isFriend = self == .friends || self == .friendsFamily
        let isFamily = self == .family || self == .friendsFamily
        return [("is_public", isPublic ? "1" : "0"), ("is_friend", isFriend ? "1" : "0"), ("is_family", isFamily ? "1" : "0")]
    }
}

/// A setting of `flickr upload` that cannot be used, refused before anything is sent.
public enum FlickrUploadSettingError: WordedError, Equatable {
    case unknownLicense(String, names: String)
    case unknownPrivacy(String)

    public var description: String {
        switch self {
        case .unknownLicense(let text, let names):
            "--license \(Self.quoted(text)) is not a licence Flickr lets you choose. Use one of: \(names)."
        case .unknownPrivacy(let text):
            "--privacy \(Self.quoted(text)) is not a privacy setting. Use one of: "
                + FlickrUploadPrivacy.allCases.map(\.rawValue).joined(separator: ", ") + "."
        }
    }

    /// What the person typed, short and printable (it is echoed to the terminal).
    private static func quoted(_ text: String) -> String {
        "“" + FlickrAccount.printable(text).prefix(40) + "”"
    }
}
