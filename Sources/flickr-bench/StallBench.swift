// `flickr-bench stall`: how many of a page's healthy thumbnails are drawn
// within 2 s of Enter when 10 % of image responses stall after their
// headers, in the interactive app (real pty, symbols) at 40 ms latency.

import Foundation
import Sandbox
import TestSupport

/// Reads the app's output until the sandbox's request and byte counters
/// have not moved for `quiet` (stalled transfers stay in flight for good,
/// so "nothing in flight" never comes).
func waitForSettledCounters(_ sandbox: SandboxHarness, reading terminal: RawTerminal, quiet: Duration = .seconds(1)) async throws {
    var last = try await sandbox.stats()
    var since = ContinuousClock.now
    let deadline = ContinuousClock.now + .seconds(120)
    while ContinuousClock.now < deadline {
        terminal.pause(.milliseconds(100))
        let now = try await sandbox.stats()
        if now.imageRequests != last.imageRequests || now.imageBytes != last.imageBytes || now.restRequests != last.restRequests {
            last = now
            since = ContinuousClock.now
        } else if ContinuousClock.now - since >= quiet {
            return
        }
    }
    throw BenchError.failed("the sandbox never settled (\(last))")
}

/// Assumes the 3-column grid of a 120-column terminal, 30 results a page.
func runStall(_ arguments: Arguments) async throws {
    let flickr = try arguments.required("--flickr")
    let runs = try arguments.positive("--runs", default: 3)
    let window = Duration.milliseconds(try arguments.positive("--window-ms", default: 2_000))
    var configuration = SandboxConfiguration()
    configuration.latency = .milliseconds(40)
    configuration.faults.rate = 0.1
    configuration.faults.kind = .stall
    configuration.faults.scope = .images
    let home = try TemporaryDirectory(prefix: "flickr-bench-stall")
    let queries = ["kittens", "sunset", "beach", "mountain lake", "red car", "garden"]
    let shares = try await SandboxHarness.with(configuration) { sandbox in
        let app = BenchApp(
            flickr: flickr, home: home, sandbox: sandbox,
            columns: try arguments.positive("--columns", default: 120), rows: try arguments.positive("--rows", default: 50))
        let terminal = try app.launch()
        _ = try terminal.instant(of: "· page 1 of", after: 0)
        try await waitForSettledCounters(sandbox, reading: terminal)
        var shares: [(drawn: Int, healthy: Int)] = []
        for run in 0..<runs {
            let before = try await sandbox.requestLog().count
            let query = queries[run % queries.count]
            terminal.write(query)
            terminal.pause(.milliseconds(300))
            let mark = terminal.mark()
            terminal.write("\r")
            terminal.pause(window)
            let output = terminal.bytes[mark...]
            // A row is drawn with its label line, which starts with its
            // first cell's number ("\n1 title   2 title   3 title").
            let drawnRows = Set(stride(from: 0, to: 30, by: 3).filter { output.firstRange(of: Array("\n\($0 + 1) ".utf8)) != nil })
            try await waitForSettledCounters(sandbox, reading: terminal)
            // Which of the page's photos stalled: their image requests are still open.
            let open = Set(try await sandbox.requestLog().dropFirst(before)
                .filter { $0.kind == "image" && $0.endedAt == nil }
                .map { String($0.path.prefix { $0 != "?" }) })
            let results = sandbox.catalog.search(text: query, sort: .relevance).prefix(30)
            let stalledCells = Set(results.enumerated().compactMap { position, index in
                SandboxImageSize.allCases.contains { open.contains(sandbox.catalog.photo(at: index).imagePath($0)) } ? position : nil
            })
            let healthyDrawn = (0..<results.count).filter { drawnRows.contains($0 / 3 * 3) && !stalledCells.contains($0) }.count
            shares.append((healthyDrawn, results.count - stalledCells.count))
            let labelled = drawnRows.count * 3
            let stalledPhotos = stalledCells.count
            FileHandle.standardError.write(Data("stall run \(run + 1): \(labelled) of 30 cells drawn, \(stalledPhotos) stalled\n".utf8))
        }
        terminal.write("/quit\r")
        try? terminal.waitForExit()
        return shares
    }
    let drawn = shares.map(\.drawn).reduce(0, +)
    let healthy = shares.map(\.healthy).reduce(0, +)
    let percent = healthy > 0 ? Double(drawn) * 100 / Double(healthy) : 0
    print(String(format: "stall-drawn: %.1f %% of healthy thumbnails drawn within %d ms (%d of %d over %d pages)",
                 percent, Int(milliseconds(window)), drawn, healthy, shares.count))
}
