import Foundation
import Testing
@testable import FlickrKit

/// Inputs Scripts/fuzz found that crashed or broke a promise, kept as
/// regressions: each must now fail politely, as a value.
@Suite struct FuzzRegressionTests {
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
}
