/// People, albums, galleries and groups: what tests ask the catalog instead
/// of hard-coding ids (see `SandboxWellKnown` for the names to start from).
extension Catalog {
    private var collections: CatalogCollections { storage.collections }

    /// Every owner, the most prolific first.
    public var people: [CatalogPerson] { collections.people }

    /// The well-known owner (`SandboxWellKnown.username`), the catalog's most prolific.
    public var wellKnownOwner: CatalogPerson { collections.people[0] }

    /// The person with this NSID.
    public func person(nsid: String) -> CatalogPerson? {
        collections.personByNSID[nsid].map { collections.people[$0] }
    }

    /// The person with this username (case-blind, as `findByUsername`).
    public func person(username: String) -> CatalogPerson? {
        let wanted = username.lowercased()
        return collections.people.first { $0.username.lowercased() == wanted }
    }

    /// The person whose URLs use `name`: a path alias or an NSID.
    public func person(urlName name: String) -> CatalogPerson? {
        if let person = person(nsid: name) { return person }
        return collections.people.first { !$0.pathAlias.isEmpty && $0.pathAlias == name }
    }

    /// The person's photostream: catalog indexes, newest upload first
    /// (`people.getPublicPhotos`' order).
    public func photostream(of nsid: String) -> [Int] {
        collections.personByNSID[nsid].map { collections.photosByPerson[$0] } ?? []
    }

    /// The person's albums, in `photosets.getList` order.
    public func albums(of nsid: String) -> [CatalogAlbum] {
        guard let position = collections.personByNSID[nsid] else { return [] }
        return collections.albumsByPerson[position].map { collections.albums[$0] }
    }

    public func album(id: String) -> CatalogAlbum? {
        collections.albumByID[id].map { collections.albums[$0] }
    }

    public var galleries: [CatalogGallery] { collections.galleries }

    /// By the number in its URL or by its compound id.
    public func gallery(id: String) -> CatalogGallery? {
        let number = id.split(separator: "-").last.map(String.init) ?? id
        guard let gallery = collections.galleryByID[number].map({ collections.galleries[$0] }) else { return nil }
        return id.contains("-") && id != gallery.compoundID ? nil : gallery
    }

    public var groups: [CatalogGroup] { collections.groups }

    /// By NSID or path alias.
    public func group(_ name: String) -> CatalogGroup? {
        collections.groups.first { $0.nsid == name || (!$0.pathAlias.isEmpty && $0.pathAlias == name) }
    }

    /// The well-known group (`SandboxWellKnown.groupPathAlias`).
    public var wellKnownGroup: CatalogGroup? { group(SandboxWellKnown.groupPathAlias) }
}
