import PhotoCore

extension ShutterstockProvider: RecentPhotos {
    /// Recent uploads; no details by id, photostreams, albums, links of its
    /// own or video files.
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(
            recent: .supported(self),
            lookup: .unsupported("Shutterstock has no call for a photo's details by id; search for it instead."),
            collections: .unsupported(Self.noCollections),
            links: .unsupported(Self.noCollections),
            videos: .unsupported("Shutterstock offers no video files here."),
            favourites: .unsupported("Shutterstock has no accounts to sign in to here, so no favourites; Flickr has them."))
    }

    /// Shutterstock has no photostreams or albums to browse, only a
    /// contributor filter on searches.
    static let noCollections = "Shutterstock has no albums or photostreams; user:NAME filters by contributor."
}
