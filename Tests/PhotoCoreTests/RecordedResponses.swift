import Foundation

/// The recorded Flickr responses in `Recorded/` (see its README), found next
/// to this source file so the tests need nothing outside the repository.
enum RecordedResponses {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Recorded")
    static let bodies = folder.appendingPathComponent("bodies")
    static let answerKeys = folder.appendingPathComponent("expected")

    /// File names of every answer key, sorted.
    static var answerKeyNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: answerKeys.path)) ?? []
        return names.filter { $0.hasSuffix(".expected.json") }.sorted()
    }

    /// File names of every recorded body, sorted.
    static var bodyNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: bodies.path)) ?? []).sorted()
    }

    static func body(named name: String) throws -> Data {
        try Data(contentsOf: bodies.appendingPathComponent(name))
    }

    static func answerKey(named name: String) throws -> AnswerKey {
        try JSONDecoder().decode(AnswerKey.self, from: Data(contentsOf: answerKeys.appendingPathComponent(name)))
    }
}

/// What a correct client shows for one recorded response.
struct AnswerKey: Decodable {
    var source: String
    var stat: String
    var page: Int?
    var pages: Int?
    var perpage: Int?
    var total: Int?
    var code: Int?
    var message: String?
    var photos: [ExpectedPhoto]?

    /// The body's file name in `Recorded/bodies` (keys name their source
    /// relative to the shared reference folder).
    var bodyName: String { (source as NSString).lastPathComponent }
}

struct ExpectedPhoto: Decodable {
    var id: String
    var owner: String
    var server: String
    var secret: String
    var farm: Int
    var title: String
    /// Every `url_*` member, by key.
    var urls: [String: String]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        id = try container.decode(String.self, forKey: Key(stringValue: "id"))
        owner = try container.decode(String.self, forKey: Key(stringValue: "owner"))
        server = try container.decode(String.self, forKey: Key(stringValue: "server"))
        secret = try container.decode(String.self, forKey: Key(stringValue: "secret"))
        farm = try container.decode(Int.self, forKey: Key(stringValue: "farm"))
        title = try container.decode(String.self, forKey: Key(stringValue: "title"))
        var urls: [String: String] = [:]
        for key in container.allKeys where key.stringValue.hasPrefix("url_") {
            urls[key.stringValue] = try container.decode(String.self, forKey: key)
        }
        self.urls = urls
    }
}
