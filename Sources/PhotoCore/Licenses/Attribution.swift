import Foundation

/// The credit line Creative Commons recommends (TASL: Title, Author,
/// Source, Licence):
/// `"Lighthouse at dusk" by Ana Souza (https://…) is licensed under CC BY 2.0 (https://…).`
///
/// Public-domain works are "marked with" rather than "licensed under"; an
/// untitled work is "This work"; a missing author drops "by"; a work under
/// all rights reserved says so instead of naming a licence.
public enum Attribution {
    public static func line(title: String, author: String?, source: URL?, license: License?) -> String {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        var line = title.isEmpty ? "This work" : "\"\(title)\""
        if let author = author?.trimmingCharacters(in: .whitespacesAndNewlines), !author.isEmpty {
            line += " by \(author)"
        }
        if let source { line += " (\(source.absoluteString))" }
        guard let license else { return line + "." }
        switch license.kind {
        case .allRightsReserved:
            return line + ": all rights reserved."
        default:
            let verb = license.isMark ? "is marked with" : "is licensed under"
            let link = license.url.map { " (\($0.absoluteString))" } ?? ""
            return line + " \(verb) \(license.shortName)\(link)."
        }
    }
}
