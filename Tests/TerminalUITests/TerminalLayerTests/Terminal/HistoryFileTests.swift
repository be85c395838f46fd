import Dispatch
import Foundation
import Testing
import TestSupport
@testable import TerminalUI

/// The history file on disk, shared by every instance on one HOME.
@Suite struct HistoryFileTests {
    @Test func concurrentSaversLoseNoLine() throws {
        let directory = try TemporaryDirectory()
        let file = HistoryFile(url: directory.url.appendingPathComponent("state/flickr/history"), limit: 1000)
        DispatchQueue.concurrentPerform(iterations: 6) { saver in
            for line in 0..<10 { try? file.save(adding: ["\(saver)-\(line)"]) }
        }
        let expected = (0..<6).flatMap { saver in (0..<10).map { "\(saver)-\($0)" } }
        #expect(file.load().sorted() == expected.sorted())
    }

    @Test func theNewestLinesWithinTheLimitAreKept() throws {
        let directory = try TemporaryDirectory()
        let file = HistoryFile(url: directory.url.appendingPathComponent("history"), limit: 3)
        try file.save(adding: ["a", "b"])
        try file.save(adding: ["b", "c", "d"])
        #expect(file.load() == ["b", "c", "d"])
    }

    @Test func anEntryStaysOneLineAndTheFileIsPrivate() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("history")
        try HistoryFile(url: url, limit: 10).save(adding: ["two\nlines", "cr\r\nlf"])
        #expect(try String(contentsOf: url, encoding: .utf8) == "two lines\ncr lf\n")
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "history" }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    @Test func aFailedSaveSaysWhereAndWhy() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("taken")
        try Data().write(to: folder)
        let file = HistoryFile(url: folder.appendingPathComponent("history"), limit: 10)
        #expect(throws: HistoryFile.SaveError(path: folder.appendingPathComponent("history").path,
                                               reason: "a part of the path is not a folder")) {
            try file.save(adding: ["x"])
        }
    }
}
