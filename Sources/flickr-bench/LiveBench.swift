// `flickr-bench live`: results while typing, in the interactive app in a
// real pty against an in-process sandbox with 40 ms latency.
//
//   keys     key-to-echo latency, live search on and off, over the same
//            keys at 8 keys/s: 10 rounds of a 20-character query typed with
//            one 500 ms pause after its 10th key and one after its last;
//   requests searches those rounds sent, per round (expected: 2, one for
//            the paused text, one for the final text);
//   enter    Enter after a completed live search -> the page header and the
//            first row painted, and the searches Enter itself sent.

import Foundation
import Sandbox
import TestSupport

private let rounds = ["kittens in the snow ", "sunset over the sea ", "beach with red boats", "mountain lake pines ",
                      "garden after a rain ", "bridge in the fog at", "old red car parked  ", "snow on the bridge  ",
                      "kittens asleep warm ", "autumn food market  "]

func runLive(_ arguments: Arguments) async throws {
    let flickr = try arguments.required("--flickr")
    var configuration = SandboxConfiguration()
    configuration.latency = .milliseconds(40)
    let home = try TemporaryDirectory(prefix: "flickr-bench-live")
    try await SandboxHarness.with(configuration) { sandbox in
        let app = BenchApp(
            flickr: flickr, home: home, sandbox: sandbox,
            columns: try arguments.positive("--columns", default: 120), rows: try arguments.positive("--rows", default: 50))
        let off = try await typeRounds(app, live: false)
        let on = try await typeRounds(app, live: true)
        let p99 = { (samples: [Double]) in samples.sorted()[min(samples.count - 1, Int(Double(samples.count) * 0.99))] }
        print(String(format: "live-keys: on median %.2f ms p99 %.2f ms · off median %.2f ms p99 %.2f ms · on/off %.2f (median) %.2f (p99), %d keys each",
                     median(on.samples), p99(on.samples), median(off.samples), p99(off.samples),
                     median(on.samples) / max(0.001, median(off.samples)), p99(on.samples) / max(0.001, p99(off.samples)),
                     on.samples.count))
        print(String(format: "live-requests: %.1f searches per 20-character query with one 500 ms pause (%d in %d rounds; live off: %d)",
                     Double(on.searches) / Double(rounds.count), on.searches, rounds.count, off.searches))
        try await enterAfterLive(app, sandbox: sandbox)
    }
}

/// Types every round at 8 keys/s and returns each key's echo time and the
/// searches sent meanwhile.
private func typeRounds(_ app: BenchApp, live: Bool) async throws -> (samples: [Double], searches: Int) {
    try? FileManager.default.removeItem(atPath: app.home.path + "/state")
    let terminal = try app.launch(["--layout", "grid"] + (live ? ["--live-delay", "300"] : ["--live-delay", "0"]))
    _ = try terminal.instant(of: "· page 1 of", after: 0)
    try await waitForQuiet(app.sandbox, reading: terminal, quiet: .milliseconds(500))
    let before = try await searchCount(app.sandbox)
    var samples: [Double] = []
    for round in rounds {
        for (index, key) in round.enumerated() {
            let mark = terminal.mark()
            let start = ContinuousClock.now
            terminal.write(String(key))
            samples.append(milliseconds(try terminal.echoInstant(of: key, after: mark) - start))
            terminal.pause(index == 9 || index == round.count - 1 ? .milliseconds(500) : .milliseconds(125))
        }
        terminal.write("\u{15}")
        terminal.pause(.milliseconds(125))
    }
    let searches = try await searchCount(app.sandbox) - before
    terminal.write("\u{15}/quit\r")
    try terminal.waitForExit()
    return (samples, searches)
}

/// Enter after the live line showed what it found and the first row came
/// in: the header and the first row, and how many page-1 searches Enter sent.
private func enterAfterLive(_ app: BenchApp, sandbox: SandboxHarness) async throws {
    try? FileManager.default.removeItem(atPath: app.home.path + "/state")
    let terminal = try app.launch(["--layout", "grid", "--live-delay", "300"])
    _ = try terminal.instant(of: "· page 1 of", after: 0)
    try await waitForQuiet(sandbox, reading: terminal, quiet: .milliseconds(500))
    var headers: [Double] = []
    var firstRows: [Double] = []
    var enterSearches = 0
    for query in ["kittens", "sunset", "beach", "garden", "bridge"] {
        var mark = terminal.mark()
        terminal.write(query)
        _ = try terminal.instant(of: "≈ ", after: mark)
        try await waitForQuiet(sandbox, reading: terminal, quiet: .milliseconds(500))
        let before = try await searchCount(sandbox, page: 1)
        mark = terminal.mark()
        let start = ContinuousClock.now
        terminal.write("\r")
        let header = try terminal.instant(of: "· page 1 of", after: mark)
        let firstRow = try terminal.instant(of: "\n1 ", after: mark)
        headers.append(milliseconds(header - start))
        firstRows.append(milliseconds(firstRow - start))
        try await waitForQuiet(sandbox, reading: terminal, quiet: .milliseconds(500))
        enterSearches += try await searchCount(sandbox, page: 1) - before
    }
    terminal.write("/quit\r")
    try terminal.waitForExit()
    print(String(format: "live-enter: header median %.1f ms, first row median %.1f ms (max %.1f ms), page-1 searches sent by Enter: %d (%d runs)",
                 median(headers), median(firstRows), firstRows.max() ?? 0, enterSearches, headers.count))
}

/// Flickr searches the sandbox has answered or is answering (`page`: only those for that page).
private func searchCount(_ sandbox: SandboxHarness, page: Int? = nil) async throws -> Int {
    try await sandbox.requestLog().filter { record in
        record.kind == "rest" && record.path.contains("method=flickr.photos.search")
            && (page.map { record.path.contains("&page=\($0)&") } ?? true)
    }.count
}

extension RawTerminal {
    /// When the echo of `key` arrived: its first occurrence after `mark`
    /// that starts the output or follows a cursor restore (`ESC 8`, the end
    /// of the live line's erase or redraw), so a title on the live line
    /// holding the same letter does not count.
    func echoInstant(of key: Character, after mark: Int, timeout: Duration = .seconds(30)) throws -> ContinuousClock.Instant {
        let target = Array(String(key).utf8)
        let restore: [UInt8] = [0x1B, 0x38]
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var index = mark
            while index + target.count <= bytes.count {
                let isEcho = bytes[index..<(index + target.count)].elementsEqual(target)
                    && (index == mark || (index >= 2 && bytes[(index - 2)..<index].elementsEqual(restore)))
                if isEcho {
                    let end = index + target.count
                    return readInstant(reaching: end)
                }
                index += 1
            }
            drain(waitingUpTo: 1)
        }
        throw BenchError.failed("no echo of \(String(key).debugDescription)")
    }
}
