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

/// Whether a provider has photostreams, albums, galleries and pools; when
/// not, the sentence saying what it has instead (`/provider`, `/user`).
public enum CollectionSupport: Sendable, Hashable {
    case supported
    case unsupported(String)
}
