import ArgumentParser
import TerminalUI

/// How results are drawn in the interactive app.
struct DisplayOptions: ParsableArguments {
    @Option(help: "Results as a thumbnail grid or a list of titles: grid or list.")
    var layout: FlickrTerminalView.Layout = .grid

    @Option(help: ArgumentHelp(
        "Terminal images: auto, none, symbols, sixels, kitty or iterm. auto asks the terminal at start what it supports (it waits up to 250 ms; set FLICKR_PROBE_TIMEOUT_MS for slow links); none when not a terminal or TERM=dumb.",
        discussion: "Inside tmux, kitty images pass through tmux and show as Unicode placeholders: that needs `set -g allow-passthrough on` in ~/.tmux.conf and kitty 0.28 or later. auto checks both and otherwise draws symbols; sixels need a tmux built with sixel support.",
        valueName: "mode"))
    var images: ImageMode = .auto

    @Option(parsing: .unconditional, help: "Grid columns, 1–8.")
    var columns: Int = 3

    @Option(name: .customLong("live-delay"), parsing: .unconditional, help: ArgumentHelp(
        "Results while typing: search after a pause of this many milliseconds (default 300; Openverse waits at least 800); 0 turns it off (/live on|off at the prompt). Only at an interactive terminal.",
        valueName: "ms"))
    var liveDelay: Int?

    @Flag(name: .customLong("no-links"), help: "Plain titles, owners and URLs: no terminal hyperlinks (OSC 8), even where the terminal follows them.")
    var noLinks = false

    func validate() throws {
        try NumericRange.check("--columns", columns, in: 1...8)
        if let liveDelay { try NumericRange.check("--live-delay", liveDelay, in: 0...10_000) }
    }
}
