// `flickr-bench bytes`: what a page of thumbnails costs on the wire, per
// image mode. Over ssh at 1 Mbit/s every 125 KB is a second, so these bytes
// are as much a part of "fast" as the render time.
//
// Two counts per mode:
//   renderer  the page as the grid renders it (GridPageRenderer over the
//             same thumbnails as `render`), plus in kitty mode the image
//             data the terminal must receive first: the images alone;
//   app       what the interactive app writes to a pty from Enter until it
//             falls quiet (with --flickr): header, labels and prompt too.
// Symbols are counted twice: for a terminal that carries out REP (xterm,
// kitty, foot, WezTerm, tmux, VTE: the app then writes runs once) and, as
// "symbols-norep", for one that does not.
// With FLICKR_BENCH_BYTES_DUMP=PREFIX set, the bytes counted are also
// written to PREFIX-renderer-MODE and PREFIX-MODE, to see what they are.

import Foundation
import Sandbox
import TerminalUI
import TestSupport

func runBytes(_ arguments: Arguments) async throws {
    let columns = try arguments.positive("--columns", default: 120)
    let rows = try arguments.positive("--rows", default: 50)
    let count = try arguments.positive("--count", default: 30)
    let query = arguments.named["--query"] ?? "kittens"
    var modes: [ImageMode] = [.symbols, .kitty, .sixels]
    if let names = arguments.named["--modes"] {
        modes = try names.split(separator: ",").map { name throws(BenchError) -> ImageMode in
            guard let mode = ImageMode(rawValue: String(name)), mode.isPixelMode || mode == .symbols else {
                throw .usage("unknown mode \(name)\n\(usage)")
            }
            return mode
        }
    }
    let variants = modes.flatMap { mode in
        mode == .symbols ? [(name: "symbols", mode: mode, repeats: true), ("symbols-norep", mode, false)]
            : [(name: mode.rawValue, mode: mode, repeats: false)]
    }
    TerminalImageRenderer.setLibraryThreadCount(1)
    for (name, mode, repeats) in variants {
        let graphics = TerminalGraphics(mode: mode, colors: .truecolor, repeatsCharacters: repeats)
        let layout = benchLayout(columns: columns, rows: rows, graphics: graphics)
        let thumbnails = try await fetchThumbnails(query: query, count: count, layout: layout, graphics: graphics)
        let renderer = TerminalImageRenderer(graphics: graphics)
        let page = await GridPageRenderer.render(thumbnails, layout: layout, renderer: renderer)
        // The kitty image data travels once, before the placements that show it.
        let shown = thumbnails.compactMap { thumbnail -> CellContent? in
            let area = layout.imageSize(aspectRatio: thumbnail.aspectRatio)
            return renderer.cachedImage(cacheKey: thumbnail.cacheKey, columns: area.columns, rows: area.rows)
                .map(CellContent.image)
        }
        let uploadText = renderer.uploads(for: shown)
        let uploads = uploadText.utf8.count
        if let dump = ProcessInfo.processInfo.environment["FLICKR_BENCH_BYTES_DUMP"] {
            try Data((uploadText + page).utf8).write(to: URL(fileURLWithPath: dump + "-renderer-" + name))
        }
        let total = page.utf8.count + 1 + uploads
        print("bytes-renderer \(name) \(columns)x\(rows): \(format(Double(total) / 1024)) KiB "
              + "(\(total) bytes, \(thumbnails.count) thumbnails; image data \(uploads), page text \(page.utf8.count + 1))")
    }
    guard let flickr = arguments.named["--flickr"] else { return }
    for (name, mode, repeats) in variants {
        let total = try await appBytes(
            flickr: flickr, mode: mode, repeats: repeats, query: query, columns: columns, rows: rows)
        print("bytes-app \(name) \(columns)x\(rows): \(format(Double(total) / 1024)) KiB "
              + "(\(total) bytes written to the pty from Enter until quiet, page 1 of \"\(query)\")")
    }
}

/// Bytes the app writes after Enter on `query` until it falls quiet, on a
/// second search of the same query (thumbnails in the disk cache), so what
/// is counted is the page and not progress lines that depend on timing.
private func appBytes(
    flickr: String, mode: ImageMode, repeats: Bool, query: String, columns: Int, rows: Int
) async throws -> Int {
    let home = try TemporaryDirectory(prefix: "flickr-bench-bytes")
    return try await SandboxHarness.with(SandboxConfiguration()) { sandbox in
        func launch() throws -> RawTerminal {
            var environment = PTYProcess.baseEnvironment()
            environment["HOME"] = home.path
            environment["XDG_STATE_HOME"] = home.path + "/state"
            environment["XDG_CACHE_HOME"] = home.path + "/cache"
            environment["COLORTERM"] = "truecolor"
            // The bench's pty answers no XTVERSION; a VTE terminal (GNOME
            // Terminal) is one the app knows to carry out REP from its variable.
            if repeats { environment["VTE_VERSION"] = "7200" }
            return try RawTerminal(
                executable: flickr,
                arguments: ["--api-url", sandbox.restURL.absoluteString, "--api-key", "bench",
                            "--images", mode.rawValue, "--live-delay", "0"],
                environment: environment, columns: columns, rows: rows)
        }
        var bytes = 0
        for run in 0..<2 {
            if run > 0 { try? FileManager.default.removeItem(atPath: home.path + "/state") }
            let terminal = try launch()
            _ = try terminal.instant(of: "· page 1 of", after: 0)
            try await waitForQuiet(sandbox, reading: terminal, quiet: .milliseconds(500))
            terminal.write(query)
            terminal.pause(.milliseconds(300))
            let mark = terminal.mark()
            terminal.write("\r")
            _ = try terminal.instant(of: lastRowLabel(page: 1), after: mark)
            try await waitForQuiet(sandbox, reading: terminal, quiet: .milliseconds(500))
            bytes = terminal.mark() - mark
            if let dump = ProcessInfo.processInfo.environment["FLICKR_BENCH_BYTES_DUMP"] {
                try Data(terminal.bytes[mark...]).write(to: URL(fileURLWithPath: dump + "-" + mode.rawValue + (repeats || mode != .symbols ? "" : "-norep")))
            }
            terminal.write("/quit\r")
            try terminal.waitForExit()
        }
        return bytes
    }
}
