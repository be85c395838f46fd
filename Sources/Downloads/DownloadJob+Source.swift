import PhotoCore

extension DownloadJob {
    /// What a download takes its photos from, once the service has found
    /// it: a search's results, or a photostream's, album's, gallery's or
    /// pool's photos.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case search(SearchQuery)
        case collection(PhotoCollection)

        public var description: String {
            switch self {
            case .search(let query): query.description
            case .collection(let collection): collection.description
            }
        }

        /// The last page `provider` serves of `pages`: a search stops at the
        /// service's result cap; photostreams, albums, galleries and pools do not.
        func lastServedPage(pages: Int, perPage: Int, from provider: any PhotoProvider) -> Int {
            if case .collection = self { return max(pages, 1) }
            return provider.lastServedPage(pages: pages, perPage: perPage)
        }

        func page(_ number: Int, perPage: Int, from provider: any PhotoProvider) async throws -> PhotoPage {
            switch self {
            case .search(let query): try await provider.search(query, page: number, perPage: perPage)
            case .collection(let collection):
                try await provider.capabilities.collections.required().photos(in: collection, page: number, perPage: perPage)
            }
        }
    }
}
