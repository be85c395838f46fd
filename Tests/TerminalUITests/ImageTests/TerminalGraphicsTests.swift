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
        let none = detect(environment, requested: .none)
        #expect(none.mode == .none && !none.usesEscapeCodes)
        // Links do not depend on pictures: kitty follows them either way.
        #expect(none.hyperlinks)
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

@Suite("TerminalGraphics.detect with the terminal's answers")
struct TerminalGraphicsProbeTests {
    private static func answers(
        kitty: Bool = false, placeholders: Bool = false, attributes: [Int] = [62], sync: Bool = false
    ) -> TerminalProbeResult {
        var result = TerminalProbeResult()
        result.answered = true
        result.kittyGraphics = kitty
        result.kittyPlaceholders = placeholders
        result.deviceAttributes = attributes
        result.synchronizedOutput = sync
        return result
    }

    @Test func aKittyAnswerPicksKittyWhateverTERMSays() {
        let graphics = TerminalGraphics.detect(
            requested: .auto, environment: ["TERM": "xterm-256color"], isTTY: true, probe: Self.answers(kitty: true))
        #expect(graphics.mode == .kitty)
        #expect(!graphics.usesKittyPlaceholders)
    }

    @Test func aTerminalThatAnsweredWithoutKittyIsNotTakenForKitty() {
        let graphics = TerminalGraphics.detect(
            requested: .auto, environment: ["TERM": "xterm-kitty"], isTTY: true, probe: Self.answers())
        #expect(graphics.mode == .symbols)
    }

    @Test func sixelAttributePicksSixels() {
        let graphics = TerminalGraphics.detect(
            requested: .auto, environment: ["TERM": "xterm-256color"], isTTY: true,
            probe: Self.answers(attributes: [62, 4, 22]))
        #expect(graphics.mode == .sixels)
    }

    @Test func aProbeThatGaveUpLeavesDetectionToTheEnvironment() {
        let graphics = TerminalGraphics.detect(
            requested: .auto, environment: ["TERM": "xterm-kitty"], isTTY: true, probe: TerminalProbeResult())
        #expect(graphics.mode == .kitty)
        #expect(graphics.synchronizedOutput == .disabled)
    }

    @Test func insideTmuxWithoutSixelSupportSixelsFallBackToSymbols() {
        let tmux = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        #expect(TerminalGraphics.detect(requested: .sixels, environment: tmux, isTTY: true, probe: Self.answers()).mode == .symbols)
        #expect(TerminalGraphics.detect(
            requested: .sixels, environment: tmux, isTTY: true, probe: Self.answers(attributes: [1, 4])).mode == .sixels)
    }

    @Test func insideTmuxKittyUsesPlaceholders() {
        let tmux = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let graphics = TerminalGraphics.detect(
            requested: .auto, environment: tmux, isTTY: true, probe: Self.answers(kitty: true, placeholders: true))
        #expect(graphics.mode == .kitty)
        #expect(graphics.usesKittyPlaceholders)
        #expect(graphics.notice == nil)
    }

    /// What kitty 0.26.5 says inside tmux with passthrough on: the plain
    /// graphics query answered OK, the one carrying `U=1` not at all.
    static func kittyWithoutPlaceholdersThroughTmux() -> TerminalProbeResult {
        var parser = TerminalProbeParser(kittyQueryID: TerminalProbe.kittyQueryID)
        parser.feed(Array("\u{1B}[?1;2c\u{1B}_Gi=\(TerminalProbe.kittyQueryID);OK\u{1B}\\".utf8))
        var result = parser.result
        result.insideTmux = true
        return result
    }

    @Test func insideTmuxAKittyWithoutPlaceholdersIsNotChosen() {
        let tmux = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let probe = Self.kittyWithoutPlaceholdersThroughTmux()
        #expect(probe.kittyGraphics)
        let graphics = TerminalGraphics.detect(requested: .auto, environment: tmux, isTTY: true, probe: probe)
        #expect(graphics.mode == .symbols)
        #expect(!graphics.usesKittyPlaceholders)
    }

    @Test func kittyForcedInsideTmuxWithoutPassthroughSaysHowToEnableIt() throws {
        let tmux = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        // tmux answers DA1 itself; nothing comes back through a closed passthrough.
        let forced = TerminalGraphics.detect(requested: .kitty, environment: tmux, isTTY: true, probe: Self.answers())
        #expect(forced.mode == .kitty)
        let notice = try #require(forced.notice)
        #expect(notice.contains("set -g allow-passthrough on"))
        let oldKitty = TerminalGraphics.detect(
            requested: .kitty, environment: tmux, isTTY: true, probe: Self.kittyWithoutPlaceholdersThroughTmux())
        #expect(oldKitty.notice?.contains("0.28") == true)
        // Outside tmux nothing needs saying.
        #expect(TerminalGraphics.detect(
            requested: .kitty, environment: ["TERM": "xterm-kitty"], isTTY: true, probe: Self.answers()).notice == nil)
    }

    @Test func synchronizedOutputIsSkippedForAKittyKnownToMishandleIt() {
        func sync(_ name: String?) -> Bool {
            var answers = Self.answers(kitty: true, sync: true)
            answers.terminalName = name
            return TerminalGraphics.detect(
                requested: .auto, environment: ["TERM": "xterm-kitty"], isTTY: true, probe: answers
            ).synchronizedOutput.isEnabled
        }
        #expect(!sync("kitty(0.26.5)"))
        #expect(sync("kitty(0.35.2)"))
        #expect(sync("XTerm(379)"))
        #expect(sync(nil))
    }

    @Test func theProbedCellSizeAndSynchronizedOutputAreUsed() {
        var answers = Self.answers(sync: true)
        answers.cellPixelSize = .init(width: 9, height: 18)
        let graphics = TerminalGraphics.detect(
            requested: .auto, environment: ["TERM": "xterm-256color"], isTTY: true,
            cellPixelSize: .init(width: 7, height: 14), probe: answers)
        #expect(graphics.cellPixelSize == .init(width: 9, height: 18))
        #expect(graphics.synchronizedOutput.isEnabled)
    }
}
