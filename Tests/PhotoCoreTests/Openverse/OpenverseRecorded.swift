import Foundation
import Testing

/// The recorded Openverse answers in `Openverse/Recorded` (see its
/// PROVENANCE.md) and their answer keys in `expected/`, found next to the
/// tests so they need nothing outside the repository.
enum OpenverseRecorded {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Recorded")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// Every recorded body, sorted (answer keys, headers and notes left out).
    static var bodies: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    static var searchBodies: [String] { bodies.filter { $0.hasSuffix("_200.json") } }
    static var errorBodies: [String] { bodies.filter { !$0.hasSuffix("_200.json") } }

    /// The answer key of `body`, parsed by Foundation alone (not by the code under test).
    static func key(for body: String) throws -> [String: Any] {
        let name = body.replacingOccurrences(of: ".json", with: ".expected.json")
        let data = try Data(contentsOf: folder.appendingPathComponent("expected").appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The recorded response headers of `body`, lower-cased name → first value.
    static func headers(for body: String) throws -> [String: String] {
        let name = body.replacingOccurrences(of: ".json", with: ".response.json")
        let data = try Data(contentsOf: folder.appendingPathComponent("meta").appendingPathComponent(name))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let headers = try #require(root["headers"] as? [String: [String]])
        return headers.compactMapValues(\.first)
    }

    static let catPage1 = "01-search_q-cat_page1_2022-schema_200.json"
    static let catPage2NullSizes = "02-search_q-cat_page2_count240-cap_null-attribution-size_200.json"
    static let catPage3 = "03-search_q-cat_page3_200.json"
    static let cc0Commercial = "04-search_license-cc0_license_type-commercial_200.json"
    static let nasaQuirk = "08-search_category-photograph_source-nasa-quirk_200.json"
    static let emptyTitle = "10-search_creator-strogoscope_collection_empty-title_200.json"
    static let noResults = "11-search_no-results_200.json"
    static let throttled429 = "12-error_throttled_edited-tape_429.json"
    static let internal500 = "13-error_internal_edited-tape_500.json"
    static let notFound404 = "14-error_not-found_edited-tape_404.json"
}
