import Testing
@testable import TerminalUI

@Suite("TerminalGraphics.detect")
struct TerminalGraphicsTests {
    private func detect(
        _ environment: [String: String], requested: ImageMode = .auto, isTTY: Bool = true
    ) -> TerminalGraphics {
        TerminalGraphics.detect(requested: requested, environment: environment, isTTY: isTTY)
    }

    @Test func xterm256colorGetsColourSymbols() {
        let graphics = detect(["TERM": "xterm-256color"])
        #expect(graphics.mode == .symbols)
        #expect(graphics.colors >= .indexed256)
        #expect(graphics.showsImages)
    }

    @Test func colortermTruecolorGetsTruecolorSymbols() {
        let graphics = detect(["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        #expect(graphics.mode == .symbols)
        #expect(graphics.colors == .truecolor)
    }

    @Test func linuxConsoleGetsSixteenColours() {
        let graphics = detect(["TERM": "linux"])
        #expect(graphics.mode == .symbols)
        #expect(graphics.colors == .indexed16)
    }

    @Test func kittyTerminalGetsKittyGraphics() {
        #expect(detect(["TERM": "xterm-kitty"]).mode == .kitty)
    }

    @Test func iTermGetsITermGraphics() {
        #expect(detect(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]).mode == .iterm)
    }

    @Test func sixelTerminalGetsSixels() {
        #expect(detect(["TERM": "mlterm"]).mode == .sixels)
    }

    @Test func dumbTerminalGetsNoImages() {
        let graphics = detect(["TERM": "dumb"])
        #expect(graphics == .none)
        #expect(!graphics.showsImages)
        #expect(!graphics.usesEscapeCodes)
    }

    @Test func notATTYGetsNoImagesWhateverWasRequested() {
        #expect(detect(["TERM": "xterm-kitty"], isTTY: false) == .none)
        #expect(detect(["TERM": "xterm-256color"], requested: .symbols, isTTY: false) == .none)
    }

    @Test func missingTERMGetsNoImages() {
        #expect(detect([:]) == .none)
        #expect(detect(["TERM": ""]) == .none)
    }

    @Test func noColorGivesMonochromeSymbolsWithoutEscapeCodes() {
        let graphics = detect(["TERM": "xterm-kitty", "COLORTERM": "truecolor", "NO_COLOR": "1"])
        #expect(graphics.mode == .symbols)
        #expect(graphics.colors == .monochrome)
        #expect(!graphics.usesEscapeCodes)
    }

    @Test func emptyNoColorIsIgnoredAsTheConventionSays() {
        let graphics = detect(["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": ""])
        #expect(graphics.colors == .truecolor)
    }

    @Test func anExplicitPixelModeWinsOverNoColor() {
        let graphics = detect(["TERM": "xterm-256color", "NO_COLOR": "1"], requested: .kitty)
        #expect(graphics.mode == .kitty)
    }

    @Test func explicitModesOverrideDetection() {
        let environment = ["TERM": "xterm-kitty"]
        #expect(detect(environment, requested: .symbols).mode == .symbols)
        #expect(detect(environment, requested: .sixels).mode == .sixels)
        #expect(detect(environment, requested: .iterm).mode == .iterm)
        #expect(detect(environment, requested: .none) == .none)
    }

    @Test func onlyTerminalVariablesAreKept() {
        let graphics = detect([
            "TERM": "xterm-256color", "COLORTERM": "truecolor", "FLICKR_API_KEY": "secret", "HOME": "/root",
        ])
        #expect(graphics.terminalEnvironment == ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
    }

    @Test func resolvedModeIsNeverAuto() {
        for environment in [["TERM": "xterm"], ["TERM": "xterm-kitty"], ["TERM": "vt100"]] {
            #expect(detect(environment).mode != .auto)
        }
        #expect(TerminalGraphics(mode: .auto, colors: .truecolor).mode == .symbols)
    }

    @Test func cellPixelSizeSetsTheAspectRatio() {
        let graphics = TerminalGraphics.detect(
            requested: .kitty, environment: ["TERM": "xterm-kitty"], isTTY: true,
            cellPixelSize: .init(width: 9, height: 18))
        #expect(graphics.cellPixelSize == .init(width: 9, height: 18))
        #expect(graphics.cellAspectRatio == 2.0)
    }
}
