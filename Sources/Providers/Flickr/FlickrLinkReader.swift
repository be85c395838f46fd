import PhotoCore
import Foundation

/// Reads a line typed or pasted at the prompt as a Flickr link, without
/// asking Flickr anything.
///
/// The line must be one URL on Flickr's hosts (`flickr.com` and its
/// `www.`, `m.` and `secure.` names, `flic.kr`, the static image hosts), with
/// or without a scheme, and without a user name or password; search words
/// never are. Query strings, fragments
/// and trailing slashes do not matter. What the path means is decided by
/// `routes`, one row per page shape, in order.
public enum FlickrLinkReader {
    /// The sentence for a Flickr URL that is none of the pages understood.
    static let understood = "Only these Flickr links can be opened: a photo page (flickr.com/photos/USER/ID/ or a flic.kr/p/… short link), a photostream or profile (flickr.com/photos/USER/ or flickr.com/people/USER/), an album (flickr.com/photos/USER/albums/ID or …/sets/ID), a gallery (flickr.com/photos/USER/galleries/ID/) and a group pool (flickr.com/groups/NAME/pool/)."

    public static func read(_ text: String) -> LinkReading {
        guard let (site, segments) = split(text) else { return .notALink }
        for route in routes where route.site == site {
            if let link = route.read(segments) { return .link(link) }
        }
        return .unsupported(understood)
    }

    // MARK: - The table

    enum Site: Sendable { case flickr, shortLinks, images }

    struct Route: Sendable {
        var site: Site
        /// The link the path's segments (decoded, without empty ones) name,
        /// or nil when this row does not fit them.
        var read: @Sendable ([String]) -> ProviderLink?
    }

    static let routes: [Route] = [
        // flic.kr/p/BASE58
        Route(site: .shortLinks) { path in
            guard path.count == 2, path[0] == "p", let id = decodeBase58(path[1]), isPhotoID(id) else { return nil }
            return .photo(id: id)
        },
        // live.staticflickr.com/SERVER/ID_SECRET[_SIZE].EXT
        Route(site: .images) { path in
            guard path.count >= 2, let name = path.last,
                  let id = name.split(separator: "_").first, id.count < name.count, isPhotoID(id)
            else { return nil }
            return .photo(id: String(id))
        },
        // /photos/USER/ID/… (…/in/album-…, …/sizes/l/, …/lightbox/)
        Route(site: .flickr) { path in
            guard path.count >= 3, path[0] == "photos", isUser(path[1]), isPhotoID(path[2]) else { return nil }
            return .photo(id: path[2])
        },
        // /photos/USER/albums/ID, /photos/USER/sets/ID
        Route(site: .flickr) { path in
            guard path.count >= 4, path[0] == "photos", isUser(path[1]), ["albums", "sets"].contains(path[2]),
                  isNumber(path[3]) else { return nil }
            return .album(id: path[3], owner: path[1])
        },
        // /photos/USER/galleries/ID/
        Route(site: .flickr) { path in
            guard path.count >= 4, path[0] == "photos", isUser(path[1]), path[2] == "galleries", isNumber(path[3]),
                  let url = URL(string: "https://www.flickr.com/photos/\(path[1])/galleries/\(path[3])/")
            else { return nil }
            return .gallery(url)
        },
        // /photos/USER/ and its later pages (/photos/USER/page2)
        Route(site: .flickr) { path in
            guard path.count == 2 || (path.count == 3 && path[2].hasPrefix("page") && isNumber(path[2].dropFirst(4))),
                  path[0] == "photos", isUser(path[1]) else { return nil }
            return .person(path[1])
        },
        // /people/USER/
        Route(site: .flickr) { path in
            guard path.count == 2, path[0] == "people", isUser(path[1]) else { return nil }
            return .person(path[1])
        },
        // /groups/NAME/ and /groups/NAME/pool/…
        Route(site: .flickr) { path in
            guard path.count == 2 || (path.count >= 3 && path[2] == "pool"), path[0] == "groups", isUser(path[1])
            else { return nil }
            return .pool(group: path[1])
        },
    ]

    // MARK: - Pieces

    /// Which of Flickr's sites `text` is on and its path's segments; nil
    /// when `text` is not one URL on one of them. The line is taken apart
    /// by RFC 3986 (`LinkAddress`), so the host is the one a browser would
    /// visit: a link with a user name or password before `@`
    /// (`https://www.flickr.com:443@evil.example/`) is never Flickr's.
    static func split(_ text: String) -> (Site, [String])? {
        guard let address = LinkAddress(text), address.userinfo == nil, let site = site(of: address.host) else { return nil }
        return (site, address.segments)
    }

    /// Only Flickr's own names, exactly; the image hosts are any one-label
    /// name under Flickr's image domains (`live.`, `farm1.`).
    private static func site(of host: String) -> Site? {
        switch host {
        case "flickr.com", "www.flickr.com", "m.flickr.com", "secure.flickr.com": return .flickr
        case "flic.kr", "www.flic.kr": return .shortLinks
        default:
            for domain in [".staticflickr.com", ".static.flickr.com"] where host.hasSuffix(domain) {
                let label = host.dropLast(domain.count)
                if !label.isEmpty, label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) { return .images }
            }
            return nil
        }
    }

    /// A path alias or NSID as Flickr's URLs hold them: letters, digits,
    /// `@`, `_`, `-`, and not one of Flickr's own page names.
    private static func isUser(_ text: String) -> Bool {
        FlickrProvider.isPathSafe(text) && !["tags", "upload", "organize", "friends", "search", "explore"].contains(text)
    }

    private static func isNumber<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// A photo id as Flickr writes one: digits, no leading zero, within 64
    /// bits (so every photo link has a short link that reads back the same).
    private static func isPhotoID<S: StringProtocol>(_ text: S) -> Bool {
        isNumber(text) && text.first != "0" && UInt64(text) != nil
    }

    /// Flickr's base 58 (no 0, O, I or l; lower case before upper case).
    static let base58Alphabet = Array("123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ")

    /// The photo id a short link's code stands for; nil for a code that is
    /// empty, holds another character or is too large to be an id.
    static func decodeBase58(_ code: String) -> String? {
        guard !code.isEmpty else { return nil }
        var value: UInt64 = 0
        for character in code {
            guard let digit = base58Alphabet.firstIndex(of: character) else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 58)
            let (sum, overflowB) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value == 0 ? nil : String(value)
    }

    /// The short code for a photo id (the inverse of `decodeBase58`).
    static func encodeBase58(_ id: UInt64) -> String {
        var value = id
        var code: [Character] = []
        repeat {
            code.append(base58Alphabet[Int(value % 58)])
            value /= 58
        } while value > 0
        return String(code.reversed())
    }

    /// A link that reads back as `link`: the page Flickr would show for it
    /// (a short link for a photo, whose owner the link does not keep); nil
    /// for what no link of this reader names.
    public static func address(of link: ProviderLink) -> String? {
        switch link {
        case .photo(let id):
            guard isPhotoID(id), let number = UInt64(id) else { return nil }
            return "https://flic.kr/p/\(encodeBase58(number))"
        case .person(let user):
            guard isUser(user) else { return nil }
            return "https://www.flickr.com/photos/\(user)/"
        case .album(let id, let owner?):
            guard isUser(owner), isNumber(id) else { return nil }
            return "https://www.flickr.com/photos/\(owner)/albums/\(id)"
        case .album(_, nil):
            return nil
        case .gallery(let url):
            return url.absoluteString
        case .pool(let group):
            guard isUser(group) else { return nil }
            return "https://www.flickr.com/groups/\(group)/pool/"
        }
    }
}

extension FlickrProvider {
    /// Flickr's photo pages, short links, photostreams, profiles, albums,
    /// galleries and group pools (see `FlickrLinkReader`).
    public func readLink(_ text: String) -> LinkReading {
        FlickrLinkReader.read(text)
    }
}
