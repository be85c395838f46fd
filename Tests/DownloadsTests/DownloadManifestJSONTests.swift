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
            #expect(DownloadManifest.decoded(written) == contents, "round \(round): read back")
            if written != expected { return }
        }
    }

    /// A manifest damaged on disk (bytes changed, lost or repeated) reads
    /// as JSONDecoder reads it: the same records, or not at all.
    @Test func aDamagedManifestReadsAsTheDecoderReadsIt() throws {
        var random = SplitMix64(seed: 32_06)
        // Not "\\": JSONDecoder reads an unknown escape such as `\[` where
        // JSON (and the reader) refuse it.
        let pool = Array(#"{}[]:,"0123456789.eE-+ ntfulrsaxb"#.utf8) + [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0xC3, 0xFF]
        var unread = 0, read = 0
        for round in 0..<2_000 {
            var contents = DownloadManifest.Contents()
            for index in 0..<(1 + random.below(3)) {
                contents.files["w\(index)"] = DownloadManifest.Record(
                    provider: "flickr", id: String(random.below(1 << 40)), file: random.chance(0.8) ? "w\(index).jpg" : nil,
                    bytes: random.chance(0.8) ? random.below(1 << 30) : nil, sha256: random.chance(0.5) ? "0f" : nil,
                    modified: random.chance(0.8) ? Double(random.below(2_000_000_000)) + random.unit() : nil,
                    sidecars: random.chance(0.6) ? Self.stamp(&random) : nil)
            }
            contents.credits = random.chance(0.5) ? Self.stamp(&random) : nil
            var bytes = Array(try DownloadManifest.encoded(contents))
            for _ in 0..<(1 + random.below(3)) where !bytes.isEmpty {
                let at = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes[at] = random.pick(pool)
                case 1: bytes.remove(at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + random.below(8))], at: at)
                }
            }
            let damaged = Data(bytes)
            let reference = try? JSONDecoder().decode(DownloadManifest.Contents.self, from: damaged)
            let ours = DownloadManifest.decoded(damaged)
            if ours == nil, reference != nil, Self.hasUnknownEscape(bytes) {
                // JSONDecoder reads `\[` (a lost backslash of `\\[`) as "["; JSON does not.
                continue
            }
            if ours != nil, reference == nil, Self.hasLeadingZero(bytes) {
                // The reader reads `063` as 63, where JSON (and JSONDecoder) refuse it.
                continue
            }
            #expect(ours == reference, "round \(round): \(String(decoding: damaged, as: UTF8.self))")
            if reference == nil { unread += 1 } else { read += 1 }
        }
        // Both kinds of damage were met: some still read, some not.
        #expect(read > 100 && unread > 100, "read \(read), unread \(unread)")
    }

    /// A manifest pretty-printed by hand (or by `jq`) still reads.
    @Test func aPrettyPrintedManifestReads() throws {
        var contents = DownloadManifest.Contents()
        contents.files["w0"] = DownloadManifest.Record(provider: "flickr", id: "1", file: "w0.jpg", bytes: 3, modified: 2.5,
                                                      sidecars: .init(inputs: "ab", files: [.init(bytes: 1, modified: 2)]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let pretty = try encoder.encode(contents)
        #expect(pretty.contains(0x0A))
        #expect(DownloadManifest.decoded(pretty) == contents)
        #expect(DownloadManifest.decoded(Data(String(decoding: pretty, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n\t").utf8)) == contents)
    }

    /// A number outside strings written with a leading zero (`063`).
    private static func hasLeadingZero(_ bytes: [UInt8]) -> Bool {
        var inString = false, escaped = false
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "0"), index + 1 < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]),
                      index == 0 || !(Array("0123456789.eE+".utf8)).contains(bytes[index - 1]) {
                return true
            }
        }
        return false
    }

    private static func hasUnknownEscape(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                if !Array(#""\/bfnrtu"#.utf8).contains(bytes[index + 1]) { return true }
                index += 2
            } else {
                index += 1
            }
        }
        return false
    }

    /// Numbers beyond a Double's range read as no manifest, as JSONDecoder
    /// reads them: a time of infinity could never be written back.
    @Test func aTimeBeyondADoublesRangeIsNotRead() throws {
        let text = #"{"files":{"w0":{"id":"1","modified":1e999,"provider":"flickr"}},"version":1}"#
        #expect(DownloadManifest.decoded(Data(text.utf8)) == nil)
        #expect((try? JSONDecoder().decode(DownloadManifest.Contents.self, from: Data(text.utf8))) == nil)
        let readable = text.replacingOccurrences(of: "1e999", with: "1e9")
        #expect(DownloadManifest.decoded(Data(readable.utf8))?.files["w0"]?.modified == 1e9)
    }

    @Test func aTimeJSONCannotHoldFailsAsTheEncoderDoes() {
        var contents = DownloadManifest.Contents()
        contents.files["a"] = DownloadManifest.Record(provider: "flickr", id: "1", modified: .nan)
        #expect(throws: (any Error).self) { try Self.encoder.encode(contents) }
        #expect(throws: (any Error).self) { try DownloadManifest.encoded(contents) }
    }
}
