// `flickr-bench warm`: Enter on a new search whose thumbnails are all in
// the disk cache -> the page's last thumbnail, the way a person feels it:
// the REST call, reading and checking the cached images, decoding,
// rendering and writing, in the interactive app in a real pty, against an
// in-process sandbox with no added latency.

import Foundation
import Sandbox
import TestSupport

func runWarm(_ arguments: Arguments) async throws {
    let flickr = try arguments.required("--flickr")
    let runs = try arguments.positive("--runs", default: 7)
    let query = arguments.named["--query"] ?? "kittens"
    let home = try TemporaryDirectory(prefix: "flickr-bench-warm")
    let samples = try await SandboxHarness.with(SandboxConfiguration()) { sandbox in
        let app = BenchApp(
            flickr: flickr, home: home, sandbox: sandbox,
            columns: try arguments.positive("--columns", default: 120), rows: try arguments.positive("--rows", default: 50))
        // Fills the disk cache with the page (and the next one, read ahead).
        try await app.searchOnce(query)

        var samples: [Double] = []
        var reached: [Double] = []
        var answered: [Double] = []
        var headers: [Double] = []
        for _ in 0..<runs {
            // No saved session: the app opens on recent photos, with nothing
            // of the query in memory or in the render cache, only on disk.
            try? FileManager.default.removeItem(atPath: home.path + "/state")
            let terminal = try app.launch()
            _ = try terminal.instant(of: "· page 1 of", after: 0)
            try await waitForQuiet(sandbox, reading: terminal, quiet: .milliseconds(500))
            terminal.write(query)
            terminal.pause(.milliseconds(300))
            let logged = try await sandbox.requestLog().count
            let mark = terminal.mark()
            let startedAt = Date().timeIntervalSince1970
            let start = ContinuousClock.now
            terminal.write("\r")
            let end = try terminal.instant(of: lastRowLabel(page: 1), after: mark)
            let header = try terminal.instant(of: "· page 1 of", after: mark)
            samples.append(milliseconds(end - start))
            headers.append(milliseconds(header - start))
            // Where the time goes: when the search reached the sandbox.
            if let search = try await sandbox.requestLog().dropFirst(logged).first(where: { $0.kind == "rest" }) {
                reached.append((search.startedAt - startedAt) * 1_000)
                answered.append(((search.endedAt ?? search.startedAt) - startedAt) * 1_000)
            }
            terminal.write("/quit\r")
            try terminal.waitForExit()
        }
        FileHandle.standardError.write(Data(String(
            format: "warm: after Enter (medians) the search reached the sandbox at %.1f ms, was answered at %.1f ms, the header at %.1f ms\n",
            median(reached), median(answered), median(headers)).utf8))
        return samples
    }
    print(String(format: "warm-enter: median %.1f ms, min %.1f ms, max %.1f ms (%d runs)",
                 median(samples), samples.min() ?? 0, samples.max() ?? 0, samples.count))
}
