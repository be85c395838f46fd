import PhotoCore
@testable import Downloads
import Foundation
import Sandbox
import TestSupport
import Testing

/// The JSON sidecar is written directly, byte for byte as `JSONEncoder`
/// wrote it: files of earlier versions compare equal, and readers see no change.
@Suite struct DownloadSidecarJSONTests {
    /// Every C0 control, DEL, C1's NEL and the line separator: each escaped or not as the encoder does.
    private static let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init))) + "\u{7F}\u{85}\u{2028}"

    /// A photo with every field set, most of them to hostile text.
    private static func photo(_ random: inout SplitMix64, id: Int) -> Photo {
        var photo = DownloadHostileText.photo(&random, id: id)
        if random.chance(0.3) { photo.title += controls }
        photo.id = random.chance(0.2) ? DownloadHostileText.text(&random) : photo.id
        photo.owner = DownloadHostileText.text(&random)
        if random.chance(0.2) { photo.ownerName = nil }
        photo.dateTaken = random.chance(0.5) ? DownloadHostileText.text(&random) : nil
        photo.tags = (0..<random.below(4)).map { _ in DownloadHostileText.text(&random) }
        photo.dateUploaded = random.chance(0.5) ? Date(timeIntervalSince1970: Double(random.below(2_000_000_000)) + random.unit()) : nil
        photo.isVideo = random.chance(0.2)
        photo.visibility = random.chance(0.5)
            ? Photo.Visibility(isPublic: random.chance(0.5), isFriend: random.chance(0.5), isFamily: random.chance(0.5)) : nil
        // Keys from the server too: their order in the file is the encoder's.
        photo.providerKeys = Dictionary((0..<random.below(4)).map { _ in (DownloadHostileText.text(&random), DownloadHostileText.text(&random)) }) { a, _ in a }
        photo.renditions = (0..<random.below(4)).map { index in
            PhotoRendition(
                label: DownloadHostileText.text(&random), url: URL(string: "https://e.test/\(index)/a%20b?x=\"y\"&z=é") ?? URL(fileURLWithPath: "/x"),
                width: random.chance(0.7) ? random.below(5_000) - 10 : nil, height: random.chance(0.7) ? Int.max - random.below(3) : nil,
                isCrop: random.chance(0.3))
        }
        photo.aspectRatio = random.pick([nil, 1, 1.5, 0.1, 4.0 / 3.0, 1e20, 1e-7, 123_456_789.125, -0.0, random.unit() * 10])
        if random.chance(0.8) {
            var credit = photo.credit ?? PhotoCredit()
            credit.creatorURL = random.chance(0.5) ? URL(string: "https://e.test/people/\(id)") : nil
            credit.source = random.chance(0.5) ? DownloadHostileText.text(&random) : nil
            credit.fileType = random.chance(0.5) ? DownloadHostileText.text(&random) : nil
            photo.credit = credit
        }
        return photo
    }

    private static func sidecar(for photo: Photo, _ random: inout SplitMix64) -> DownloadCredits.Sidecar {
        DownloadCredits.Sidecar(
            photo, provider: random.pick(["flickr", DownloadHostileText.text(&random)]), file: DownloadHostileText.text(&random) + ".jpg",
            bytes: random.chance(0.8) ? random.below(1 << 30) : nil, sha256: random.chance(0.8) ? String(repeating: "ab", count: 32) : nil,
            size: random.pick(["q", "o", DownloadHostileText.text(&random)]), pageURL: random.chance(0.8) ? URL(string: "https://e.test/p/\(photo.id.count)") : nil,
            attribution: DownloadHostileText.text(&random), retrieved: Date(timeIntervalSince1970: 1_700_000_000).formatted(.iso8601))
    }

    @Test func theWriterGivesTheEncodersBytesForHostileWorks() throws {
        var random = SplitMix64(seed: 32_04)
        for round in 0..<500 {
            let sidecar = Self.sidecar(for: Self.photo(&random, id: round), &random)
            let expected = try DownloadCredits.referenceEncoder.encode(sidecar)
            let written = try DownloadCredits.json(sidecar)
            if written != expected {
                let at = zip(written, expected).prefix { $0 == $1 }.count
                Issue.record("""
                    round \(round): differs at byte \(at):
                    \(String(decoding: written.dropFirst(max(0, at - 60)).prefix(120), as: UTF8.self))
                    expected:
                    \(String(decoding: expected.dropFirst(max(0, at - 60)).prefix(120), as: UTF8.self))
                    """)
                return
            }
        }
    }

    @Test func aWorkWithNothingButItsIdIsWrittenAsTheEncoderWritesIt() throws {
        let sidecar = DownloadCredits.Sidecar(
            Photo(id: "1", owner: "", title: ""), provider: "", file: "", size: "", pageURL: nil, attribution: "", retrieved: "")
        #expect(try DownloadCredits.json(sidecar) == DownloadCredits.referenceEncoder.encode(sidecar))
    }

    @Test(arguments: [Double.infinity, -Double.infinity, Double.nan])
    func anAspectRatioJSONCannotHoldFailsAsTheEncoderDoes(_ ratio: Double) {
        var photo = Photo(id: "1", owner: "o", title: "t")
        photo.aspectRatio = ratio
        let sidecar = DownloadCredits.Sidecar(photo, provider: "p", file: "1.jpg", size: "q", pageURL: nil, attribution: "", retrieved: "")
        #expect(throws: (any Error).self) { try DownloadCredits.referenceEncoder.encode(sidecar) }
        #expect(throws: (any Error).self) { try DownloadCredits.json(sidecar) }
    }
}
