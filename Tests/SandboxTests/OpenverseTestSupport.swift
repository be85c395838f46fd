import Foundation
import Sandbox
import Testing

extension SandboxServer {
    /// `/v1/images/?…` (or another Openverse path) with the given query.
    func openverse(_ query: [(String, String)] = [], path: String = "v1/images/") -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        if path.hasSuffix("/"), components?.path.hasSuffix("/") == false { components?.path += "/" }
        if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        return components?.url ?? baseURL
    }

    /// A Bearer token from the sandbox's token endpoint.
    func openverseToken(clientID: String = "peer", clientSecret: String = "peer-secret") async throws -> String {
        let answer = try await http(.POST, openverse(path: "v1/auth_tokens/token/"), form: [
            ("grant_type", "client_credentials"), ("client_id", clientID), ("client_secret", clientSecret),
        ])
        guard answer.status == 200, let token = try answer.json()["access_token"] as? String else {
            throw TestFailure("no token: \(answer.status) \(answer.text)")
        }
        return token
    }
}

/// Openverse results for a query, in catalog terms: the photos the Flickr
/// search finds, less those without an open licence.
func openverseExpected(_ catalog: Catalog, text: String) -> [CatalogPhoto] {
    catalog.search(text: text).map(catalog.photo(at:)).filter { openverseSlug($0.license) != nil }
}

/// Openverse's licence slug of a Flickr licence id (nil: not in Openverse).
func openverseSlug(_ flickrID: Int) -> String? {
    switch flickrID {
    case 1, 15: "by-nc-sa"
    case 2, 14: "by-nc"
    case 3, 16: "by-nc-nd"
    case 4, 11: "by"
    case 5, 12: "by-sa"
    case 6, 13: "by-nd"
    case 9: "cc0"
    case 10: "pdm"
    default: nil
    }
}

func results(_ response: [String: Any]) -> [[String: Any]] { response["results"] as? [[String: Any]] ?? [] }

/// A decoder installed on this machine, for checks that skip visibly without it.
func decoderTool(_ name: String) -> String? {
    ["/usr/bin", "/usr/local/bin", "/bin"].map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
