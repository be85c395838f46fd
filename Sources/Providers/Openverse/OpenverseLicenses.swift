import PhotoCore
import Foundation

extension LicenseTable {
    /// Openverse's `license` slug and `license_version` as a licence. The
    /// deed is built from the slug and version (`url`, the API's
    /// `license_url`, only for a licence the table does not know, and only
    /// on creativecommons.org). `nil` for an empty slug, a slug that is not
    /// one, or a version that is not a version (`" 4.0 "`, `"../../evil"`):
    /// terms that cannot be read are not stated, rather than misstated.
    public static func openverse(slug: String, version: String?, url: URL?) -> License? {
        let slug = slug.trimmingCharacters(in: .whitespaces).lowercased()
        guard isOpenverseSlug(slug) else { return nil }
        var version = version
        if version?.isEmpty == true { version = nil }
        if let version, !isVersion(version) { return nil }
        switch License.Kind(rawValue: slug) {
        case .cc0?: return standard(.cc0, version: version ?? "1.0")
        case .pdm?: return standard(.pdm, version: version ?? "1.0")
        case let kind? where kind.isCreativeCommonsLicence: return standard(kind, version: version ?? "4.0")
        default:
            let name = slug.uppercased() + (version.map { " \($0)" } ?? "")
            let deed = url.flatMap { $0.scheme == "https" && $0.host == "creativecommons.org" && !$0.path.contains("..") ? $0 : nil }
            return License(kind: .other, version: version, shortName: name, fullName: name, url: deed)
        }
    }

    /// What Openverse's slugs are made of: `by-nc-sa`, `cc0`, `sampling+`.
    static func isOpenverseSlug(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 24 && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        }
    }
}
