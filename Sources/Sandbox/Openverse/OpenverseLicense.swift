/// A Flickr licence as Openverse indexes it: slug, version and deed URL.
/// Only openly licensed works are in Openverse, so "All Rights Reserved"
/// (0) and the two Flickr marks Openverse's Flickr ingestion leaves out
/// ("No known copyright restrictions" 7, "United States Government Work" 8)
/// have none.
struct OpenverseLicense: Equatable {
    /// Openverse's `license` values.
    static let slugs = ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd", "cc0", "pdm"]

    /// Openverse's `license_type` groups. `all-cc` leaves out the Public
    /// Domain Mark, which is no licence; `commercial` and `modification`
    /// hold what permits commercial use and adaptation.
    static let groups: [String: Set<String>] = [
        "all": Set(slugs),
        "all-cc": ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd", "cc0"],
        "commercial": ["by", "by-sa", "by-nd", "cc0", "pdm"],
        "modification": ["by", "by-sa", "by-nc", "by-nc-sa", "cc0", "pdm"],
    ]

    let slug: String
    let version: String

    init?(flickrID: Int) {
        switch flickrID {
        case 1: (slug, version) = ("by-nc-sa", "2.0")
        case 2: (slug, version) = ("by-nc", "2.0")
        case 3: (slug, version) = ("by-nc-nd", "2.0")
        case 4: (slug, version) = ("by", "2.0")
        case 5: (slug, version) = ("by-sa", "2.0")
        case 6: (slug, version) = ("by-nd", "2.0")
        case 9: (slug, version) = ("cc0", "1.0")
        case 10: (slug, version) = ("pdm", "1.0")
        case 11: (slug, version) = ("by", "4.0")
        case 12: (slug, version) = ("by-sa", "4.0")
        case 13: (slug, version) = ("by-nd", "4.0")
        case 14: (slug, version) = ("by-nc", "4.0")
        case 15: (slug, version) = ("by-nc-sa", "4.0")
        case 16: (slug, version) = ("by-nc-nd", "4.0")
        default: return nil
        }
    }

    var isPublicDomain: Bool { slug == "cc0" || slug == "pdm" }

    var url: String {
        switch slug {
        case "cc0": "https://creativecommons.org/publicdomain/zero/\(version)/"
        case "pdm": "https://creativecommons.org/publicdomain/mark/\(version)/"
        default: "https://creativecommons.org/licenses/\(slug)/\(version)/"
        }
    }

    /// "CC BY-SA 4.0", "CC0 1.0", "Public Domain Mark 1.0".
    var fullName: String {
        switch slug {
        case "cc0": "CC0 \(version)"
        case "pdm": "Public Domain Mark \(version)"
        default: "CC \(slug.uppercased()) \(version)"
        }
    }

    /// Openverse's plain-text attribution sentence.
    func attribution(title: String, creator: String) -> String {
        let work = title.isEmpty ? "This work" : "\"\(title)\""
        let by = creator.isEmpty ? "" : " by \(creator)"
        let verb = isPublicDomain ? "is marked with" : "is licensed under"
        let terms = isPublicDomain ? "the terms" : "a copy of this license"
        return "\(work)\(by) \(verb) \(fullName). To view \(terms), visit \(url)."
    }
}
