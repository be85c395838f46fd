import PhotoCore

extension OpenverseProvider {
    /// Openverse indexes single works: it has no photostreams or albums,
    /// only a creator search (which takes no other words).
    public var collectionSupport: CollectionSupport {
        .unsupported("Openverse has no albums or photostreams; user:NAME filters by creator (without other search words).")
    }
}
