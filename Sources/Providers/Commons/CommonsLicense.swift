import PhotoCore
import Foundation

/// A file's terms from its `LicenseShortName`, `License` and `LicenseUrl`.
///
/// Commons names its licences in words (`CC BY-SA 4.0`, `CC0`, `Public
/// domain`, `CC BY 2.0 fr`, `GFDL`). One of the licence table's licences is
/// that licence, with the table's names and deed; anything else (a ported
/// licence, the GFDL, a free-text licence) is shown as Commons gives it, with
/// its deed when that is a web address. Nothing is guessed from the URL
/// alone: terms that cannot be read are not stated.
enum CommonsLicense {
    static func terms(shortName: String?, code: String?, url: String?) -> License? {
        let name = CommonsText.line(shortName)
        let code = code?.trimmingCharacters(in: .whitespaces).lowercased()
        let deed = webURL(url)
        if let name, let known = international(name) ?? publicDomainTool(name, code: code) { return known }
        if let code, let known = fromCode(code) { return known }
        if let name, let ported = ported(name, deed: deed) { return ported }
        if isPublicDomain(name: name, code: code) {
            let label = name ?? "Public domain"
            return License(kind: .pdm, version: nil, shortName: label, fullName: label, url: deed)
        }
        guard let label = name ?? code.flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        return License(kind: .other, version: nil, shortName: label, fullName: label, url: deed)
    }

    /// `CC BY-SA 4.0`: one of the six licences, unported, in the table's words.
    private static func international(_ name: String) -> License? {
        let words = name.split(separator: " ").map(String.init)
        guard words.count == 3, words[0].uppercased() == "CC", isVersion(words[2]),
              let kind = License.Kind(rawValue: words[1].lowercased()), kind.isCreativeCommonsLicence
        else { return nil }
        return fromTable("CC \(kind.rawValue.uppercased()) \(words[2])")
    }

    /// `CC0` or `CC0 1.0`.
    private static func publicDomainTool(_ name: String, code: String?) -> License? {
        let upper = name.uppercased()
        guard upper == "CC0" || upper == "CC0 1.0" || upper == "CC ZERO" else { return nil }
        return fromTable("CC0 1.0")
    }

    /// The standard licence of that name; it carries no provider's id (a
    /// Commons file has no Flickr licence id, and `--json` would print one).
    private static func fromTable(_ shortName: String) -> License? {
        LicenseTable.standard(shortName: shortName)
    }

    /// `cc-by-sa-4.0`, `cc0`, `cc-zero`: the template code, when the short
    /// name did not say.
    private static func fromCode(_ code: String) -> License? {
        if code == "cc0" || code == "cc-zero" { return fromTable("CC0 1.0") }
        guard code.hasPrefix("cc-"), let last = code.lastIndex(of: "-") else { return nil }
        let version = String(code[code.index(after: last)...])
        let kind = String(code[code.index(code.startIndex, offsetBy: 3)..<last])
        guard isVersion(version) else { return nil }
        return international("CC \(kind) \(version)")
    }

    /// `CC BY 2.0 fr`: a ported licence. Its kind is known (what it allows),
    /// its name and deed are Commons'.
    private static func ported(_ name: String, deed: URL?) -> License? {
        let words = name.split(separator: " ").map(String.init)
        guard words.count == 4, words[0].uppercased() == "CC", isVersion(words[2]),
              words[3].count <= 8, words[3].allSatisfy({ $0.isASCII && $0.isLetter }),
              let kind = License.Kind(rawValue: words[1].lowercased()), kind.isCreativeCommonsLicence
        else { return nil }
        return License(kind: kind, version: words[2], shortName: name, fullName: name, url: deed)
    }

    private static func isPublicDomain(name: String?, code: String?) -> Bool {
        if let name, ["public domain", "pd"].contains(name.lowercased()) { return true }
        guard let code else { return false }
        return code == "pd" || code.hasPrefix("pd-")
    }

    /// `4.0`, `2.5`, `1.0`.
    private static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    private static func webURL(_ text: String?) -> URL? {
        guard let text, let url = CommonsResponseDecoder.webURL(.string(text)), !url.path.contains("..") else { return nil }
        return url
    }
}
