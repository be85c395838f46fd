import Foundation

/// The filters of a search, parsed from words such as `license:cc0`,
/// `sort:newest` or `taken:2020..2022`. Each provider maps what it supports
/// and refuses the rest in a sentence; none is dropped silently.
public struct SearchFilters: Sendable, Hashable, Codable {
    public var licenses: [LicenseFilter] = []
    public var sort: SortFilter?
    public var taken: DateRange?
    public var uploaded: DateRange?
    /// A Flickr username, path alias or NSID; Openverse's creator;
    /// Shutterstock's contributor.
    public var user: String?
    public var tags: [String] = []
    /// `tags:all`: every tag must match (otherwise any).
    public var allTags = false
    public var near: GeoCircle?
    public var bbox: BoundingBox?
    public var type: ContentType?
    public var orientation: Orientation?
    /// `safe:on` / `safe:off`.
    public var safe: Bool?

    public init() {}

    public var isEmpty: Bool { kinds.isEmpty }

    /// Which filters are set.
    public var kinds: Set<FilterKind> {
        var kinds: Set<FilterKind> = []
        if !licenses.isEmpty { kinds.insert(.license) }
        if sort != nil { kinds.insert(.sort) }
        if taken != nil { kinds.insert(.taken) }
        if uploaded != nil { kinds.insert(.uploaded) }
        if user != nil { kinds.insert(.user) }
        if !tags.isEmpty || allTags { kinds.insert(.tag) }
        if near != nil { kinds.insert(.near) }
        if bbox != nil { kinds.insert(.bbox) }
        if type != nil { kinds.insert(.type) }
        if orientation != nil { kinds.insert(.orientation) }
        if safe != nil { kinds.insert(.safe) }
        return kinds
    }

    /// `other`'s filters over these: what `other` sets replaces, the rest stays.
    public func merging(_ other: SearchFilters) -> SearchFilters {
        var merged = self
        if !other.licenses.isEmpty { merged.licenses = other.licenses }
        if let sort = other.sort { merged.sort = sort }
        if let taken = other.taken { merged.taken = taken }
        if let uploaded = other.uploaded { merged.uploaded = uploaded }
        if let user = other.user { merged.user = user }
        if !other.tags.isEmpty { merged.tags = other.tags }
        if other.allTags { merged.allTags = true }
        if let near = other.near { merged.near = near }
        if let bbox = other.bbox { merged.bbox = bbox }
        if let type = other.type { merged.type = type }
        if let orientation = other.orientation { merged.orientation = orientation }
        if let safe = other.safe { merged.safe = safe }
        return merged
    }

    /// The filters as words, the way they are typed: `license:cc0,pdm sort:newest`.
    public var words: [String] {
        var words: [String] = []
        if !licenses.isEmpty { words.append("license:" + licenses.map(\.rawValue).joined(separator: ",")) }
        if let sort { words.append("sort:\(sort.rawValue)") }
        if let taken { words.append("taken:\(taken)") }
        if let uploaded { words.append("uploaded:\(uploaded)") }
        if let user { words.append("user:" + Self.typed(user)) }
        if !tags.isEmpty { words.append("tag:" + Self.typed(tags.joined(separator: ","))) }
        if allTags { words.append("tags:all") }
        if let near { words.append("near:\(near)") }
        if let bbox { words.append("bbox:\(bbox)") }
        if let type { words.append("type:\(type.rawValue)") }
        if let orientation { words.append("orientation:\(orientation.rawValue)") }
        if let safe { words.append("safe:\(safe ? "on" : "off")") }
        return words
    }

    /// A value as it must be typed: in quotes when it holds a space (any
    /// white-space scalar, as the parser splits words at them). Values
    /// never hold quotes: the parser refuses them.
    private static func typed(_ value: String) -> String {
        value.unicodeScalars.contains(where: \.properties.isWhitespace) ? "\"\(value)\"" : value
    }

    /// The filters as a header shows them: `CC0, PDM · newest · taken 2020–2022`.
    public var summary: String {
        var parts: [String] = []
        if !licenses.isEmpty { parts.append(licenses.map(\.label).joined(separator: ", ")) }
        if let sort { parts.append(sort.label) }
        if let taken { parts.append("taken \(taken.label)") }
        if let uploaded { parts.append("uploaded \(uploaded.label)") }
        if let user { parts.append("by \(user)") }
        if !tags.isEmpty { parts.append("tagged " + tags.joined(separator: allTags ? " + " : " or ")) }
        if let near { parts.append("near \(near)") }
        if let bbox { parts.append("in \(bbox)") }
        if let type { parts.append(type.rawValue) }
        if let orientation { parts.append(orientation.rawValue) }
        if let safe { parts.append(safe ? "safe" : "safe off") }
        return parts.joined(separator: " · ")
    }

    /// The sentence a provider that honours only `supported` says of these
    /// filters, or `nil` when it honours them all.
    public func refusal(by provider: String, supporting supported: Set<FilterKind>) -> String? {
        let unsupported = FilterKind.allCases.filter { kinds.contains($0) && !supported.contains($0) }
        guard !unsupported.isEmpty else { return nil }
        let names = ProviderRegistry.list(unsupported.map { "\($0.rawValue):" }, conjunction: "and")
        let others = FilterKind.allCases.filter(supported.contains).map { "\($0.rawValue):" }
        let offer = others.isEmpty
            ? "it takes no filters"
            : "it supports \(ProviderRegistry.list(others, conjunction: "and"))"
        return "\(provider) cannot filter by \(names); \(offer). Remove \(unsupported.count == 1 ? "it" : "them") with /filter clear or edit the query."
    }
}

/// The filter names, as typed before the colon.
public enum FilterKind: String, Sendable, Hashable, Codable, CaseIterable {
    case license, sort, taken, uploaded, user, tag, near, bbox, type, orientation, safe
}

/// What `license:` takes.
public enum LicenseFilter: String, Sendable, Hashable, Codable, CaseIterable {
    case cc, cc0, pdm, by
    case bySA = "by-sa", byND = "by-nd", byNC = "by-nc", byNCSA = "by-nc-sa", byNCND = "by-nc-nd"
    case commercial, modify

    /// The licence kinds the filter accepts.
    public var kinds: Set<License.Kind> {
        switch self {
        case .cc: [.by, .bySA, .byND, .byNC, .byNCSA, .byNCND, .cc0]
        case .cc0: [.cc0]
        case .pdm: [.pdm]
        case .commercial: Set(License.Kind.allCases.filter { Self.sample($0).allowsCommercialUse })
        case .modify: Set(License.Kind.allCases.filter { Self.sample($0).allowsModification })
        default: License.Kind(rawValue: rawValue).map { [$0] } ?? []
        }
    }

    /// As a header shows it: `CC BY-SA`, `CC0`, `PDM`, `commercial use`.
    public var label: String {
        switch self {
        case .cc: "any CC"
        case .cc0: "CC0"
        case .pdm: "PDM"
        case .commercial: "commercial use"
        case .modify: "may be adapted"
        default: "CC " + rawValue.uppercased()
        }
    }

    private static func sample(_ kind: License.Kind) -> License {
        License(kind: kind, version: nil, shortName: "", fullName: "", url: nil)
    }
}

/// What `sort:` takes; each provider maps what it has.
public enum SortFilter: String, Sendable, Hashable, Codable, CaseIterable {
    case relevant, interesting, newest, oldest
    case takenNewest = "taken-newest", takenOldest = "taken-oldest"

    public var label: String {
        switch self {
        case .takenNewest: "newest taken"
        case .takenOldest: "oldest taken"
        default: rawValue
        }
    }
}

/// What `type:` takes.
public enum ContentType: String, Sendable, Hashable, Codable, CaseIterable {
    case photo, illustration, vector
}

/// What `orientation:` takes.
public enum Orientation: String, Sendable, Hashable, Codable, CaseIterable {
    case landscape, portrait, square
}

/// `near:LAT,LON[,5km]`.
public struct GeoCircle: Sendable, Hashable, Codable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double
    /// Kilometres; `nil` for the provider's default (Flickr: 5 km).
    public var radiusKilometres: Double?

    public var description: String {
        "\(Self.format(latitude)),\(Self.format(longitude))" + (radiusKilometres.map { ",\(Self.format($0))km" } ?? "")
    }

    static func format(_ value: Double) -> String {
        PlainDecimal.format(value)
    }
}

/// `bbox:MINLON,MINLAT,MAXLON,MAXLAT`, as Flickr takes it.
public struct BoundingBox: Sendable, Hashable, Codable, CustomStringConvertible {
    public var minLongitude: Double
    public var minLatitude: Double
    public var maxLongitude: Double
    public var maxLatitude: Double

    public var description: String {
        [minLongitude, minLatitude, maxLongitude, maxLatitude].map(GeoCircle.format).joined(separator: ",")
    }
}
