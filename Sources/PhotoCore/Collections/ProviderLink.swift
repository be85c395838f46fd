import Foundation

/// What a pasted link points at, as a provider reads it, before any
/// request: names are still as the link spells them.
public enum ProviderLink: Sendable, Hashable {
    /// A photo page (`/photos/USER/ID/`, a `flic.kr/p/…` short link).
    case photo(id: String)
    /// A profile or photostream: `person` is a path alias, username or id.
    case person(String)
    /// An album (`/albums/ID`, `/sets/ID`), with the owner the link names.
    case album(id: String, owner: String?)
    /// A gallery; the service resolves it from its whole URL.
    case gallery(URL)
    /// A group's pool: `group` is the group's path alias or id.
    case pool(group: String)
}

/// How a provider reads a line typed or pasted at the prompt.
public enum LinkReading: Sendable, Hashable {
    /// Not one of this provider's links (search words, another site).
    case notALink
    case link(ProviderLink)
    /// This provider's site, but not a page the app can show; the sentence
    /// says which links are understood.
    case unsupported(String)
}

/// What a link turned out to be, once the provider asked its service.
public enum LinkTarget: Sendable, Hashable {
    case photo(Photo)
    case collection(PhotoCollection)
}

/// A pasted line taken apart as an RFC 3986 URL (scheme, userinfo, host,
/// port, path), strictly enough that a provider's link reader can trust
/// the host it names: a browser would go to the same host.
///
/// Refused outright (nil): whitespace or control characters anywhere,
/// backslashes (browsers read them as `/`), anything but ASCII (look-alike
/// letters), a scheme other than http or https, an empty host, a
/// percent-encoded or bracketed host, and a port that is not digits.
/// A scheme may be left out (`flickr.com/photos/…`, `//flickr.com/…`).
public struct LinkAddress: Sendable, Hashable {
    /// `http` or `https`, lower case; nil when the line had none.
    public var scheme: String?
    /// What came before `@` in the authority (a user name or password);
    /// a link that has one is never read as a provider's link.
    public var userinfo: String?
    /// Lower case, as written otherwise (a trailing dot is kept, so it
    /// matches no provider's host).
    public var host: String
    public var port: Int?
    /// The path as written (still percent-encoded), from its first `/`.
    public var path: Substring
    /// The path's non-empty segments, each percent-decoded.
    public var segments: [String] {
        path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
    }

    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty,
              trimmed.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F && $0 != "\\" })
        else { return nil }
        var rest = Substring(trimmed)
        if let colon = rest.firstIndex(of: ":"),
           rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
           rest[rest.index(after: colon)...].hasPrefix("//") {
            let scheme = rest[..<colon].lowercased()
            guard scheme == "http" || scheme == "https" else { return nil }
            self.scheme = scheme
            rest = rest[rest.index(colon, offsetBy: 3)...]
        } else if rest.hasPrefix("//") {
            scheme = nil
            rest = rest.dropFirst(2)
        } else {
            // No "scheme://": a scheme with anything else after it ("https:/x",
            // "javascript:…") is not a web link; a bare host (with a dot,
            // which no scheme has) and path is.
            let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
            if let colon = rest[..<authorityEnd].firstIndex(of: ":"), !rest[..<colon].contains(".") { return nil }
            scheme = nil
        }
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            userinfo = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        } else {
            userinfo = nil
        }
        var hostText = authority
        port = nil
        if let colon = authority.lastIndex(of: ":") {
            let digits = authority[authority.index(after: colon)...]
            guard digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            port = Int(digits)
            hostText = authority[..<colon]
        }
        guard !hostText.isEmpty,
              hostText.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." })
        else { return nil }
        host = hostText.lowercased()
        var path = rest[authorityEnd...]
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        self.path = path
    }
}
