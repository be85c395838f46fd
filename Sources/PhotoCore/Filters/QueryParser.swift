import Foundation

/// A filter typed wrong, with the form it takes.
public struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Turns what a person typed into a `SearchQuery`: words of the form
/// `name:value` with a known filter name are filters, everything else is
/// search text (`-word` excludes as before; `"license:x"` in quotes is text).
///
/// Printing and parsing are a round trip: `SearchQuery.typed` parses back
/// to the same query. For that, words are split at white-space scalars
/// (not characters, which can fuse a quote or space with a combining mark),
/// a filter's value never holds a quote, and a filter named twice either
/// merges (licences and tags are sets) or is refused.
enum QueryParser {
    static func parse(_ input: String) throws(QueryError) -> (text: String, filters: SearchFilters) {
        var text: [String] = []
        var filters = SearchFilters()
        var named: Set<FilterKind> = []
        var tagMode: String?
        for token in tokens(input) {
            let scalars = token.word.unicodeScalars
            guard !token.quoted, let colon = scalars.firstIndex(of: ":"),
                  let kind = kind(named: Substring(scalars[..<colon]))
            else {
                text.append(token.word)
                continue
            }
            let name = String(scalars[..<colon]).lowercased()
            // `user:"Ana Souza"`: a quoted value may hold spaces.
            let value = String(scalars[scalars.index(after: colon)...])
                .trimmingCharacters(in: Self.quotes)[...]
            if name == "tags", ["all", "any"].contains(value.lowercased()) {
                // The tag mode: `tags:all` (or `tags:any`), apart from the tags.
                if let tagMode, tagMode != value.lowercased() {
                    throw QueryError("tags:\(tagMode) and tags:\(value.lowercased()) contradict each other: keep one.")
                }
                tagMode = value.lowercased()
                filters.allTags = value.lowercased() == "all"
                continue
            }
            var single = SearchFilters()
            try apply(kind, name: name, value: value, to: &single)
            if named.contains(kind) {
                filters = try merged(kind, name: name, filters, single)
            } else {
                filters = filters.merging(single)
            }
            named.insert(kind)
        }
        if let tagMode, filters.tags.isEmpty {
            throw QueryError("tags:\(tagMode) says how to match tags, but no tag: was given. \(form(of: .tag))")
        }
        return (text.joined(separator: " "), filters)
    }

    /// A filter named a second time: licences and tags gather (each is a
    /// set: any of them); any other filter twice is refused unless the
    /// value is the same, as one of the two would be dropped.
    private static func merged(
        _ kind: FilterKind, name: String, _ filters: SearchFilters, _ again: SearchFilters
    ) throws(QueryError) -> SearchFilters {
        var merged = filters
        switch kind {
        case .license:
            merged.licenses += again.licenses.filter { !filters.licenses.contains($0) }
        case .tag:
            merged.tags += again.tags.filter { !filters.tags.contains($0) }
        default:
            let combined = filters.merging(again)
            guard combined == filters else {
                throw QueryError("\(name): is given twice with different values; keep one. \(form(of: kind))")
            }
        }
        return merged
    }

    /// `tags` is `tag`'s plural (`tags:all`); names are case-blind.
    private static func kind(named name: Substring) -> FilterKind? {
        let lowered = name.lowercased()
        return lowered == "tags" ? .tag : FilterKind(rawValue: lowered)
    }

    private static let quotes = CharacterSet(charactersIn: "\"“”")
    private static let quoteScalars: Set<Unicode.Scalar> = ["\"", "“", "”"]

    /// Words split at white space; a double-quoted run (straight or curly
    /// quotes) is one word. A word that starts with a quote is text, never a
    /// filter; a filter's value may be quoted (`user:"Ana Souza"`). Scalars,
    /// not characters: `"` and a combining mark after it are still a quote.
    private static func tokens(_ input: String) -> [(word: String, quoted: Bool)] {
        var tokens: [(word: String, quoted: Bool)] = []
        var current = String.UnicodeScalarView()
        var quoted = false
        var inQuotes = false
        for scalar in input.unicodeScalars {
            if quoteScalars.contains(scalar) {
                inQuotes.toggle()
                if current.isEmpty { quoted = true }
                current.append(scalar)
            } else if scalar.properties.isWhitespace && !inQuotes {
                if !current.isEmpty { tokens.append((String(current), quoted)) }
                (current, quoted) = (String.UnicodeScalarView(), false)
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { tokens.append((String(current), quoted)) }
        return tokens
    }

    /// A list value's items, split at comma scalars: split by characters, a
    /// comma and a combining mark after it would fuse into one character and
    /// no longer separate, so a printed list of tags would read back as fewer.
    private static func items(_ value: Substring) -> [Substring] {
        value.unicodeScalars.split(separator: ",").map { Substring($0) }
    }

    /// A value that holds a quote could not be typed back: the quote would
    /// open a quoted run there.
    private static func refuseQuotes(_ value: Substring, name: String, kind: FilterKind) throws(QueryError) {
        if value.unicodeScalars.contains(where: quoteScalars.contains) {
            throw QueryError("\(name): cannot hold a quotation mark inside its value. \(form(of: kind))")
        }
    }

    private static func apply(
        _ kind: FilterKind, name: String, value: Substring, to filters: inout SearchFilters
    ) throws(QueryError) {
        guard !value.isEmpty else { throw QueryError("\(name): needs a value. \(form(of: kind))") }
        switch kind {
        case .license:
            var licenses: [LicenseFilter] = []
            for item in items(value) {
                guard let license = LicenseFilter(rawValue: item.lowercased()) else {
                    throw QueryError("Unknown licence “\(excerpt(item))”. \(form(of: kind))")
                }
                if !licenses.contains(license) { licenses.append(license) }
            }
            guard !licenses.isEmpty else { throw QueryError(form(of: kind)) }
            filters.licenses = licenses
        case .sort:
            guard let sort = SortFilter(rawValue: value.lowercased()) else {
                throw QueryError("Unknown sort “\(excerpt(value))”. \(form(of: kind))")
            }
            filters.sort = sort
        case .taken, .uploaded:
            guard let range = DateRange(value) else {
                throw QueryError("“\(excerpt(value))” is not a date or a range of dates. \(form(of: kind))")
            }
            if kind == .taken { filters.taken = range } else { filters.uploaded = range }
        case .user:
            try refuseQuotes(value, name: name, kind: kind)
            guard value.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
                throw QueryError("\(name): needs a value. \(form(of: kind))")
            }
            filters.user = String(value)
        case .tag:
            try refuseQuotes(value, name: name, kind: kind)
            var tags: [String] = []
            for tag in items(value).map(String.init) where !tags.contains(tag) { tags.append(tag) }
            guard !tags.isEmpty else { throw QueryError(form(of: kind)) }
            filters.tags = tags
        case .near:
            guard let circle = geoCircle(value) else { throw QueryError("“\(excerpt(value))” is not a place. \(form(of: kind))") }
            filters.near = circle
        case .bbox:
            guard let box = boundingBox(value) else { throw QueryError("“\(excerpt(value))” is not a box. \(form(of: kind))") }
            filters.bbox = box
        case .type:
            guard let type = ContentType(rawValue: value.lowercased()) else {
                throw QueryError("Unknown type “\(excerpt(value))”. \(form(of: kind))")
            }
            filters.type = type
        case .orientation:
            guard let orientation = Orientation(rawValue: value.lowercased()) else {
                throw QueryError("Unknown orientation “\(excerpt(value))”. \(form(of: kind))")
            }
            filters.orientation = orientation
        case .safe:
            switch value.lowercased() {
            case "on", "yes", "true": filters.safe = true
            case "off", "no", "false": filters.safe = false
            default: throw QueryError("Unknown safe setting “\(excerpt(value))”. \(form(of: kind))")
            }
        }
    }

    /// The accepted form of each filter, as error messages show it.
    static func form(of kind: FilterKind) -> String {
        switch kind {
        case .license:
            "Use license: with \(ProviderRegistry.list(LicenseFilter.allCases.map(\.rawValue), conjunction: "or")), several with commas (license:by,by-sa)."
        case .sort:
            "Use sort: with \(ProviderRegistry.list(SortFilter.allCases.map(\.rawValue), conjunction: "or"))."
        case .taken, .uploaded:
            "Use \(kind.rawValue):2020, \(kind.rawValue):2020-05..2021 or \(kind.rawValue):..2022-12-31 (YYYY, YYYY-MM or YYYY-MM-DD; either end may be left open)."
        case .user:
            "Use user:NAME (a username, path alias or NSID)."
        case .tag:
            "Use tag:a,b for any of the tags, and add tags:all for all of them."
        case .near:
            "Use near:LAT,LON or near:LAT,LON,5km (latitude −90 to 90, longitude −180 to 180, radius up to 32 km)."
        case .bbox:
            "Use bbox:MINLON,MINLAT,MAXLON,MAXLAT (west, south, east, north)."
        case .type:
            "Use type: with \(ProviderRegistry.list(ContentType.allCases.map(\.rawValue), conjunction: "or"))."
        case .orientation:
            "Use orientation: with \(ProviderRegistry.list(Orientation.allCases.map(\.rawValue), conjunction: "or"))."
        case .safe:
            "Use safe:on or safe:off."
        }
    }

    private static func geoCircle(_ value: Substring) -> GeoCircle? {
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              let latitude = number(parts[0]), (-90...90).contains(latitude),
              let longitude = number(parts[1]), (-180...180).contains(longitude)
        else { return nil }
        var radius: Double?
        if parts.count == 3 {
            var text = parts[2].lowercased()
            if text.hasSuffix("km") { text.removeLast(2) }
            guard let value = number(Substring(text)), value > 0, value <= 32 else { return nil }
            radius = value
        }
        return GeoCircle(latitude: latitude, longitude: longitude, radiusKilometres: radius)
    }

    private static func boundingBox(_ value: Substring) -> BoundingBox? {
        let numbers = value.split(separator: ",", omittingEmptySubsequences: false).compactMap(number)
        guard numbers.count == 4,
              (-180...180).contains(numbers[0]), (-90...90).contains(numbers[1]),
              (-180...180).contains(numbers[2]), (-90...90).contains(numbers[3]),
              numbers[0] < numbers[2], numbers[1] < numbers[3]
        else { return nil }
        return BoundingBox(minLongitude: numbers[0], minLatitude: numbers[1], maxLongitude: numbers[2], maxLatitude: numbers[3])
    }

    /// A plain decimal number (no exponents, no "nan").
    private static func number(_ text: Substring) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") })
        else { return nil }
        return Double(trimmed)
    }

    private static func excerpt(_ text: Substring) -> String {
        let printable = text.unicodeScalars.filter { !$0.properties.generalCategory.isControlLike }
        let cut = String(String.UnicodeScalarView(printable.prefix(40)))
        return printable.count > 40 ? cut + "…" : cut
    }
}

extension Unicode.GeneralCategory {
    /// Control, format and separator characters: never echoed back raw.
    var isControlLike: Bool {
        switch self {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
