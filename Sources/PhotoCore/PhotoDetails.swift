import Foundation
import Networking

/// What a service says about one photo beyond a search result: Flickr's
/// `flickr.photos.getInfo`.
///
/// Text is plain (HTML tags removed, entities decoded) but otherwise as the
/// service sent it: it may hold control characters, so the view sanitises
/// it before printing.
public struct PhotoDetails: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    /// The owner's description as plain text; "" when there is none.
    public var description: String
    /// As the owner typed them (`raw`), falling back to Flickr's normalised form.
    public var tags: [String]
    /// `YYYY-MM-DD HH:MM:SS`, when known.
    public var dateTaken: String?
    /// When the photo was uploaded, when known.
    public var dateUploaded: Date?
    public var views: Int?
    /// The terms ("CC BY 2.0", "All Rights Reserved") and their deed.
    public var license: License?
    /// The service's own credit line, when it writes one.
    public var attribution: String?
    public var ownerID: String?
    public var ownerUsername: String?
    public var ownerRealName: String?
    /// The page to link back to.
    public var pageURL: URL?

    public init(
        id: String, title: String, description: String = "", tags: [String] = [], ownerID: String? = nil,
        ownerUsername: String? = nil, ownerRealName: String? = nil, dateTaken: String? = nil,
        dateUploaded: Date? = nil, views: Int? = nil, license: License? = nil, attribution: String? = nil,
        pageURL: URL? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.tags = tags
        self.ownerID = ownerID
        self.ownerUsername = ownerUsername
        self.ownerRealName = ownerRealName
        self.dateTaken = dateTaken
        self.dateUploaded = dateUploaded
        self.views = views
        self.license = license
        self.attribution = attribution
        self.pageURL = pageURL
    }

    /// The name to show for the owner: the real name when given, else the
    /// user name, else the id.
    public var ownerName: String? {
        [ownerRealName, ownerUsername, ownerID].compactMap { $0 }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The credit line: the service's own, else TASL from the title, the
    /// owner, the page and the licence.
    public var attributionLine: String {
        if let attribution = attribution?.trimmingCharacters(in: .whitespacesAndNewlines), !attribution.isEmpty {
            return attribution
        }
        return Attribution.line(title: title, author: ownerName, source: pageURL, license: license)
    }
}
