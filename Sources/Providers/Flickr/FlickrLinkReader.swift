import FlickrKit
import Foundation

/// Reads a line typed or pasted at the prompt as a Flickr link, without
/// asking Flickr anything.
///
/// The line must be one URL on Flickr's hosts (`flickr.com` and its
/// `www.`, `m.` and `secure.` names, `flic.kr`, the static image hosts), with
/// or without a scheme; search words never are. Query strings, fragments
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
            guard path.count == 2, path[0] == "p", let id = decodeBase58(path[1]) else { return nil }
            return .photo(id: id)
        },
        // live.staticflickr.com/SERVER/ID_SECRET[_SIZE].EXT
        Route(site: .images) { path in
            guard path.count >= 2, let name = path.last,
                  let id = name.split(separator: "_").first, id.count < name.count, isNumber(id)
            else { return nil }
            return .photo(id: String(id))
        },
        // /photos/USER/ID/… (…/in/album-…, …/sizes/l/, …/lightbox/)
        Route(site: .flickr) { path in
            guard path.count >= 3, path[0] == "photos", isUser(path[1]), isNumber(path[2]) else { return nil }
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
    /// when `text` is not one URL on one of them.
    static func split(_ text: String) -> (Site, [String])? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.contains(where: \.isWhitespace) else { return nil }
        var rest = Substring(trimmed)
        for scheme in ["https://", "http://"] where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
        }
        if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
        let hostEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        var host = rest[..<hostEnd].lowercased()
        if let colon = host.firstIndex(of: ":") { host = String(host[..<colon]) }
        guard let site = site(of: host) else { return nil }
        var path = rest[hostEnd...]
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        let segments = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        return (site, segments)
    }

    private static func site(of host: String) -> Site? {
        switch host {
        case "flickr.com", "www.flickr.com", "m.flickr.com", "secure.flickr.com": .flickr
        case "flic.kr", "www.flic.kr": .shortLinks
        default:
            host.hasSuffix(".staticflickr.com") || host.hasSuffix(".static.flickr.com") ? .images : nil
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
}

extension FlickrProvider {
    /// Flickr's photo pages, short links, photostreams, profiles, albums,
    /// galleries and group pools (see `FlickrLinkReader`).
    public func readLink(_ text: String) -> LinkReading {
        FlickrLinkReader.read(text)
    }
}
