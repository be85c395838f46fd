import Foundation
import Testing
@testable import TerminalUI

@Suite("Kitty images: sent once, shown by id")
struct KittyImagesTests {
    private static func upload(_ id: UInt32) -> KittyUpload {
        KittyUpload(imageID: id, commands: "\u{1B}_Ga=t,i=\(id),q=2,m=0;AAAA\u{1B}\\")
    }

    private static func renderer(insideTmux: Bool = false, sync: Bool = false) -> TerminalImageRenderer {
        TerminalImageRenderer(graphics: TerminalGraphics(
            mode: .kitty, colors: .truecolor,
            synchronizedOutput: SynchronizedOutput(isEnabled: sync), insideTmux: insideTmux))
    }

    @Test func anImageIsSentOnlyTheFirstTimeItIsShown() {
        let registry = KittyImageRegistry(passthrough: false)
        let first = registry.commands(showing: [Self.upload(10), Self.upload(11)])
        #expect(ParsedKittyCommand.all(in: first).map { $0.keys["i"] } == ["10", "11"])
        #expect(registry.commands(showing: [Self.upload(10), Self.upload(11)]).isEmpty)
        #expect(registry.commands(showing: [Self.upload(10), Self.upload(10)]).isEmpty)
    }

    @Test func theLeastRecentlyShownImagesAreDeletedBeyondTheLimit() {
        let registry = KittyImageRegistry(passthrough: false, limit: 2)
        _ = registry.commands(showing: [Self.upload(1), Self.upload(2)])
        _ = registry.commands(showing: [Self.upload(1)])  // 2 is now the oldest
        let output = registry.commands(showing: [Self.upload(3)])
        let commands = ParsedKittyCommand.all(in: output)
        #expect(commands.map { $0.keys["a"] } == ["t", "d"])
        #expect(commands[1].keys["d"] == "I")
        #expect(commands[1].keys["i"] == "2")
        #expect(registry.sentIDs == [1, 3])
        // A deleted image shown again is sent again.
        #expect(ParsedKittyCommand.all(in: registry.commands(showing: [Self.upload(2)])).first?.keys["a"] == "t")
    }

    @Test func releaseDeletesEverySentImageAndForgetsThem() {
        let registry = KittyImageRegistry(passthrough: false)
        _ = registry.commands(showing: [Self.upload(7), Self.upload(8)])
        let deletes = ParsedKittyCommand.all(in: registry.releaseAll())
        #expect(deletes.map { $0.keys["i"] } == ["7", "8"])
        #expect(deletes.allSatisfy { $0.keys["a"] == "d" && $0.keys["d"] == "I" })
        #expect(registry.releaseAll().isEmpty)
        #expect(!registry.commands(showing: [Self.upload(7)]).isEmpty)
    }

    @Test func insideTmuxDeletesGoThroughThePassthrough() {
        let registry = KittyImageRegistry(passthrough: true)
        _ = registry.commands(showing: [Self.upload(7)])
        #expect(registry.releaseAll() == KittyCommand.tmuxPassthrough(KittyCommand.delete(id: 7)))
    }

    @Test func idsAreDistinctAndFitAPlaceholderColour() {
        let registry = KittyImageRegistry(passthrough: false, firstID: 0xFF_FFFE)
        let ids = (0..<4).map { _ in registry.makeID() }
        #expect(ids == [0xFF_FFFE, 0xFF_FFFF, 1, 2])
    }

    @Test func aRedrawOfTheSameRowSendsOnlyPlacements() throws {
        let renderer = Self.renderer()
        let data = try ImageFixtures.jpeg(width: 150, height: 150)
        let images = try (0..<3).map {
            try renderer.render(data, cacheKey: "photo-\($0)", columns: 22, rows: 11)
        }
        let contents = images.map(CellContent.image)
        let placements = images.compactMap(\.escapeSequence).joined()
        let first = renderer.frame(placements, showing: contents)
        let firstCommands = ParsedKittyCommand.all(in: first)
        #expect(firstCommands.filter { $0.keys["a"] == "t" }.count == 3)
        #expect(firstCommands.filter { $0.keys["a"] == "p" }.count == 3)

        // The same pictures again (cached renderings): placements only.
        let again = try (0..<3).map {
            try renderer.render(data, cacheKey: "photo-\($0)", columns: 22, rows: 11)
        }
        let second = renderer.frame(again.compactMap(\.escapeSequence).joined(), showing: again.map(CellContent.image))
        let secondCommands = ParsedKittyCommand.all(in: second)
        #expect(secondCommands.allSatisfy { $0.keys["a"] == "p" })
        #expect(secondCommands.count == 3)
        // Each placement names the id its upload was sent under.
        let uploaded = Set(firstCommands.filter { $0.keys["a"] == "t" }.compactMap { $0.keys["i"] })
        #expect(Set(secondCommands.compactMap { $0.keys["i"] }) == uploaded)
    }

    @Test func aThumbnailIsSentAsAPNGWithinItsBudget() throws {
        let renderer = Self.renderer()
        let image = renderer.render(PixelFixtures.noise(width: 150, height: 150), columns: 22, rows: 11)
        let upload = try #require(image.kittyUpload)
        let commands = ParsedKittyCommand.all(in: upload.commands)
        #expect(commands.first?.keys["f"] == "100")
        #expect(commands.first?.keys["i"] == String(upload.imageID))
        let payload = try #require(Data(base64Encoded: commands.map(\.payload).joined()))
        #expect(payload.count <= KittyEncoder.budget(cells: 22 * 11))
        #expect(PNGReader.read([UInt8](payload)) != nil)
    }

    @Test func insideTmuxImagesArePlaceholderTextAndUploadsUseThePassthrough() throws {
        let renderer = Self.renderer(insideTmux: true)
        let image = renderer.render(PixelFixtures.gradient(width: 150, height: 150), columns: 22, rows: 11)
        let upload = try #require(image.kittyUpload)
        #expect(image.lines.count == image.rows)
        #expect(image.lines.allSatisfy { $0.unicodeScalars.contains(KittyPlaceholder.character) })
        #expect(upload.commands.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_G"))
        let unwrapped = upload.commands
            .replacingOccurrences(of: "\u{1B}Ptmux;", with: "")
            .replacingOccurrences(of: "\u{1B}\u{1B}", with: "\u{1B}")
        let first = try #require(ParsedKittyCommand.all(in: unwrapped).first)
        #expect(first.keys["U"] == "1")
        #expect(first.keys["i"] == String(upload.imageID))
    }

    @Test func framesAreWrappedInSynchronizedOutputOnlyWhenSupported() throws {
        let image = Self.renderer(sync: true).render(PixelFixtures.gradient(width: 40, height: 40), columns: 4, rows: 2)
        let synced = Self.renderer(sync: true).frame("row", showing: [.image(image)])
        #expect(synced.hasSuffix(SynchronizedOutput.begin + "row" + SynchronizedOutput.end))
        let plain = Self.renderer(sync: false).frame("row", showing: [.placeholder("loading")])
        #expect(plain == "row")
    }

    /// kitty 0.26 drops graphics commands that arrive in pieces inside a
    /// synchronized update: the upload goes first, only placements inside.
    @Test func uploadsGoBeforeTheSynchronizedUpdate() throws {
        let renderer = Self.renderer(sync: true)
        let image = renderer.render(PixelFixtures.gradient(width: 40, height: 40), columns: 4, rows: 2)
        let upload = try #require(image.kittyUpload)
        let frame = renderer.frame("row", showing: [.image(image)])
        let begin = try #require(frame.range(of: SynchronizedOutput.begin))
        let uploaded = try #require(frame.range(of: upload.commands))
        #expect(uploaded.upperBound <= begin.lowerBound)
        #expect(!frame[begin.upperBound...].contains("a=t"))
    }

    @Test func synchronizedOutputLeavesEmptyTextAlone() {
        #expect(SynchronizedOutput(isEnabled: true).wrap("").isEmpty)
        #expect(SynchronizedOutput(isEnabled: true).wrap("x") == "\u{1B}[?2026hx\u{1B}[?2026l")
        #expect(SynchronizedOutput.disabled.wrap("x") == "x")
    }
}
