import Foundation

/// What a person asked to search for, parsed once, from the prompt, the
/// command line or a saved session, and handed as it is to the provider:
/// search text and filters (`license:cc0 sort:newest lighthouse`).
///
/// The text is trimmed and its runs of white space are one space, so no
/// layer below trims or splits it again. Words keep their meaning for the
/// service (`-word` excludes). A query has text, filters, or both.
public struct SearchQuery: Sendable, Hashable, CustomStringConvertible {
    /// The words to search for, separated by single spaces; may be empty
    /// when filters say what to find (`user:ana`).
    public let text: String
    public let filters: SearchFilters

    /// Words only: `input` is taken as search text, with no filters.
    /// `nil` when it holds no words.
    public init?(_ input: String) {
        let words = Self.words(input)
        guard !words.isEmpty else { return nil }
        text = words
        filters = SearchFilters()
    }

    /// Text and filters; `nil` when both are empty.
    public init?(text: String, filters: SearchFilters) {
        let words = Self.words(text)
        guard !words.isEmpty || !filters.isEmpty else { return nil }
        self.text = words
        self.filters = filters
    }

    /// `text`'s words joined by single spaces. Split at white-space
    /// scalars, as the parser splits: a character that starts with a space
    /// and carries a combining mark is a space and a word starting with the
    /// mark, never one separator that swallows the mark (so a word cannot
    /// turn into a filter word when typed back).
    private static func words(_ text: String) -> String {
        text.unicodeScalars.split(whereSeparator: \.properties.isWhitespace)
            .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    }

    /// What a person typed, filters recognised: `nil` when it holds
    /// nothing; throws for a filter typed wrong, saying the form it takes.
    public static func parse(_ input: String) throws(QueryError) -> SearchQuery? {
        let (text, filters) = try QueryParser.parse(input)
        return SearchQuery(text: text, filters: filters)
    }

    /// The words of the command line, filters recognised.
    public static func parse(words: [String]) throws(QueryError) -> SearchQuery? {
        try parse(words.joined(separator: " "))
    }

    /// The same text under other filters.
    public func with(filters: SearchFilters) -> SearchQuery? {
        SearchQuery(text: text, filters: filters)
    }

    /// In quotes, as headers show it, with the filters after: “red car” ·
    /// CC0 · newest.
    public var description: String {
        let quoted = text.isEmpty ? [] : ["“\(text)”"]
        let filtered = filters.isEmpty ? [] : [filters.summary]
        return (quoted + filtered).joined(separator: " · ")
    }

    /// As it would be typed again: text, then filters (for history); it
    /// parses back to this query. Text with an unclosed quote goes last, as
    /// that quote runs to the end of the line and would swallow the filters.
    public var typed: String {
        let quotes = text.unicodeScalars.filter { $0 == "\"" || $0 == "“" || $0 == "”" }.count
        let words = [text].filter { !$0.isEmpty }
        return (quotes % 2 == 0 ? words + filters.words : filters.words + words).joined(separator: " ")
    }
}

// A saved session holds the query as `{"text": …, "filters": …}`; files
// written when a search was a bare string hold the string itself, and
// still load.
extension SearchQuery: Codable {
    private enum CodingKeys: String, CodingKey { case text, filters }

    public init(from decoder: any Decoder) throws {
        let text: String
        var filters = SearchFilters()
        if let single = try? decoder.singleValueContainer().decode(String.self) {
            text = single
        } else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.decode(String.self, forKey: .text)
            filters = try container.decodeIfPresent(SearchFilters.self, forKey: .filters) ?? SearchFilters()
        }
        guard let query = SearchQuery(text: text, filters: filters) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an empty search"))
        }
        self = query
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        if !filters.isEmpty { try container.encode(filters, forKey: .filters) }
    }
}
