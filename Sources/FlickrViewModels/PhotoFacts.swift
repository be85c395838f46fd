import PhotoCore
import Foundation

/// What the service tells about one photo beyond a search result, as the
/// detail view and `flickr info` show it. Text is as the service sent it
/// (HTML already stripped): the view sanitises before printing.
public struct PhotoFacts: Sendable, Equatable {
    public var id: String
    public var title: String
    public var description: String
    public var tags: [String]
    public var dateTaken: String?
    public var views: Int?
    /// The licence's short name and its deed.
    public var license: String?
    public var licenseURL: String?
    /// The credit line to copy with the photo.
    public var attribution: String
    /// The owner's real name, else user name, else id.
    public var owner: String?
    public var ownerID: String?
    public var pageURL: String?

    init(_ details: PhotoDetails, fallbackPage: URL? = nil) {
        id = details.id
        title = details.title
        description = details.description.trimmingCharacters(in: .whitespacesAndNewlines)
        tags = details.tags
        dateTaken = details.dateTaken
        views = details.views
        license = details.license?.shortName
        licenseURL = details.license?.url?.absoluteString
        var credited = details
        credited.pageURL = details.pageURL ?? fallbackPage
        attribution = credited.attributionLine
        owner = details.ownerName
        ownerID = details.ownerID
        pageURL = (details.pageURL ?? fallbackPage)?.absoluteString
    }

    /// Labelled lines for text output, in reading order; absent facts left out.
    public var lines: [(label: String, value: String)] {
        var lines: [(String, String)] = []
        if let owner {
            let showsID = ownerID.map { !$0.isEmpty && $0 != owner } ?? false
            lines.append(("owner", showsID ? "\(owner) (\(ownerID ?? ""))" : owner))
        }
        if let dateTaken, !dateTaken.isEmpty { lines.append(("taken", dateTaken)) }
        if let views { lines.append(("views", views.formatted())) }
        if let license, !license.isEmpty {
            lines.append(("licence", license + (licenseURL.map { " (\($0))" } ?? "")))
            lines.append(("credit", attribution))
        }
        if !tags.isEmpty { lines.append(("tags", tags.joined(separator: ", "))) }
        if !description.isEmpty { lines.append(("description", description)) }
        if let pageURL { lines.append(("page", pageURL)) }
        return lines
    }

    /// Looks a photo up by id (`flickr info`).
    /// - Throws: the provider's failure, worded for a person, as `ListingError`.
    public static func lookUp(id: String, from provider: any PhotoProvider) async throws(ListingError) -> PhotoFacts {
        do {
            return PhotoFacts(try await provider.capabilities.lookup.required().photoDetails(id: id))
        } catch {
            throw ListingError(message: userMessage(for: error))
        }
    }
}

/// The facts of an opened photo: there, or why not.
public enum PhotoFactsResult: Sendable, Equatable {
    case facts(PhotoFacts)
    case unavailable(String)
}
