import PhotoCore

extension ShutterstockProvider {
    /// Shutterstock has no photostreams or albums to browse, only a
    /// contributor filter on searches.
    public var collectionSupport: CollectionSupport {
        .unsupported("Shutterstock has no albums or photostreams; user:NAME filters by contributor.")
    }
}
