import Foundation
import Networking

/// What a person asked to search for, parsed once, from the prompt, the
/// command line or a saved session, and handed as it is to the provider.
///
/// The text is trimmed and its runs of white space are one space, so no
/// layer below trims or splits it again. Words keep their meaning for the
/// service (`-word` excludes).
public struct SearchQuery: Sendable, Hashable, CustomStringConvertible {
    /// The words to search for, separated by single spaces; never empty.
    public let text: String

    /// `nil` when `input` holds no words.
    public init?(_ input: String) {
        let words = input.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        guard !words.isEmpty else { return nil }
        text = words.joined(separator: " ")
    }

    /// `nil` when the words hold nothing.
    public init?(words: [String]) {
        self.init(words.joined(separator: " "))
    }

    /// In quotes, as headers show it: “red car”.
    public var description: String { "“\(text)”" }
}

// A saved session holds the query as `{"text": …}`; files written when a
// search was a bare string hold the string itself, and still load.
extension SearchQuery: Codable {
    private enum CodingKeys: String, CodingKey { case text }

    public init(from decoder: any Decoder) throws {
        let text: String
        if let single = try? decoder.singleValueContainer().decode(String.self) {
            text = single
        } else {
            text = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .text)
        }
        guard let query = SearchQuery(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an empty search"))
        }
        self = query
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
    }
}
