import Foundation

/// Result orders `flickr.photos.search` understands.
public enum SearchSort: String, Sendable, CaseIterable {
    case datePostedDesc = "date-posted-desc"
    case datePostedAsc = "date-posted-asc"
    case relevance
}

/// The sandbox's deterministic photo catalog with its inverted index.
///
/// Built once per server (20,000 photos in well under a second), immutable
/// afterwards, so it is shared freely between request handlers.
public struct Catalog: Sendable {
    let storage: CatalogStorage

    public var seed: UInt64 { storage.seed }
    public var count: Int { storage.photos.count }

    public init(photoCount: Int = 20_000, seed: UInt64 = 1) {
        let generator = CatalogGenerator(seed: seed)
        let people = generator.makeOwners()
        storage = CatalogStorage(photos: generator.makePhotos(count: max(0, photoCount), owners: people), people: people, seed: seed)
    }

    /// Index 0 is the newest upload; `index` must be in `0..<count`.
    public func photo(at index: Int) -> CatalogPhoto { storage.photos[index] }

    /// Every photo, in catalog order.
    var allPhotos: [CatalogPhoto] { storage.photos }

    /// The photo with this id, if the catalog holds it.
    public func photo(id: String) -> CatalogPhoto? {
        guard let number = Int64(id) else { return nil }
        // Ids descend with the index, so a binary search finds them.
        var low = 0
        var high = storage.numericIDs.count
        while low < high {
            let middle = (low + high) / 2
            if storage.numericIDs[middle] > number { low = middle + 1 } else { high = middle }
        }
        guard low < storage.numericIDs.count, storage.numericIDs[low] == number else { return nil }
        return storage.photos[low]
    }

    /// Indexes of all photos matching `text`, in the requested order.
    ///
    /// Every word must match a token of the title, tags or description
    /// (case-insensitive, a trailing plural "s" ignored); `-word` excludes.
    /// Text without any word matches nothing; text with only exclusions
    /// matches everything else.
    public func search(text: String, sort: SearchSort = .datePostedDesc) -> [Int] {
        let query = SearchQuery(text: text)
        if query.required.isEmpty && query.excluded.isEmpty { return [] }
        var matches: [Int32]
        if query.required.isEmpty {
            matches = Array(0..<Int32(count))
        } else {
            let lists = query.required.map { storage.index.photos(.any, $0) ?? [] }.sorted { $0.count < $1.count }
            matches = lists[0]
            for list in lists.dropFirst() where !matches.isEmpty {
                matches = PostingList.intersect(matches, list)
            }
        }
        for token in query.excluded {
            guard let list = storage.index.photos(.any, token), !matches.isEmpty else { continue }
            matches = PostingList.subtract(matches, list)
        }
        switch sort {
        case .datePostedDesc:
            return matches.map(Int.init)
        case .datePostedAsc:
            return matches.reversed().map(Int.init)
        case .relevance:
            let scored = matches.map { (index: $0, score: relevance(of: $0, for: query.required)) }
            return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }.map { Int($0.index) }
        }
    }

    /// Title matches weigh most, then tags, then the description.
    private func relevance(of photo: Int32, for tokens: [String]) -> Int {
        var score = 0
        for token in tokens {
            if PostingList.contains(storage.index.photos(.title, token), photo) { score += 3 }
            if PostingList.contains(storage.index.photos(.tags, token), photo) { score += 2 }
            if PostingList.contains(storage.index.photos(.description, token), photo) { score += 1 }
        }
        return score
    }
}

/// Immutable after init; a class so copies of `Catalog` share it.
final class CatalogStorage: Sendable {
    let seed: UInt64
    let photos: [CatalogPhoto]
    let numericIDs: [Int64]
    let index: InvertedIndex
    let collections: CatalogCollections

    init(photos: [CatalogPhoto], people: [CatalogPerson], seed: UInt64) {
        self.seed = seed
        self.photos = photos
        self.numericIDs = photos.map { Int64($0.id) ?? 0 }
        let index = InvertedIndex(photos: photos)
        self.index = index
        collections = CatalogCollections(people: people, photos: photos, seed: seed) { index.photos(.tags, $0) ?? [] }
    }
}

/// Token → ascending photo indexes, per field and for any field.
///
/// Tokens are interned to small integers first, so building costs one
/// string hash per token occurrence (start-up stays quick in debug builds).
struct InvertedIndex: Sendable {
    enum Field: Int, CaseIterable { case title, tags, description, any }

    private var ids: [String: Int] = [:]
    /// `postings[field][tokenID]`, ascending photo indexes.
    private var postings: [[[Int32]]] = Array(repeating: [], count: Field.allCases.count)

    init(photos: [CatalogPhoto]) {
        var tagTokens: [String: [Int]] = [:]
        var seen: [Int] = []
        func intern(_ token: String) -> Int {
            if let id = ids[token] { return id }
            let id = ids.count
            ids[token] = id
            for field in Field.allCases { postings[field.rawValue].append([]) }
            return id
        }
        func add(_ tokenIDs: [Int], field: Field, photo: Int32) {
            seen.removeAll(keepingCapacity: true)
            for id in tokenIDs where !seen.contains(id) {
                seen.append(id)
                postings[field.rawValue][id].append(photo)
            }
        }
        for photo in photos {
            let position = Int32(photo.index)
            let title = Tokenizer.tokens(of: photo.title).map(intern)
            var tags: [Int] = []
            for tag in photo.tags {
                if let known = tagTokens[tag] {
                    tags.append(contentsOf: known)
                } else {
                    let tokenIDs = Tokenizer.tokens(of: tag).map(intern)
                    tagTokens[tag] = tokenIDs
                    tags.append(contentsOf: tokenIDs)
                }
            }
            let description = Tokenizer.tokens(of: photo.description).map(intern)
            add(title, field: .title, photo: position)
            add(tags, field: .tags, photo: position)
            add(description, field: .description, photo: position)
            add(title + tags + description, field: .any, photo: position)
        }
    }

    /// Photos whose `field` holds `token` (a normalised search key).
    func photos(_ field: Field, _ token: String) -> [Int32]? {
        guard let id = ids[token] else { return nil }
        return postings[field.rawValue][id]
    }
}

/// Operations on ascending index lists.
enum PostingList {
    static func intersect(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(min(a.count, b.count))
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] {
                result.append(a[i]); i += 1; j += 1
            } else if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return result
    }

    static func subtract(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(a.count)
        var j = 0
        for value in a {
            while j < b.count && b[j] < value { j += 1 }
            if j < b.count && b[j] == value { continue }
            result.append(value)
        }
        return result
    }

    static func contains(_ list: [Int32]?, _ value: Int32) -> Bool {
        guard let list else { return false }
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low] == value
    }
}

/// A parsed `text` parameter: words that must match and words that must not.
struct SearchQuery: Equatable {
    var required: [String] = []
    var excluded: [String] = []

    init(text: String) {
        for word in text.split(whereSeparator: { $0.isWhitespace }) {
            if word.hasPrefix("-"), word.count > 1 {
                excluded.append(contentsOf: Tokenizer.tokens(of: String(word.dropFirst())))
            } else {
                required.append(contentsOf: Tokenizer.tokens(of: String(word)))
            }
        }
        required = Array(Set(required)).sorted()
        excluded = Array(Set(excluded)).sorted()
    }

    var isEmpty: Bool { required.isEmpty && excluded.isEmpty }
}

/// Splits text into search keys: runs of letters, digits and combining marks,
/// lowercased, with a trailing plural "s" dropped (`kittens` → `kitten`).
enum Tokenizer {
    static func tokens(of text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiTokens(of: text) }
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            guard !current.isEmpty else { return }
            tokens.append(normalize(String(current)))
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) { current.append(scalar) } else { flush() }
        }
        flush()
        return tokens
    }

    /// The common case, on bytes: same result as the general path for ASCII text.
    private static func asciiTokens(of text: String) -> [String] {
        var tokens: [String] = []
        var current: [UInt8] = []
        func flush() {
            guard !current.isEmpty else { return }
            if current.count > 3, current[current.count - 1] == UInt8(ascii: "s"), current[current.count - 2] != UInt8(ascii: "s") {
                current.removeLast()
            }
            tokens.append(String(decoding: current, as: UTF8.self))
            current.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 32)
            default: flush()
            }
        }
        flush()
        return tokens
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 48 && value <= 57) || (value >= 65 && value <= 90) || (value >= 97 && value <= 122)
        }
        let properties = scalar.properties
        if properties.isAlphabetic { return true }
        switch properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    static func normalize(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.count > 3, lower.hasSuffix("s"), !lower.hasSuffix("ss") { return String(lower.dropLast()) }
        return lower
    }
}

extension Catalog {
    /// Photos carrying the given tags (any of them, or all with `requireAll`);
    /// a `-tag` excludes.
    func tagMatches(_ tags: [String], requireAll: Bool) -> Set<Int> {
        var included: [[Int32]] = []
        var excluded: [Int32] = []
        for tag in tags {
            let isExclusion = tag.hasPrefix("-") && tag.count > 1
            let tokens = Tokenizer.tokens(of: isExclusion ? String(tag.dropFirst()) : tag)
            guard !tokens.isEmpty else { continue }
            var list = storage.index.photos(.tags, tokens[0]) ?? []
            for token in tokens.dropFirst() { list = PostingList.intersect(list, storage.index.photos(.tags, token) ?? []) }
            if isExclusion { excluded.append(contentsOf: list) } else { included.append(list) }
        }
        var result: Set<Int>
        if included.isEmpty {
            result = Set(0..<count)
        } else if requireAll {
            var common = included[0]
            for list in included.dropFirst() { common = PostingList.intersect(common, list) }
            result = Set(common.map(Int.init))
        } else {
            result = Set(included.joined().map(Int.init))
        }
        result.subtract(excluded.map(Int.init))
        return result
    }
}
