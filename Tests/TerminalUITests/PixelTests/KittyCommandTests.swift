import Foundation
import Testing
@testable import TerminalUI

@Suite("Kitty graphics commands")
struct KittyCommandTests {
    private static func payload(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
    }

    @Test func aLargePayloadIsChunkedAt4096Base64BytesWithMoreFlags() throws {
        let payload = Self.payload(10_000)
        let chunks = KittyCommand.transmit(
            id: 77, format: .rgb, width: 40, height: 25, payload: payload, compressed: true)
        let commands = chunks.flatMap { ParsedKittyCommand.all(in: $0) }
        #expect(commands.count == 4)  // 13,336 base64 bytes
        for (index, command) in commands.enumerated() {
            #expect(command.payload.utf8.count <= 4096)
            let isLast = index == commands.count - 1
            if !isLast { #expect(command.payload.utf8.count % 4 == 0) }
            #expect(command.keys["m"] == (isLast ? "0" : "1"))
            #expect(command.keys["q"] == "2")
        }
        let first = commands[0]
        #expect(first.keys["a"] == "t")
        #expect(first.keys["i"] == "77")
        #expect(first.keys["f"] == "24")
        #expect(first.keys["s"] == "40")
        #expect(first.keys["v"] == "25")
        #expect(first.keys["o"] == "z")
        // Later chunks carry only m and q, as the protocol requires.
        #expect(commands.dropFirst().allSatisfy { Set($0.keys.keys) == ["m", "q"] })
        let decoded = try #require(Data(base64Encoded: commands.map(\.payload).joined()))
        #expect([UInt8](decoded) == payload)
    }

    @Test func aSmallPayloadIsOneCommandWithMoreZero() {
        let commands = KittyCommand.transmit(
            id: 5, format: .rgb, width: 1, height: 1, payload: [1, 2, 3], compressed: false)
            .flatMap { ParsedKittyCommand.all(in: $0) }
        #expect(commands.count == 1)
        #expect(commands[0].keys["m"] == "0")
        #expect(commands[0].keys["o"] == nil)
        #expect(commands[0].payload == "AQID")
    }

    @Test func aVirtualPlacementTransmitsAndPlacesForPlaceholders() throws {
        let chunks = KittyCommand.transmit(
            id: 9, format: .rgb, width: 2, height: 2, payload: Self.payload(12), compressed: true,
            display: .virtualPlacement(columns: 22, rows: 11))
        let first = try #require(ParsedKittyCommand.all(in: chunks[0]).first)
        #expect(first.keys["a"] == "T")
        #expect(first.keys["U"] == "1")
        #expect(first.keys["c"] == "22")
        #expect(first.keys["r"] == "11")
    }

    @Test func placementRefersToTheIdAndKeepsTheCursor() throws {
        let command = try #require(ParsedKittyCommand.all(in: KittyCommand.place(id: 4242, columns: 22, rows: 11)).first)
        #expect(command.keys == ["a": "p", "i": "4242", "c": "22", "r": "11", "C": "1", "q": "2"])
    }

    @Test func deleteFreesTheImageById() throws {
        let command = try #require(ParsedKittyCommand.all(in: KittyCommand.delete(id: 4242)).first)
        #expect(command.keys["a"] == "d")
        #expect(command.keys["d"] == "I")
        #expect(command.keys["i"] == "4242")
    }

    @Test func tmuxPassthroughDoublesEveryEscape() {
        let wrapped = KittyCommand.tmuxPassthrough("\u{1B}_Ga=d\u{1B}\\")
        #expect(wrapped == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d\u{1B}\u{1B}\\\u{1B}\\")
    }

    @Test func placeholderRowsNumberRowsAndColumnsAndCarryTheIdAsColour() {
        let id: UInt32 = 0x12_34_56
        let rows = KittyPlaceholder.rows(id: id, columns: 3, rows: 2)
        #expect(rows.count == 2)
        let diacritics = KittyPlaceholder.diacritics
        for (row, line) in rows.enumerated() {
            #expect(line.hasPrefix("\u{1B}[38;2;18;52;86m"))
            #expect(line.hasSuffix("\u{1B}[39m"))
            let scalars = Array(line.unicodeScalars)
            let cells = scalars.indices.filter { scalars[$0] == KittyPlaceholder.character }
            #expect(cells.count == 3)
            // The first cell says its row and column 0; the others follow
            // it (see RenderedKittyTests for how the terminal resolves them).
            #expect(scalars[cells[0] + 1] == diacritics[row])
            #expect(scalars[cells[0] + 2] == diacritics[0])
            #expect(cells.dropFirst().allSatisfy { scalars[$0 + 1] == KittyPlaceholder.character || scalars[$0 + 1] == "\u{1B}" })
        }
    }

    @Test func theDiacriticTableIsKittys() {
        let table = KittyPlaceholder.diacritics
        #expect(table.count == 297)
        #expect(table.prefix(3).map(\.value) == [0x305, 0x30D, 0x30E])
        #expect(table.last?.value == 0x1D244)
        #expect(Set(table).count == table.count)
    }

    @Test func placeholdersBeyondTheTableAreCut() {
        let rows = KittyPlaceholder.rows(id: 1, columns: 400, rows: 1)
        #expect(rows[0].unicodeScalars.filter { $0 == KittyPlaceholder.character }.count == 297)
    }
}
