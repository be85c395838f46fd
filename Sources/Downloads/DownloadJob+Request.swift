import PhotoCore
import Foundation

extension DownloadJob {
    public struct Request: Sendable {
        /// A search, or a photostream or album.
        public var source: Source
        public var pages: Int
        public var perPage: Int
        public var size: PhotoSize
        public var folder: URL
        /// Transfers at once; the pipeline's slots.
        public var concurrency: Int
        /// `NAME.json` and `NAME.xmp` beside each file.
        public var sidecars: Bool
        /// `--name`; nil keeps `{id}_{secret}_{suffix}`.
        public var name: FileNameTemplate?
        /// Fetch videos' files rather than skip them.
        public var videos: Bool

        public init(
            source: Source, pages: Int, perPage: Int, size: PhotoSize, folder: URL, concurrency: Int,
            sidecars: Bool = true, name: FileNameTemplate? = nil, videos: Bool = false
        ) {
            self.source = source
            self.pages = pages
            self.perPage = perPage
            self.size = size
            self.folder = folder
            self.concurrency = concurrency
            self.sidecars = sidecars
            self.name = name
            self.videos = videos
        }

        public init(
            query: SearchQuery, pages: Int, perPage: Int, size: PhotoSize, folder: URL, concurrency: Int, sidecars: Bool = true
        ) {
            self.init(source: .search(query), pages: pages, perPage: perPage, size: size, folder: folder,
                      concurrency: concurrency, sidecars: sidecars)
        }

        /// The album's title for `{album}`: empty unless an album is downloaded.
        var albumTitle: String {
            if case .collection(let collection) = source, collection.kind == .album { return collection.title }
            return ""
        }
    }
}
