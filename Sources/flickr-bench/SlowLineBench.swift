// `flickr-bench slowline`: a page of 30 over one shared slow line (the
// sandbox's `--link KBPS` with `--latency`), in the interactive app in a
// real pty: Enter -> page 1's first row drawn, and Enter pressed as soon
// as page 1's header shows -> page 2's header, while page 1 still loads.

import Foundation
import Sandbox
import TestSupport

func runSlowLine(_ arguments: Arguments) async throws {
    let flickr = try arguments.required("--flickr")
    let runs = try arguments.positive("--runs", default: 3)
    var configuration = SandboxConfiguration()
    configuration.linkKBps = try arguments.positive("--link", default: 32)
    configuration.latency = .milliseconds(try arguments.positive("--latency-ms", default: 100))
    let home = try TemporaryDirectory(prefix: "flickr-bench-slowline")
    var firstRows: [Double] = []
    var nextHeaders: [Double] = []
    try await SandboxHarness.with(configuration) { sandbox in
        let app = BenchApp(
            flickr: flickr, home: home, sandbox: sandbox,
            columns: try arguments.positive("--columns", default: 120), rows: try arguments.positive("--rows", default: 50))
        for run in 0..<runs {
            try? FileManager.default.removeItem(atPath: home.path + "/state")
            try? FileManager.default.removeItem(atPath: home.path + "/cache")
            let query = ["kittens", "sunset", "beach"][run % 3]
            // The first row: Enter, then nothing else asked for.
            var terminal = try app.launch(["--per-page", "30"])
            _ = try terminal.instant(of: "· page 1 of", after: 0)
            try await waitForQuiet(sandbox, reading: terminal, quiet: .milliseconds(300))
            var mark = terminal.mark()
            let start = ContinuousClock.now
            terminal.write(query + "\r")
            let firstRow = try terminal.instant(of: "\n\(1) ", after: mark)
            firstRows.append(milliseconds(firstRow - start))
            terminal.write("/quit\r")
            try terminal.waitForExit()

            // The next page asked for as soon as the first's header shows.
            try? FileManager.default.removeItem(atPath: home.path + "/state")
            try? FileManager.default.removeItem(atPath: home.path + "/cache")
            terminal = try app.launch(["--per-page", "30"])
            _ = try terminal.instant(of: "· page 1 of", after: 0)
            try await waitForQuiet(sandbox, reading: terminal, quiet: .milliseconds(300))
            mark = terminal.mark()
            terminal.write(query + "\r")
            let header = try terminal.instant(of: "· page 1 of", after: mark)
            mark = terminal.mark()
            terminal.write("\r")
            let next = try terminal.instant(of: "· page 2 of", after: mark)
            nextHeaders.append(milliseconds(next - header))
            terminal.write("/quit\r")
            try terminal.waitForExit()
        }
    }
    print(String(format: "slowline-first-row: median %.0f ms (runs: %@)", median(firstRows),
                 firstRows.map { String(format: "%.0f", $0) }.joined(separator: " ")))
    print(String(format: "slowline-next-header: median %.0f ms (runs: %@)", median(nextHeaders),
                 nextHeaders.map { String(format: "%.0f", $0) }.joined(separator: " ")))
}
