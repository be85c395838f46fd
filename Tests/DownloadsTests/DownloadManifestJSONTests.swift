@testable import Downloads
import Foundation
import Sandbox
import TestSupport
import Testing

/// The manifest is written directly, byte for byte as `JSONEncoder` wrote
/// it: an earlier version's file compares equal and is not rewritten, and
/// the file reads back as what was saved.
@Suite struct DownloadManifestJSONTests {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func status(_ random: inout SplitMix64) -> DownloadManifest.FileStatus {
        DownloadManifest.FileStatus(
            bytes: random.chance(0.1) ? Int.max - random.below(3) : random.below(1 << 40),
            modified: random.pick([0, 1, 1e20, 1e-7, -0.0, 1_795_804_732.859103, Double(random.below(2_000_000_000)) + random.unit()]))
    }

    private static func stamp(_ random: inout SplitMix64) -> DownloadManifest.Stamp {
        DownloadManifest.Stamp(inputs: DownloadHostileText.text(&random), files: (0..<random.below(3)).map { _ in Self.status(&random) })
    }

    @Test func theWriterGivesTheEncodersBytesForHostileRecords() throws {
        var random = SplitMix64(seed: 32_05)
        for round in 0..<300 {
            var contents = DownloadManifest.Contents()
            for _ in 0..<random.below(6) {
                let record = DownloadManifest.Record(
                    provider: DownloadHostileText.text(&random), id: DownloadHostileText.text(&random),
                    file: random.chance(0.8) ? DownloadHostileText.text(&random) : nil,
                    bytes: random.chance(0.8) ? random.below(1 << 30) : nil,
                    sha256: random.chance(0.8) ? String(repeating: "0f", count: 32) : nil,
                    modified: random.chance(0.8) ? Double(random.below(2_000_000_000)) + random.unit() : nil,
                    sidecars: random.chance(0.6) ? Self.stamp(&random) : nil)
                contents.files[DownloadHostileText.text(&random)] = record
            }
            contents.credits = random.chance(0.5) ? Self.stamp(&random) : nil
            let expected = try Self.encoder.encode(contents)
            let written = try DownloadManifest.encoded(contents)
            #expect(written == expected, "round \(round): \(String(decoding: written.prefix(200), as: UTF8.self))")
            #expect(try JSONDecoder().decode(DownloadManifest.Contents.self, from: written) == contents)
            if written != expected { return }
        }
    }

    @Test func aTimeJSONCannotHoldFailsAsTheEncoderDoes() {
        var contents = DownloadManifest.Contents()
        contents.files["a"] = DownloadManifest.Record(provider: "flickr", id: "1", modified: .nan)
        #expect(throws: (any Error).self) { try Self.encoder.encode(contents) }
        #expect(throws: (any Error).self) { try DownloadManifest.encoded(contents) }
    }
}
