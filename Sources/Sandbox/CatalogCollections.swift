/// An album (Flickr's photoset): some of one owner's photos, in the album's order.
public struct CatalogAlbum: Sendable, Hashable {
    /// 17 digits starting `72157`, as Flickr's are.
    public let id: String
    public let owner: String
    public let title: String
    public let description: String
    /// Catalog indexes, in album order (oldest upload first).
    public let photoIndexes: [Int]
    /// The cover's catalog index.
    public let primaryIndex: Int
    /// Unix seconds.
    public let dateCreate: Int
    public let dateUpdate: Int
}

/// A gallery: photos of other people, picked by its owner.
public struct CatalogGallery: Sendable, Hashable {
    /// The number in the gallery's URL (`/galleries/ID/`).
    public let id: String
    /// `OWNERNUMBER-ID`, the form Flickr's answers carry in `id`.
    public let compoundID: String
    public let owner: String
    public let title: String
    public let description: String
    /// Catalog indexes, in the order they were added.
    public let photoIndexes: [Int]
    public let dateCreate: Int
    public let dateUpdate: Int
}

/// A group and its pool.
public struct CatalogGroup: Sendable, Hashable {
    /// An NSID like a person's (`1234567@N22`).
    public let nsid: String
    public let name: String
    /// Empty when the group has none (its URL then uses the NSID).
    public let pathAlias: String
    /// Catalog indexes, newest first (as the pool lists them).
    public let photoIndexes: [Int]

    /// `https://www.flickr.com/groups/NAME/`.
    public var url: String { "https://www.flickr.com/groups/\(pathAlias.isEmpty ? nsid : pathAlias)/" }
}

/// The people, albums, galleries and groups of a catalog, derived from the
/// seed and the photos: the same seed and photo count give the same ids.
struct CatalogCollections: Sendable {
    let people: [CatalogPerson]
    /// Each person's photos, newest upload first (catalog order).
    let photosByPerson: [[Int]]
    let personByNSID: [String: Int]
    let albums: [CatalogAlbum]
    let albumsByPerson: [[Int]]
    let albumByID: [String: Int]
    let galleries: [CatalogGallery]
    let galleryByID: [String: Int]
    let groups: [CatalogGroup]

    init(people: [CatalogPerson], photos: [CatalogPhoto], seed: UInt64, taggedPhotos: (String) -> [Int32]) {
        self.people = people
        var personByNSID: [String: Int] = [:]
        for (position, person) in people.enumerated() { personByNSID[person.nsid] = position }
        var byPerson = [[Int]](repeating: [], count: people.count)
        for photo in photos {
            if let position = personByNSID[photo.owner] { byPerson[position].append(photo.index) }
        }
        self.personByNSID = personByNSID
        photosByPerson = byPerson

        var builder = CollectionBuilder(seed: seed, photos: photos)
        var albumsByPerson = [[Int]](repeating: [], count: people.count)
        for (position, person) in people.enumerated() {
            let made = position == 0
                ? builder.wellKnownAlbums(person: person, photos: byPerson[position])
                : builder.albums(person: person, position: position, photos: byPerson[position])
            albumsByPerson[position] = made
        }
        self.albumsByPerson = albumsByPerson
        albums = builder.albums
        albumByID = Dictionary(uniqueKeysWithValues: builder.albums.enumerated().map { ($1.id, $0) })

        builder.galleries(people: people, taggedPhotos: taggedPhotos)
        galleries = builder.galleries
        galleryByID = Dictionary(uniqueKeysWithValues: builder.galleries.enumerated().map { ($1.id, $0) })
        groups = builder.groups(taggedPhotos: taggedPhotos)
    }
}

/// Makes the collections; every choice is a hash of the seed and what it is about.
private struct CollectionBuilder {
    let seed: UInt64
    let photos: [CatalogPhoto]
    var albums: [CatalogAlbum] = []
    var galleries: [CatalogGallery] = []

    init(seed: UInt64, photos: [CatalogPhoto]) {
        self.seed = seed
        self.photos = photos
    }

    /// Uniform in 0..<1 for (salt, value).
    func unit(_ salt: UInt64, _ value: Int) -> Double {
        Double(StableHash.mix(seed ^ salt &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: value)) >> 11) / Double(1 << 53)
    }

    mutating func wellKnownAlbums(person: CatalogPerson, photos owned: [Int]) -> [Int] {
        let oldestFirst = Array(owned.reversed())
        let kittens = oldestFirst.filter { photos[$0].tags.contains("kittens") }
        let specs: [(String, String, String, [Int])] = [
            (SandboxWellKnown.archiveAlbumID, "Archive", "Everything, oldest first.", oldestFirst),
            (SandboxWellKnown.favouritesAlbumID, "Favourites", "The ones I come back to.",
             oldestFirst.filter { unit(0xFA7, $0) < 0.6 }),
            (SandboxWellKnown.kittensAlbumID, "Cats at home", "", kittens),
            (SandboxWellKnown.videosAlbumID, "Videos", "Short clips.", oldestFirst.filter { photos[$0].isVideo }),
        ]
        return specs.compactMap { add(id: $0.0, owner: person, title: $0.1, description: $0.2, members: $0.3) }
    }

    /// Owners with a dozen photos and more keep one to four albums.
    mutating func albums(person: CatalogPerson, position: Int, photos owned: [Int]) -> [Int] {
        guard owned.count >= 12 else { return [] }
        let count = min(4, 1 + owned.count / 40)
        return (0..<count).compactMap { number -> Int? in
            let share = 0.25 + 0.5 * unit(0xA1B, position * 8 + number)
            let members = owned.reversed().filter { unit(0xA1B0 + UInt64(number), $0) < share }
            let subject = Vocabulary.subjects[Int(unit(0x717, position * 8 + number) * Double(Vocabulary.subjects.count))].word
            let prefix = String(Int(unit(0x1D5, position) * 900_000) + 100_000)
            let id = "72157" + prefix + Self.padded(position, 4) + Self.padded(number + 1, 2)
            let title = number == 0 ? "Best of \(subject)" : "\(subject.prefix(1).uppercased())\(subject.dropFirst()) \(number + 1)"
            return add(id: id, owner: person, title: title, description: number == 1 ? "Mostly \(subject)." : "",
                       members: members)
        }
    }

    private mutating func add(id: String, owner: CatalogPerson, title: String, description: String, members: [Int]) -> Int? {
        guard !members.isEmpty else { return nil }
        let primary = members[Int(unit(0x9A1, members[0]) * Double(members.count))]
        let created = photos[members[0]].dateUpload + 600
        albums.append(CatalogAlbum(
            id: id, owner: owner.nsid, title: title, description: description, photoIndexes: members,
            primaryIndex: primary, dateCreate: created, dateUpdate: max(created, photos[members[members.count - 1]].dateUpload + 60)))
        return albums.count - 1
    }

    /// The well-known owner's two galleries, and one each for the next five owners.
    mutating func galleries(people: [CatalogPerson], taggedPhotos: (String) -> [Int32]) {
        guard let first = people.first else { return }
        func pick(_ candidates: [Int], owner: CatalogPerson, limit: Int, salt: UInt64) -> [Int] {
            Array(candidates.filter { photos[$0].owner != owner.nsid && unit(salt, $0) < 0.5 }.prefix(limit))
        }
        let sunsets = pick(taggedPhotos("sunset").map(Int.init), owner: first, limit: 40, salt: 0x5A1)
        let kittens = pick(taggedPhotos("kitten").map(Int.init), owner: first, limit: 25, salt: 0x5A2)
        addGallery(id: SandboxWellKnown.sunsetGalleryID, owner: first, title: "Sunsets I love",
                   description: "Other people's skies.", members: sunsets)
        addGallery(id: SandboxWellKnown.kittenGalleryID, owner: first, title: "Cats of Flickr", description: "",
                   members: kittens)
        for position in 1..<min(6, people.count) {
            let owner = people[position]
            let size = 12 + Int(unit(0x6A1, position) * 18)
            let stride = max(1, photos.count / (size * 3))
            let members = pick(Array(Swift.stride(from: position, to: photos.count, by: stride)), owner: owner, limit: size,
                               salt: 0x6A2 + UInt64(position))
            let prefix = String(Int(unit(0x6A3, position) * 900_000) + 100_000)
            addGallery(id: "72157" + prefix + Self.padded(position, 4) + "90", owner: owner,
                       title: "Picked by \(owner.username)", description: "", members: members)
        }
    }

    private mutating func addGallery(id: String, owner: CatalogPerson, title: String, description: String, members: [Int]) {
        guard !members.isEmpty else { return }
        let newest = members.map { photos[$0].dateUpload }.max() ?? CatalogGenerator.newestUpload
        galleries.append(CatalogGallery(
            id: id, compoundID: owner.number + "-" + id, owner: owner.nsid, title: title, description: description,
            photoIndexes: members, dateCreate: newest + 3_600, dateUpdate: newest + 86_400))
    }

    /// Groups around a subject: each pools some of the photos tagged with it.
    func groups(taggedPhotos: (String) -> [Int32]) -> [CatalogGroup] {
        let specs: [(name: String, alias: String, tag: String, share: Double)] = [
            (SandboxWellKnown.groupName, SandboxWellKnown.groupPathAlias, "sunset", 0.6),
            ("Kittens Everywhere", "kittenseverywhere", "kitten", 0.4),
            ("Beach Life", "beachlife", "beach", 0.5),
            ("City Streets", "citystreets", "street", 0.7),
            ("Mountains & Lakes", "", "mountain", 0.9),
            ("Night Owls", "nightowls", "night", 0.8),
        ]
        return specs.enumerated().map { position, spec in
            let number = 30_000_000 + position * 7_000_000 + Int(unit(0x960, position) * 6_000_000)
            let members = taggedPhotos(spec.tag).map(Int.init).filter { unit(0x961 + UInt64(position), $0) < spec.share }
            return CatalogGroup(nsid: "\(number)@N2\(Int(unit(0x962, position) * 9))", name: spec.name,
                                pathAlias: spec.alias, photoIndexes: members)
        }
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension CatalogPhoto {
    /// When the photo was added to a pool: soon after its upload (uploads
    /// are at least 30 s apart, so a pool's order is the upload order).
    public var poolDateAdded: Int { dateUpload + Int(StableHash.mix(UInt64(index) ^ 0xADD) % 29) }
}
