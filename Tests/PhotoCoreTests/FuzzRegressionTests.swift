import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// Inputs Scripts/fuzz found that crashed or broke a promise, kept as
/// regressions: each must now fail politely, as a value.
@Suite struct FuzzRegressionTests {
    /// A 30 KB line (an unclosed `user:"` quote over decomposed é, control
    /// bytes, `kittens`, `license:by`) that `Scripts/fuzz`'s query target
    /// found on the submitted tree: its printed form read back with one tag
    /// fewer, as a tag that starts with a combining mark fused with the
    /// comma before it.
    @Test func theFuzzersThirtyKilobyteQueryReadsBackTheSame() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzFindings/query-round-trip-1.txt")
        let line = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let query = try #require(try SearchQuery.parse(line))
        let again = try? SearchQuery.parse(query.typed)
        #expect(again == query)
    }

    /// The same fault in a few bytes: two `tag:` words, the second starting
    /// with a combining acute, print as one list, `tag:a,\u{301}b`.
    @Test func aTagThatStartsWithACombiningMarkStaysItsOwnTag() throws {
        let query = try #require(try SearchQuery.parse("cats tag:a tag:\u{301}b"))
        #expect(query.filters.tags == ["a", "\u{301}b"])
        #expect(try SearchQuery.parse(query.typed) == query)
    }

    /// `<` then bytes that are not UTF-8: Foundation's XMLParser trapped on
    /// the element name and took the process with it.
    @Test func xmlWithANameThatIsNotUTF8IsRefusedNotACrash() {
        let data = Data([0x3C] + [UInt8](repeating: 0xFF, count: 44) + [0x2C, 0x0D])
        #expect(throws: FlickrError.self) { try FlickrResponseDecoder.decode(data) }
        #expect(throws: FlickrError.self) { try FlickrDetailsDecoder.decodeInfo(data) }
        do {
            _ = try FlickrXMLReader.read(data)
            Issue.record("bytes that are not UTF-8 were read as XML")
        } catch {
            #expect(error.description.contains("not valid UTF-8"), "\(error)")
        }
    }

    /// `<?x?>`, a processing instruction without data: Foundation's
    /// XMLParser read its missing data as a C string and crashed. Found
    /// before a recorded `flickr.people.getInfo` answer.
    @Test func xmlWithAnInstructionWithoutDataIsReadNotACrash() throws {
        let xml = #"<?x?><rsp stat="ok"><?y?><photos page="1" pages="1" perpage="1" total="1"><photo id="7" secret="s" server="1" title="a?>b" /></photos><?z ?></rsp>"#
        let page = try FlickrResponseDecoder.decodePhotoPage(Data(xml.utf8))
        #expect(page.photos.map(\.id) == ["7"])
        #expect(page.photos.first?.title == "a?>b")
        #expect(try FlickrXMLReader.parse(Data("<r><?x?><![CDATA[<?y?>]]></r>".utf8)).text == "<?y ?>")
    }

    /// Only an instruction without data is changed, by one space.
    @Test func paddingTouchesOnlyInstructionsWithoutData() {
        let cases = [
            ("<?x?><r/>", "<?x ?><r/>"), ("<r><?a?><?b c?><?d\t?></r>", "<r><?a ?><?b c?><?d\t?></r>"),
            ("<r a=\"1\">?></r>", "<r a=\"1\">?></r>"), ("<??>", "<? ?>"), ("<?x?", "<?x?"), ("<", "<"), ("", ""),
        ]
        for (input, expected) in cases {
            let padded = FlickrXMLReader.paddingEmptyProcessingInstructions(Data(input.utf8))
            #expect(String(decoding: padded, as: UTF8.self) == expected, "\(input.debugDescription)")
        }
    }
}
