import PhotoCore
import Foundation

/// A person or an album as a person names it (`flickr user NAME`,
/// `flickr album URL|ID`, `download --user | --album`, `/user`, `/album`),
/// before the service is asked.
public enum CollectionChoice: Sendable, Equatable {
    /// A username, path alias, id or profile URL.
    case user(String)
    /// An album's id or its link; `owner` is who a bare id belongs to, when
    /// known (the person whose photos are shown).
    case album(String, owner: String? = nil)

    /// A name or album given as nothing at all is refused before any request.
    public func check() throws(QueryError) {
        switch self {
        case .user(let name) where name.trimmingCharacters(in: .whitespaces).isEmpty:
            throw QueryError("Name a person: a username, path alias, NSID or profile URL.")
        case .album(let album, _) where album.trimmingCharacters(in: .whitespaces).isEmpty:
            throw QueryError("Name an album: its link or its id.")
        default:
            return
        }
    }

    /// Finds the photostream or album at `provider`.
    ///
    /// - Throws: `CollectionLookupError` with a sentence: the provider's own
    ///   when it has no photostreams or albums (before any request), the
    ///   service's reason when it does not know the name, or why the text is
    ///   not an album.
    public func collection(at provider: any PhotoProvider) async throws(CollectionLookupError) -> PhotoCollection {
        let collections: any PhotoCollections
        switch provider.capabilities.collections {
        case .supported(let supported): collections = supported
        case .unsupported(let sentence): throw CollectionLookupError(sentence)
        }
        do {
            switch self {
            case .user(let name):
                return .photostream(of: try await collections.person(named: name))
            case .album(let text, let owner):
                return try await Self.album(text, owner: owner, at: provider)
            }
        } catch let error as CollectionLookupError {
            throw error
        } catch {
            throw CollectionLookupError(userMessage(for: error))
        }
    }

    /// A link is read by the provider and resolved: an album's, or any other
    /// set of photos a link names (a gallery, a group's pool, a person's
    /// photos), which are paged the same way. A bare id (letters and digits)
    /// is resolved as an album of `owner`.
    private static func album(_ text: String, owner: String?, at provider: any PhotoProvider) async throws -> PhotoCollection {
        let link: ProviderLink
        switch provider.capabilities.links.available?.readLink(text) ?? .notALink {
        case .link(.photo):
            throw CollectionLookupError("\(SafeFileName.quoted(text)) is a link to one photo, not to an album.")
        case .link(let collection):
            link = collection
        case .unsupported(let sentence):
            throw CollectionLookupError(sentence)
        case .notALink:
            guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) else {
                throw CollectionLookupError("\(SafeFileName.quoted(text)) is neither an album id (digits) nor a link to an album.")
            }
            link = .album(id: text, owner: owner)
        }
        switch try await provider.capabilities.links.required().resolve(link) {
        case .collection(let collection):
            return collection
        case .photo:
            throw CollectionLookupError("\(SafeFileName.quoted(text)) leads to a photo, not an album.")
        }
    }
}

/// Why a person's photos or an album cannot be listed, in a sentence.
public struct CollectionLookupError: WordedError {
    public let message: String
    public var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}
