import PhotoCore
import Foundation
import Networking

// MARK: - Links and what Commons has instead of albums

extension CommonsProvider: PhotoLookup, LinkReader {
    /// Details by page id and its file links; no recent uploads as such,
    /// no photostreams or albums (it has categories), and video files are
    /// not fetched (their posters are shown).
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(
            recent: .unsupported(Self.noRecentPhotos),
            lookup: .supported(self),
            collections: .unsupported(Self.noCollections),
            links: .supported(self),
            videos: .unsupported("Wikimedia Commons' video files are not downloaded here; their posters are."),
            favourites: .unsupported("Wikimedia Commons has no accounts to sign in to here, so no favourites; Flickr has them."))
    }

    /// The hosts of Commons' file pages.
    static let hosts: Set<String> = ["commons.wikimedia.org", "commons.m.wikimedia.org"]

    /// A file page, `commons.wikimedia.org/wiki/File:NAME`, is a link to the
    /// file (named by its title: `.photo(id: "File:NAME")`); other pages of
    /// the site are not opened, and say which are. No network.
    public func readLink(_ text: String) -> LinkReading {
        Self.readLink(text)
    }

    static func readLink(_ text: String) -> LinkReading {
        guard let address = LinkAddress(text), address.userinfo == nil, hosts.contains(address.host) else { return .notALink }
        let segments = address.segments
        if segments.count == 2, segments[0] == "wiki", let colon = segments[1].firstIndex(of: ":"),
           ["file", "image"].contains(segments[1][..<colon].lowercased()),
           !segments[1][segments[1].index(after: colon)...].isEmpty {
            return .link(.photo(id: CommonsText.pageTitle(fromFileName: segments[1])))
        }
        return .unsupported("Only Wikimedia Commons' file pages open here (commons.wikimedia.org/wiki/File:…); type words to search.")
    }

    /// The file a link names, by title (or by page id).
    public func resolve(_ link: ProviderLink) async throws -> LinkTarget {
        guard case .photo(let id) = link else { throw UnsupportedByProvider(Self.noCollections) }
        let url = Self.isPageID(id)
            ? try CommonsSearchRequest.fileURL(endpoint: endpoint, pageID: id, thumbnailWidth: thumbnailWidth)
            : try CommonsSearchRequest.fileURL(endpoint: endpoint, title: id, thumbnailWidth: thumbnailWidth)
        do throws(CommonsError) {
            return .photo(Self.photo(from: try await file(at: url)))
        } catch {
            if case .invalidRequest = error {
                throw CommonsError.invalidRequest("Wikimedia Commons has no file “\(ResponseExcerpt.make(id, limit: 80))”.")
            }
            throw error
        }
    }

    static let noCollections =
        "Wikimedia Commons has no albums or photostreams; paste a file's link (commons.wikimedia.org/wiki/File:…) to open it."
}
