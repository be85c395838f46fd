import FlickrKit
import Foundation

/// A person or an album as the command line names it (`flickr user NAME`,
/// `flickr album URL|ID`, `download --user | --album`), before the service
/// is asked.
public enum CollectionChoice: Sendable, Equatable {
    /// A username, path alias, id or profile URL.
    case user(String)
    /// An album's id or its link.
    case album(String)

    /// Finds the photostream or album at `provider`.
    ///
    /// - Throws: `CollectionLookupError` with a sentence: the provider's own
    ///   when it has no photostreams or albums (before any request), the
    ///   service's reason when it does not know the name, or why the text is
    ///   not an album.
    public func collection(at provider: any PhotoProvider) async throws(CollectionLookupError) -> PhotoCollection {
        if case .unsupported(let sentence) = provider.collectionSupport { throw CollectionLookupError(sentence) }
        do {
            switch self {
            case .user(let name):
                return .photostream(of: try await provider.person(named: name))
            case .album(let text):
                return try await Self.album(text, at: provider)
            }
        } catch let error as CollectionLookupError {
            throw error
        } catch {
            throw CollectionLookupError(userMessage(for: error))
        }
    }

    /// An album link is read by the provider and resolved; a bare id (letters
    /// and digits) is resolved as an album of no named owner.
    private static func album(_ text: String, at provider: any PhotoProvider) async throws -> PhotoCollection {
        let link: ProviderLink
        switch provider.readLink(text) {
        case .link(.album(let id, let owner)):
            link = .album(id: id, owner: owner)
        case .link:
            throw CollectionLookupError("\(SafeFileName.quoted(text)) is a \(provider.service.name) link, but not to an album; "
                + "an album's link has /albums/ID in it.")
        case .unsupported(let sentence):
            throw CollectionLookupError(sentence)
        case .notALink:
            guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) else {
                throw CollectionLookupError("\(SafeFileName.quoted(text)) is neither an album id (digits) nor a link to an album.")
            }
            link = .album(id: text, owner: nil)
        }
        switch try await provider.resolve(link) {
        case .collection(let collection):
            return collection
        case .photo:
            throw CollectionLookupError("\(SafeFileName.quoted(text)) leads to a photo, not an album.")
        }
    }
}

/// Why a person's photos or an album cannot be listed, in a sentence.
public struct CollectionLookupError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}
