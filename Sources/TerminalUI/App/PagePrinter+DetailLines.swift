import Binding
import FlickrViewModels
import Foundation
import Platform

/// The text under an opened photo, and which of its lines are links.
extension PagePrinter {
    /// Which detail lines lead where: the title and the page line to the
    /// photo's page, the owner line to their photostream.
    static func detailLinks(_ lines: [String], cell: ImageModel, pageURL: URL?) -> [Int: URL] {
        var links: [Int: URL] = [:]
        var onPageLine = false
        for (index, line) in lines.enumerated() {
            // The page line comes last, and may go on over several lines.
            onPageLine = onPageLine || line.hasPrefix("page: ")
            if index == 0 || onPageLine {
                links[index] = pageURL
            } else if line.hasPrefix("owner: ") {
                links[index] = cell.links.owner
            }
        }
        return links
    }

    /// The lines under an opened photo, each field once: title, owner, date
    /// taken and size from the result, then the service's other details,
    /// the page last.
    static func detailLines(_ detail: PhotoDetail, facts: PhotoFactsResult, columns: Int) -> [String] {
        let cell = detail.model
        // A photo opened from a link is not a result: it has no number.
        var lines = [(cell.number > 0 ? "#\(cell.number) " : "") + PageGeometry.title(of: cell)]
        lines.append("owner: " + (cell.owner == cell.ownerID ? cell.ownerID : "\(cell.owner) (\(cell.ownerID))"))
        if let visibility = cell.visibilityName { lines.append("visibility: \(visibility)") }
        if let taken = cell.dateTaken, !taken.isEmpty { lines.append("taken: \(taken)") }
        if let dimensions = detail.dimensions {
            lines.append("size: \(dimensions.width)×\(dimensions.height)")
        }
        if let details = StatusText.details(facts, shownLabels: ["owner", "taken", "page"], columns: columns) {
            lines += details.components(separatedBy: "\n")
        }
        if let url = detail.pageURL {
            lines += StatusText.copyable(
                "page: " + TextSanitizer.sanitize(url.absoluteString, maximumLength: StatusText.copyableLength), columns: columns)
        }
        return lines
    }
}
