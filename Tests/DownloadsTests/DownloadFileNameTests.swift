import PhotoCore
@testable import Downloads
import Foundation
import ImagePipeline
import Sandbox
import TestSupport
import Testing
import FlickrService

/// File names and listings: no invisible or reordering
/// character reaches a file name, a server's long id still gives a name the
/// file system takes, and `search --pages` prints each photo once.
@Suite struct DownloadFileNameTests {
    @Test func zeroWidthTagAndBidiCharactersNeverReachAFileName() throws {
        let title = "Tram\u{200B}28\u{200C}\u{200D}\u{2060}\u{2064}\u{FEFF} \u{E0041}\u{E007F}Lisbon\u{202E}\u{2067}\u{061C}\(DownloadHostileText.scalar(0xFFFF))"
        let name = SafeFileName.make(title, fallback: "1")
        let hidden = name.unicodeScalars.filter(DownloadHostileText.isForbiddenInCredits)
        #expect(hidden.isEmpty, "\(hidden.map { String($0.value, radix: 16) })")
        #expect(name.hasPrefix("Tram28 Lisbon"), "\(name)")
        let photo = Photo(id: "1", owner: "o", title: title)
        let templated = try FileNameTemplate("{title}_{id}").name(for: .init(photo: photo, index: 1))
        #expect(templated.unicodeScalars.filter(DownloadHostileText.isForbiddenInCredits).isEmpty)
    }

    @Test func aServersThreeHundredCharacterIdStillGivesAFile() async throws {
        let directory = try TemporaryDirectory()
        let common = String(repeating: "7", count: 290)
        let photos = ["1", "2"].map { last in
            Photo(id: common + last + String(repeating: "x", count: 9), owner: "99@N00", ownerName: "ana", title: "Tram",
                  flickr: FlickrPhotoKeys(secret: String(repeating: "s", count: 40), server: "1"))
        }
        let provider = CollectionProvider(photos: photos)
        let job = DownloadJob(
            request: .init(source: .collection(provider.album), pages: 1, perPage: 2, size: .square150, folder: directory.url,
                           concurrency: 2, sidecars: true),
            provider: provider, pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()), reporter: DownloadResumeTests.TallyReporter())
        let result = await job.run()
        #expect(result.tally.downloaded == 2, "\(result.tally.summary(seconds: 1)) \(result.notes)")
        #expect(result.tally.failed == 0)
        let names = directory.allFiles().map(\.lastPathComponent)
        #expect(names.filter { $0.hasSuffix(".jpg") }.count == 2, "two long ids that start alike keep two files: \(names)")
        #expect(names.filter { $0.hasSuffix(".xmp") }.count == 2)
        for name in names { #expect(name.utf8.count <= 255 - 25, "\(name.utf8.count) bytes leave no room for the writer's temporary name") }

        // And a second run finds them again.
        let again = await DownloadJob(
            request: .init(source: .collection(provider.album), pages: 1, perPage: 2, size: .square150, folder: directory.url,
                           concurrency: 2, sidecars: true),
            provider: provider, pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()), reporter: DownloadResumeTests.TallyReporter()).run()
        #expect(again.tally.kept == 2, "\(again.tally.summary(seconds: 1))")
    }

    @Test func aDefaultNameIsCutOnACharacterBoundaryWithRoomForItsSuffixes() {
        for length in [199, 200, 201, 255, 300, 10_000] {
            let photo = Photo(id: String(repeating: "9", count: length), owner: "o", title: "")
            let name = DownloadFolder.baseName(for: photo, size: .square150)
            #expect(name.utf8.count <= SafeFileName.maxBytes)
            #expect((name + " (99999).webp").utf8.count + 25 <= 255)
        }
    }

    @Test func aCombiningMarkAfterABraceDoesNotHideIt() throws {
        let template = try FileNameTemplate("{title}\u{301}_{id}")
        #expect(template.text == "{title}\u{301}_{id}")
    }

    /// parse → print → parse is the identity, for generated templates.
    @Test func templatesReadBackFromTheirPrintedForm() throws {
        var random = SplitMix64(seed: 29_17)
        let fields = FileNameTemplate.Field.allCases
        for round in 0..<2_000 {
            var text = ""
            var hasField = false
            for _ in 0..<(1 + random.below(6)) {
                if random.chance(0.5) {
                    text += "{\(random.pick(fields).rawValue)}"
                    hasField = true
                } else {
                    text += String(String.UnicodeScalarView(DownloadHostileText.text(&random).unicodeScalars.filter { $0 != "{" && $0 != "}" }))
                }
            }
            if !hasField { text += "{id}" }
            let template = try FileNameTemplate(text)
            let again = try FileNameTemplate(template.text)
            guard again == template, template.text == text else {
                Issue.record("round \(round): \(text.debugDescription) printed as \(template.text.debugDescription)")
                return
            }
            let photo = DownloadHostileText.photo(&random, id: round)
            let name = template.name(for: .init(photo: photo, index: round, album: DownloadHostileText.text(&random)))
            guard !name.isEmpty, name.utf8.count <= SafeFileName.maxBytes, !name.contains("/"),
                  name.unicodeScalars.allSatisfy({ !DownloadHostileText.isForbiddenInCredits($0) }) else {
                Issue.record("round \(round): \(text.debugDescription) named a file \(name.debugDescription)")
                return
            }
        }
    }
}
