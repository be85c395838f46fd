import Foundation
import Testing
@testable import TerminalUI

@Suite struct TerminalCapabilitiesTests {
    @Test func realTerminalIsATTY() {
        let capabilities = TerminalCapabilities.detect(
            environment: ["TERM": "xterm-256color"], stdinIsTTY: true, stdoutIsTTY: true)
        #expect(capabilities.isTTY)
        #expect(!capabilities.noColor)
    }

    @Test(arguments: [["TERM": "dumb"], ["TERM": ""], [:]])
    func dumbOrMissingTERMIsNotATTY(environment: [String: String]) {
        #expect(!TerminalCapabilities.detect(environment: environment, stdinIsTTY: true, stdoutIsTTY: true).isTTY)
    }

    @Test func pipedStdinOrStdoutIsNotATTY() {
        let environment = ["TERM": "xterm"]
        #expect(!TerminalCapabilities.detect(environment: environment, stdinIsTTY: false, stdoutIsTTY: true).isTTY)
        #expect(!TerminalCapabilities.detect(environment: environment, stdinIsTTY: true, stdoutIsTTY: false).isTTY)
    }

    @Test func noColorCountsOnlyWhenNonEmpty() {
        #expect(TerminalCapabilities.detect(environment: ["NO_COLOR": "1"], stdinIsTTY: true, stdoutIsTTY: true).noColor)
        #expect(!TerminalCapabilities.detect(environment: ["NO_COLOR": ""], stdinIsTTY: true, stdoutIsTTY: true).noColor)
    }

    @Test func historyLivesUnderXDGStateHome() {
        let url = ReadlineTerminal.defaultHistoryFile(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
        #expect(url?.path == "/s/flickr/history")
    }

    @Test func historyDefaultsToLocalStateUnderHome() {
        #expect(ReadlineTerminal.defaultHistoryFile(environment: ["HOME": "/h"])?.path == "/h/.local/state/flickr/history")
    }

    @Test func relativeXDGStateHomeIsIgnored() {
        let url = ReadlineTerminal.defaultHistoryFile(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"])
        #expect(url?.path == "/h/.local/state/flickr/history")
    }

    @Test func noHomeMeansNoHistoryFile() {
        #expect(ReadlineTerminal.defaultHistoryFile(environment: [:]) == nil)
    }
}
