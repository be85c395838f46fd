extension SearchQuery {
    /// The refusal when the command line gives no words.
    public static let noWords = QueryError("Give some words to search for.")

    /// The query the command line's words make, filters recognised; no
    /// words at all is refused.
    public static func required(words: [String]) throws(QueryError) -> SearchQuery {
        guard let query = try parse(words: words) else { throw noWords }
        return query
    }
}
