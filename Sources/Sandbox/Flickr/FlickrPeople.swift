import Foundation

/// Flickr's licences as `flickr.photos.licenses.getInfo` lists them (2025),
/// in Flickr's order.
enum FlickrLicenseList {
    struct Entry: Sendable {
        let id: Int
        let name: String
        let url: String
    }

    static let all: [Entry] = [
        Entry(id: 0, name: "All Rights Reserved",
              url: "https://www.flickrhelp.com/hc/en-us/articles/10710266545556-Using-Flickr-images-shared-by-other-members"),
        cc(4, "by", "2.0"), cc(6, "by-nd", "2.0"), cc(3, "by-nc-nd", "2.0"), cc(2, "by-nc", "2.0"),
        cc(1, "by-nc-sa", "2.0"), cc(5, "by-sa", "2.0"),
        Entry(id: 7, name: "No known copyright restrictions", url: "https://www.flickr.com/commons/usage/"),
        Entry(id: 8, name: "United States Government Work", url: "https://www.usa.gov/government-copyright"),
        Entry(id: 9, name: "Public Domain Dedication (CC0)", url: "https://creativecommons.org/publicdomain/zero/1.0/"),
        Entry(id: 10, name: "Public Domain Mark", url: "https://creativecommons.org/publicdomain/mark/1.0/"),
        cc(11, "by", "4.0"), cc(12, "by-sa", "4.0"), cc(13, "by-nd", "4.0"), cc(14, "by-nc", "4.0"),
        cc(15, "by-nc-sa", "4.0"), cc(16, "by-nc-nd", "4.0"),
    ]

    private static func cc(_ id: Int, _ slug: String, _ version: String) -> Entry {
        Entry(id: id, name: "CC \(slug.uppercased()) \(version)", url: "https://creativecommons.org/licenses/\(slug)/\(version)/")
    }
}

extension RestAPI {
    /// `flickr.people.findByUsername` (by username, case-blind) and
    /// `flickr.urls.lookupUser` (a profile or photostream URL, by path alias
    /// or NSID); Flickr's "User not found" otherwise.
    func people(_ method: String, _ value: (String) -> String?) -> RestPayload {
        let owner: CatalogPerson?
        if method == "flickr.people.findByUsername" {
            let wanted = (value("username") ?? "").trimmingCharacters(in: .whitespaces)
            owner = wanted.isEmpty ? nil : catalog.person(username: wanted)
        } else {
            owner = Self.profileName(value("url") ?? "").flatMap(catalog.person(urlName:))
        }
        guard let owner else { return .failure(code: 1, message: "User not found") }
        return .user(nsid: owner.nsid, username: owner.username, method: method)
    }

    /// `https://www.flickr.com/photos/NAME/…` or `/people/NAME/` → NAME.
    static func profileName(_ url: String) -> String? {
        guard let parts = flickrPath(url), parts.count >= 2, parts[0] == "photos" || parts[0] == "people" else { return nil }
        return parts[1]
    }

    /// The path components of a flickr.com URL, percent-decoded; nil for other hosts.
    static func flickrPath(_ url: String) -> [String]? {
        guard let components = URLComponents(string: url.trimmingCharacters(in: .whitespaces)),
              let host = components.host?.lowercased(), host == "flickr.com" || host.hasSuffix(".flickr.com")
        else { return nil }
        return components.path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
    }
}
