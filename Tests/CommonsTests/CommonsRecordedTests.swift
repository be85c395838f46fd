import Foundation
import Testing
@testable import CommonsService
@testable import PhotoCore

/// Real answers of Commons' `api.php` (see Recorded/PROVENANCE.md), each
/// decoded and compared with its answer key, field by field, in the key's
/// `index` order.
@Suite struct CommonsRecordedTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Recorded")

    static let bodies: [String] = [
        "01-search_video_cat_page2_gsroffset40_fv1_200",
        "02-search_other_dog_pdf-djvu_page1_fv1_200",
        "03-search_audio_cat_page2_no-thumbnails_fv1_200",
        "04-search_empty_suggestion_no-pages_fv1_200",
        "05-imageinfo_titles_extmetadata_cc-by-2.0-fr_fv1_200",
        "06-error_unknown_action_star-form_en-wikipedia_200",
    ]

    static func body(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name + ".json"))
    }

    static func key(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("expected/\(name).expected.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(arguments: bodies)
    func everyRecordedBodyDecodesToItsKey(_ name: String) throws {
        let key = try Self.key(name)
        let reading = try CommonsResponseDecoder.decode(try Self.body(name))
        if key["kind"] as? String == "error" {
            guard case .failure(let failure) = reading else {
                Issue.record("\(name): expected an error, decoded \(reading)")
                return
            }
            #expect(failure.code == key["code"] as? String)
            #expect(failure.info == key["info"] as? String)
            #expect(failure.help == key["help"] as? String)
            #expect(failure.servedBy == key["servedby"] as? String)
            return
        }
        guard case .answer(let answer) = reading else {
            Issue.record("\(name): expected an answer, decoded \(reading)")
            return
        }
        #expect(answer.formatVersion == key["formatversion"] as? Int)
        // `""` in formatversion 1 means complete, as `true` does in 2.
        #expect(answer.batchComplete == (key["batchcomplete"] as? String == "" || key["batchcomplete"] as? Bool == true))
        #expect(answer.totalHits == key["totalhits"] as? Int)
        #expect(answer.suggestion == key["suggestion"] as? String)
        let continuation = (key["continue"] as? [String: Any])?.mapValues { "\($0)" }
        #expect(answer.continuation == continuation, "\(name): the whole continue object, to send back")
        let results = try #require(key["results"] as? [[String: Any]])
        #expect(answer.files.count == key["n_results"] as? Int)
        #expect(answer.files.count == results.count)
        for (file, expected) in zip(answer.files, results) {
            let where_ = "\(name) #\(expected["index"] ?? "–") \(expected["pageid"] ?? "")"
            #expect(file.index == expected["index"] as? Int, "\(where_)")
            #expect(file.pageID == expected["pageid"] as? String, "\(where_)")
            #expect(file.title == expected["title"] as? String, "\(where_)")
            #expect(file.thumbnailURL?.absoluteString == expected["thumbnail_url"] as? String, "\(where_)")
            #expect(file.url?.absoluteString == expected["image_url"] as? String, "\(where_)")
            // Audio has width and height 0: no size, rather than a zero one.
            #expect((file.width ?? 0) == expected["width"] as? Int, "\(where_)")
            #expect((file.height ?? 0) == expected["height"] as? Int, "\(where_)")
            #expect(file.mime == expected["mime"] as? String, "\(where_)")
            #expect(CommonsText.line(file.metadata["ObjectName"]) == expected["ObjectName"] as? String, "\(where_)")
            #expect(file.metadata["LicenseShortName"] == expected["LicenseShortName"] as? String, "\(where_)")
            #expect(file.metadata["LicenseUrl"] == expected["LicenseUrl"] as? String, "\(where_)")
            #expect(file.metadata["Artist"] == expected["Artist_html"] as? String, "\(where_)")
            #expect(CommonsText.line(file.metadata["Artist"]) == expected["Artist"] as? String, "\(where_)")
        }
    }

    /// The pages come keyed by page id; the rank is `index` alone.
    @Test func searchPagesComeInRankOrderNotKeyOrder() throws {
        let name = Self.bodies[0]
        guard case .answer(let answer) = try CommonsResponseDecoder.decode(try Self.body(name)) else {
            Issue.record("not an answer")
            return
        }
        #expect(answer.files.compactMap(\.index) == Array(41...80))
        let byKey = answer.files.compactMap { Int($0.pageID) }.sorted()
        #expect(answer.files.compactMap { Int($0.pageID) } != byKey, "the recording's key order differs from its rank order")
    }

    /// Body 05 as the app shows it: the name, the artist without HTML, and
    /// a ported licence shown as Commons gives it, with its kind known.
    @Test func theSingleFileBecomesAPhotoWithItsCredit() throws {
        guard case .answer(let answer) = try CommonsResponseDecoder.decode(try Self.body(Self.bodies[4])),
              let file = answer.files.first
        else {
            Issue.record("not an answer with a file")
            return
        }
        let photo = CommonsProvider.photo(from: file)
        #expect(photo.id == "9809267")
        #expect(photo.title == "Tired 20-year-old cat")
        #expect(photo.owner == "Dimitri “Diti” Torterat")
        #expect(photo.credit?.creator == "Dimitri “Diti” Torterat")
        let license = try #require(photo.credit?.license)
        #expect(license.shortName == "CC BY 2.0 fr")
        #expect(license.kind == .by)
        #expect(license.url?.absoluteString == "https://creativecommons.org/licenses/by/2.0/fr/deed.en")
        #expect(photo.credit?.pageURL?.absoluteString == "https://commons.wikimedia.org/wiki/File:Tired_20-year-old_cat.jpg")
        #expect(photo.aspectRatio == 2484.0 / 1870.0)
        // The grid gets the thumbnail; /open a larger one of the same name; the original is a JPEG too.
        #expect(photo.rendition(labelled: CommonsProvider.thumbnailLabel)?.url == file.thumbnailURL)
        #expect(photo.rendition(labelled: CommonsProvider.largeLabel)?.url.absoluteString
            == "https://upload.wikimedia.org/wikipedia/commons/thumb/3/32/Tired_20-year-old_cat.jpg/1280px-Tired_20-year-old_cat.jpg")
        #expect(CommonsProvider.imageURL(in: photo, covering: PixelSize(width: 200, height: 150)) == file.thumbnailURL)
        #expect(photo.attributionLine(pageURL: nil).contains("CC BY 2.0 fr"))

        let details = CommonsProvider.details(from: file)
        #expect(details.description == "A 20-year-old cat that looks tired because of its advanced age.")
        #expect(details.dateTaken == nil, "“18 January 2009” is free text, not the form the app shows")
    }

    /// Audio has no thumbnail: the photo has no image rather than a wrong one.
    @Test func filesWithoutThumbnailsHaveNoRenditionsButKeepTheirIds() throws {
        guard case .answer(let answer) = try CommonsResponseDecoder.decode(try Self.body(Self.bodies[2])) else {
            Issue.record("not an answer")
            return
        }
        let photos = answer.files.map(CommonsProvider.photo(from:))
        #expect(photos.count == 40)
        #expect(photos.allSatisfy { $0.renditions.isEmpty && !$0.id.isEmpty })
    }
}
