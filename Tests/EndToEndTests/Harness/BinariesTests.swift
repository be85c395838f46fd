import Foundation
import Testing
import TestSupport

@Suite("Binaries and temporary directories")
struct BinariesTests {
    @Test func flickrIsFoundNextToTheTestBundle() throws {
        let path = try Binaries.flickr
        #expect(path.hasSuffix("/flickr"))
        #expect(FileManager.default.isExecutableFile(atPath: path))
    }

    @Test func missingProductNamesWhereItLooked() {
        #expect(throws: BinaryNotFound.self) { _ = try Binaries.product(named: "no-such-product") }
    }

    @Test func temporaryDirectoryIsRemovedWithItsContents() throws {
        var directory: TemporaryDirectory? = try TemporaryDirectory()
        let path = try #require(directory).path
        try Data("x".utf8).write(to: try #require(directory).subdirectory("a").appendingPathComponent("f"))
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(directory?.allFiles().count == 1)
        directory = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
