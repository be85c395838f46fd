import PhotoCore

extension OpenverseProvider: PhotoLookup {
    /// Details by id; no recent uploads, photostreams, albums, links of its
    /// own or video files.
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(
            // Pretending (a search for everything) would show an arbitrary
            // order under that name.
            recent: .unsupported(Self.noRecentPhotos),
            lookup: .supported(self),
            collections: .unsupported(Self.noCollections),
            links: .unsupported(Self.noCollections),
            videos: .unsupported("Openverse offers no video files here."),
            favourites: .unsupported("Openverse has no accounts to sign in to here, so no favourites; Flickr has them."))
    }

    static let noRecentPhotos = "Openverse has no recent photos; type words to search."

    /// Openverse indexes single works: it has no photostreams or albums,
    /// only a creator search (which takes no other words).
    static let noCollections =
        "Openverse has no albums or photostreams; user:NAME filters by creator (without other search words)."
}
