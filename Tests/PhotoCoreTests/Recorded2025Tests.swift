import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// Real Flickr answers of 2024–2025 (`Recorded/flickr-2025`, from the Flickr
/// Foundation's own test recordings), read by the app's decoders and
/// compared with their answer keys.
@Suite struct Recorded2025Tests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Recorded/flickr-2025")

    /// The recorded body whose name starts with `prefix`, and its answer key.
    func body(_ prefix: String) throws -> (Data, [String: Any]) {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        let name = try #require(names.first { $0.hasPrefix(prefix) && $0.hasSuffix(".xml") })
        let key = Self.folder.appendingPathComponent("expected")
            .appendingPathComponent(name.replacingOccurrences(of: ".xml", with: ".expected.json"))
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: key)) as? [String: Any])
        return (try Data(contentsOf: Self.folder.appendingPathComponent(name)), expected)
    }

    @Test func licencesGetInfoGivesEveryIdNameAndURL() throws {
        let (data, expected) = try body("01-")
        let decoded = try FlickrResponseDecoder.decodeLicenses(data)
        let keys = try #require(expected["licenses"] as? [[String: Any]])
        #expect(decoded.map(\.id) == keys.compactMap { $0["id"] as? Int })
        #expect(decoded.map(\.name) == keys.compactMap { $0["name"] as? String })
        #expect(decoded.map { $0.url?.absoluteString } == keys.map { $0["url"] as? String })
        // Flickr's names today are the built-in table's: short ones for the
        // Creative Commons licences, full ones for the others.
        for entry in decoded {
            let known = FlickrLicenseTable.builtIn.flickr(id: entry.id)
            #expect(entry.name == (known.kind.isCreativeCommonsLicence ? known.shortName : known.fullName), "id \(entry.id)")
            #expect(entry.url == known.url, "id \(entry.id)")
        }
    }

    @Test func lookupUserGivesTheNSID() throws {
        let (data, expected) = try body("02-")
        let user = try #require(expected["user"] as? [String: Any])
        #expect(try FlickrResponseDecoder.decodeUserID(data) == user["id"] as? String)
    }

    @Test(arguments: ["07-", "08-", "15-", "16-", "17-", "18-", "19-", "20-", "21-", "22-"])
    func failuresBecomeFlickrsCodeAndMessage(_ prefix: String) throws {
        let (data, expected) = try body(prefix)
        let error = try #require(throws: FlickrError.self) { try FlickrResponseDecoder.decodeUserID(data) }
        let code = try #require(expected["code"] as? Int)
        let message = try #require(expected["message"] as? String)
        #expect(error == .api(code: code, message: message))
    }

    @Test(arguments: ["04-", "11-", "12-", "14-"])
    func photoListsDecodeInOrder(_ prefix: String) throws {
        let (data, expected) = try body(prefix)
        let photos = try #require(expected["photos"] as? [String: Any])
        let page = try FlickrResponseDecoder.decode(data).page
        #expect(page.photos.map(\.id) == (photos["ids"] as? [String] ?? []))
        #expect(page.total == photos["total"] as? Int)
    }
}
