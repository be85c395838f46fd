import Foundation

/// `a=1&b=two+words` → pairs, percent-decoded, `+` as space.
enum QueryString {
    static func parse(_ query: String) -> [(String, String)] {
        query.split(separator: "&").compactMap { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(pair[0]), !name.isEmpty else { return nil }
            return (name, pair.count > 1 ? decode(pair[1]) ?? "" : "")
        }
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The consumer key of an `Authorization: OAuth oauth_consumer_key="…", …` header.
    static func oauthConsumerKey(_ header: String) -> String? {
        guard header.lowercased().hasPrefix("oauth ") else { return nil }
        for field in header.dropFirst(6).split(separator: ",") {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "oauth_consumer_key" else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.removingPercentEncoding ?? value
        }
        return nil
    }

    /// Whether a parameter carries a credential or a per-request signature
    /// value: such parameters are neither logged nor part of a fault key.
    static func isSecretOrVolatile(_ name: String) -> Bool {
        RestAPI.credentialNames.contains(name) || name.hasPrefix("oauth_")
    }

    /// The query as logged and as the fault key: credentials and OAuth
    /// values (nonces and timestamps change on every call) left out.
    static func redacted(_ query: String) -> String {
        query.split(separator: "&").filter { item in
            let name = item.split(separator: "=", maxSplits: 1).first.map { String($0).removingPercentEncoding ?? String($0) } ?? ""
            return !isSecretOrVolatile(name)
        }.joined(separator: "&")
    }
}
