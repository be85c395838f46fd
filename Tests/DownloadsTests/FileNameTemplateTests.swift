import PhotoCore
@testable import Downloads
import Foundation
import Testing
import FlickrService

/// `--name`: the template's fields, its mistakes, and names every file
/// system accepts.
@Suite struct FileNameTemplateTests {
    private let photo = Photo(
        id: "5301", owner: "99@N00", ownerName: "Ana Souza", title: "Tram 28", dateTaken: "2019-06-01 14:03:22",
        flickr: FlickrPhotoKeys(secret: "abc", server: "1"))

    private func name(_ template: String, _ photo: Photo? = nil, index: Int = 7, album: String = "") throws -> String {
        try FileNameTemplate(template).name(for: .init(photo: photo ?? self.photo, index: index, album: album))
    }

    @Test func everyFieldIsFilledFromThePhoto() throws {
        #expect(try name("{id}_{title}") == "5301_Tram 28")
        #expect(try name("{owner}-{date_taken}-{index}") == "Ana Souza-2019-06-01_14-03-22-7")
        #expect(try name("{album}/{index}", album: "Lisbon") == "Lisbon_7")
    }

    @Test func theOwnerFallsBackToTheIdAndTheAlbumIsEmptyOutsideAnAlbum() throws {
        var unnamed = photo
        unnamed.ownerName = nil
        #expect(try name("{owner}", unnamed) == "99@N00")
        #expect(try name("{album}{id}") == "5301")
    }

    @Test(arguments: [
        ("{id", "never closed"),
        ("{id}_{nope}", "unknown field {nope}"),
        ("{}", "an empty field {}"),
        ("x}{id}", "with no “{”"),
        ("photo", "names every file the same"),
    ])
    func aBadTemplateSaysWhatIsWrong(template: String, words: String) {
        do {
            _ = try FileNameTemplate(template)
            Issue.record("\(template) was accepted")
        } catch {
            #expect(error.message.hasPrefix("--name “\(template)”"), "\(error.message)")
            #expect(error.message.contains(words), "\(error.message)")
        }
    }

    @Test func anUnknownFieldListsTheKnownOnes() {
        #expect {
            try FileNameTemplate("{size}")
        } throws: { error in
            (error as? FileNameTemplateError)?.message.contains("{id}, {title}, {owner}, {date_taken}, {index}, {album}") == true
        }
    }

    @Test func separatorsReservedCharactersAndControlsBecomeUnderscores() {
        #expect(SafeFileName.make("a/b\\c:d*e?f\"g<h>i|j", fallback: "1") == "a_b_c_d_e_f_g_h_i_j")
        #expect(SafeFileName.make("bell\u{07}nul\u{00}esc\u{1B}[31m", fallback: "1") == "bell_nul_esc_[31m")
        #expect(SafeFileName.make("abc\u{202E}gpj.exe", fallback: "1") == "abc_gpj.exe", "no right-to-left override")
    }

    @Test func leadingAndTrailingDotsAndSpacesGo() {
        #expect(SafeFileName.make("  .hidden. . ", fallback: "1") == "hidden")
        #expect(SafeFileName.make("..", fallback: "42") == "42")
        #expect(SafeFileName.make("../../etc/passwd", fallback: "1") == "_.._etc_passwd")
    }

    @Test func windowsDeviceNamesAreChanged() {
        #expect(SafeFileName.make("CON", fallback: "1") == "CON_")
        #expect(SafeFileName.make("nul.tar", fallback: "1") == "nul_.tar")
        #expect(SafeFileName.make("Com7", fallback: "1") == "Com7_")
        #expect(SafeFileName.make("CONSOLE", fallback: "1") == "CONSOLE")
        #expect(SafeFileName.make("COM0", fallback: "1") == "COM0")
    }

    @Test func longNamesAreCutOnACharacterBoundaryWithinTheByteLimit() {
        let accents = SafeFileName.make(String(repeating: "é", count: 300), fallback: "1")
        #expect(accents.utf8.count == 200)
        // An emoji with a skin tone: one character of two scalars (a family
        // joined by U+200D falls apart, as zero-width characters are dropped).
        let family = "👍🏽"
        let families = SafeFileName.make(String(repeating: family, count: 30), fallback: "1")
        #expect(families.utf8.count <= 200)
        #expect(families.utf8.count % family.utf8.count == 0, "no family is split")
        #expect(families.allSatisfy { $0 == Character(family) })
    }

    @Test func anEmptyNameBecomesTheId() throws {
        var untitled = photo
        untitled.title = "   "
        #expect(try name("{title}", untitled) == "5301")
        untitled.title = " ... "
        #expect(try name("{title}", untitled) == "5301")
    }

    @Test func theSameTitleInTwoSpellingsGivesOneName() {
        let composed = SafeFileName.make("Caf\u{E9}", fallback: "1")
        let decomposed = SafeFileName.make("Cafe\u{301}", fallback: "1")
        #expect(composed == decomposed)
    }

    @Test func collisionsAreNumberedInOrderIgnoringCase() {
        var naming = DownloadNaming(template: try? FileNameTemplate("{title}"), size: .square150, album: "")
        let names = ["Sunset", "sunset", "Sunset", "Harbour"].enumerated().map { offset, title in
            naming.baseName(for: Photo(id: "\(offset)", owner: "o", title: title), index: offset + 1) { _ in false }
        }
        #expect(names == ["Sunset", "sunset (2)", "Sunset (3)", "Harbour"])
    }

    @Test func aNameTakenByAnotherWorkInTheFolderIsNumbered() {
        var naming = DownloadNaming(template: try? FileNameTemplate("{title}"), size: .square150, album: "")
        let name = naming.baseName(for: Photo(id: "1", owner: "o", title: "Sunset"), index: 1) { $0 == "Sunset" }
        #expect(name == "Sunset (2)")
    }

    @Test func withoutATemplateTheNameIsTheOneFlickrUses() {
        var naming = DownloadNaming(template: nil, size: .square150, album: "")
        #expect(naming.baseName(for: photo, index: 1) { _ in false } == "5301_abc_q")
    }

    @Test func aVideoIsWholeWhenItsBoxesAddUpToItsLength() {
        let video = Self.mp4(payload: 1000)
        #expect(VideoFile.isWholeISOMedia(video))
        #expect(VideoFile.fileExtension(for: video) == "mp4")
        #expect(!VideoFile.isWholeISOMedia(video.prefix(video.count - 1)))
        #expect(!VideoFile.isWholeISOMedia(video.prefix(20)))
        #expect(!VideoFile.isWholeISOMedia(Data("not a video at all".utf8)))
        #expect(VideoFile.fileExtension(for: Data("not a video at all".utf8)) == "video")
    }

    /// A minimal MP4: `ftyp`, an empty `moov` and an `mdat` of `payload` bytes.
    static func mp4(payload: Int) -> Data {
        func box(_ type: String, _ body: Data) -> Data {
            var size = UInt32(8 + body.count).bigEndian
            return Data(bytes: &size, count: 4) + Data(type.utf8) + body
        }
        return box("ftyp", Data("isom".utf8) + Data([0, 0, 2, 0]) + Data("isommp41".utf8))
            + box("moov", Data())
            + box("mdat", Data(repeating: 0x5A, count: payload))
    }
}
