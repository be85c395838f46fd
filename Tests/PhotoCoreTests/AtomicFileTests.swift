import Foundation
import Testing
import TestSupport
@testable import PhotoCore
import Platform

/// `AtomicFile` on a real temporary folder.
@Suite struct AtomicFileTests {
    @Test func writesANewFileAndLeavesNothingElse() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("a.jpg")
        try AtomicFile.write(Data([1, 2, 3]), to: target)
        #expect(try Data(contentsOf: target) == Data([1, 2, 3]))
        #expect(folder.allFiles().map(\.lastPathComponent) == ["a.jpg"])
    }

    @Test func replacesAnExistingFileWhole() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("session.json")
        try AtomicFile.write(Data(repeating: 7, count: 100_000), to: target)
        try AtomicFile.write(Data("short".utf8), to: target, durable: true)
        #expect(try Data(contentsOf: target) == Data("short".utf8))
        #expect(folder.allFiles().count == 1)
    }

    @Test func newFilesArePrivateUnlessAskedOtherwise() throws {
        let folder = try TemporaryDirectory()
        let privateFile = folder.url.appendingPathComponent("cache-entry")
        let sharedFile = folder.url.appendingPathComponent("photo.jpg")
        try AtomicFile.write(Data([1]), to: privateFile)
        try AtomicFile.write(Data([1]), to: sharedFile, permissions: 0o666)
        let mask = try Self.currentUmask()
        #expect(try Self.mode(of: privateFile) == 0o600 & ~mask)
        #expect(try Self.mode(of: sharedFile) == 0o666 & ~mask)
    }

    /// Read from /proc rather than with umask(2), which can only be read by
    /// changing it for every test running in parallel.
    private static func currentUmask() throws -> mode_t {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }

    private static func mode(of file: URL) throws -> mode_t {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        return mode_t(try #require(attributes[.posixPermissions] as? Int))
    }

    @Test func emptyDataMakesAnEmptyFile() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("empty")
        try AtomicFile.write(Data(), to: target)
        #expect(try Data(contentsOf: target).isEmpty)
    }

    @Test func aMissingFolderFailsWithTheFileNameAndTheReason() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("missing/a.jpg")
        let error = try #require(throws: AtomicFileError.self) { try AtomicFile.write(Data([1]), to: target) }
        #expect(error.description == "cannot write a.jpg: No such file or directory")
        #expect(error.localizedDescription == error.description)
        #expect(folder.allFiles().isEmpty)
    }

    @Test func aFailedRenameRemovesTheTemporaryFile() throws {
        let folder = try TemporaryDirectory()
        // A non-empty folder where the file should go: rename(2) refuses to replace it.
        let target = try folder.subdirectory("taken")
        try Data([0]).write(to: target.appendingPathComponent("inside"))
        #expect(throws: AtomicFileError.self) { try AtomicFile.write(Data([1]), to: target) }
        #expect(folder.allFiles().map(\.lastPathComponent) == ["inside"])
    }
}
