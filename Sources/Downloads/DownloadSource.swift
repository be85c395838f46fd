import PhotoCore

/// What `flickr download` is asked for, read from its words, `--user` and
/// `--album` before any request: a search, or a person's photos or an
/// album, which the service is asked for once connected.
public enum DownloadSource: Sendable, Equatable {
    case search(SearchQuery)
    case collection(CollectionChoice)

    /// - Throws: `QueryError` with a sentence: both a person and an album,
    ///   words with an album (downloaded whole), a name given as nothing, no
    ///   words at all, or words that do not parse.
    public init(words: [String], user: String?, album: String?) throws(QueryError) {
        if user != nil, album != nil { throw QueryError("Give --user or --album, not both.") }
        if let album {
            let choice = CollectionChoice.album(album)
            try choice.check()
            guard words.isEmpty else {
                throw QueryError("An album is downloaded whole: drop the words and filters, or search with user:NAME instead.")
            }
            self = .collection(choice)
        } else if let user {
            try CollectionChoice.user(user).check()
            guard !words.isEmpty else {
                self = .collection(.user(user))
                return
            }
            // Words with --user: a search within that person's photos.
            let words = try SearchQuery.required(words: words)
            var filters = words.filters
            filters.user = user
            guard let search = words.with(filters: filters) else { throw SearchQuery.noWords }
            self = .search(search)
        } else {
            self = .search(try SearchQuery.required(words: words))
        }
    }

    /// The results to fetch: the search, or the collection the service finds.
    public func query(at provider: any PhotoProvider) async throws(CollectionLookupError) -> DownloadJob.Source {
        switch self {
        case .search(let query): .search(query)
        case .collection(let choice): .collection(try await choice.collection(at: provider))
        }
    }
}
