import NIOConcurrencyHelpers

/// Catalog searches shared by the Flickr and Shutterstock endpoints, with
/// recent results kept, so paging through one query (on either API) does not
/// intersect posting lists again.
final class SearchCache: Sendable {
    let catalog: Catalog
    private let recent = NIOLockedValueBox<[String: [Int]]>([:])

    init(catalog: Catalog) { self.catalog = catalog }

    /// Indexes of the photos matching `text`, in `sort` order.
    func search(text: String, sort: SearchSort) -> [Int] {
        let key = sort.rawValue + "\u{0}" + text.lowercased()
        if let hit = recent.withLockedValue({ $0[key] }) { return hit }
        let result = catalog.search(text: text, sort: sort)
        recent.withLockedValue { cache in
            if cache.count >= 256 { cache.removeAll(keepingCapacity: true) }
            cache[key] = result
        }
        return result
    }
}
