// `flickr-bench preheat` and `relaunch`: the interactive app in a real pty
// (`RawTerminal`) against an in-process sandbox, timed to the byte.

import Foundation
import Sandbox
import TestSupport

/// Launches the app for one of these benchmarks.
struct BenchApp {
    let flickr: String
    let home: TemporaryDirectory
    let sandbox: SandboxHarness
    let columns: Int
    let rows: Int

    /// Live search is off unless `extraArguments` set its delay: these
    /// benchmarks time Enter on a query, and a search started by the pause
    /// before Enter would be measured instead (the live bench times that).
    func launch(_ extraArguments: [String] = []) throws -> RawTerminal {
        let live = extraArguments.contains("--live-delay") ? [] : ["--live-delay", "0"]
        var environment = PTYProcess.baseEnvironment()
        environment["HOME"] = home.path
        environment["XDG_STATE_HOME"] = home.path + "/state"
        environment["XDG_CACHE_HOME"] = home.path + "/cache"
        environment["COLORTERM"] = "truecolor"
        return try RawTerminal(
            executable: flickr,
            arguments: ["--api-url", sandbox.restURL.absoluteString, "--api-key", "bench", "--images", "symbols"] + live + extraArguments,
            environment: environment, columns: columns, rows: rows)
    }

    /// One run that searches `query`, draws its page, lets every transfer
    /// end and quits: the disk cache and the saved session then hold it.
    func searchOnce(_ query: String) async throws {
        let first = try launch()
        _ = try first.instant(of: "· page 1 of", after: 0)
        try await waitForQuiet(sandbox, reading: first)
        let mark = first.mark()
        first.write("\(query)\r")
        _ = try first.instant(of: lastRowLabel(page: 1), after: mark)
        try await waitForQuiet(sandbox, reading: first)
        first.write("/quit\r")
        try first.waitForExit()
    }
}

/// Waits until the sandbox has sent nothing for `quiet` and nothing is in
/// flight, reading the app's output meanwhile.
func waitForQuiet(_ sandbox: SandboxHarness, reading terminal: RawTerminal, quiet: Duration = .seconds(1)) async throws {
    var last = try await sandbox.stats()
    var since = ContinuousClock.now
    let deadline = ContinuousClock.now + .seconds(120)
    while ContinuousClock.now < deadline {
        terminal.pause(.milliseconds(100))
        let now = try await sandbox.stats()
        if now != last {
            last = now
            since = ContinuousClock.now
        } else if now.inFlight == 0, ContinuousClock.now - since >= quiet {
            return
        }
    }
    throw BenchError.failed("the sandbox never went quiet (\(last))")
}

/// The label line of a 3-column grid page's last row starts with this number.
func lastRowLabel(page: Int, perPage: Int = 30, columns: Int = 3) -> String {
    let last = page * perPage
    return "\n\(last - (perPage - 1) % columns) "
}

func runPreheat(_ arguments: Arguments) async throws {
    let flickr = try arguments.required("--flickr")
    let runs = try arguments.positive("--runs", default: 5)
    var configuration = SandboxConfiguration()
    configuration.latency = .milliseconds(40)
    let home = try TemporaryDirectory(prefix: "flickr-bench-preheat")
    let samples = try await SandboxHarness.with(configuration) { sandbox in
        let app = BenchApp(
            flickr: flickr, home: home, sandbox: sandbox,
            columns: try arguments.positive("--columns", default: 120), rows: try arguments.positive("--rows", default: 50))
        let terminal = try app.launch()
        _ = try terminal.instant(of: "· page 1 of", after: 0)
        try await waitForQuiet(sandbox, reading: terminal)
        var mark = terminal.mark()
        terminal.write("kittens\r")
        _ = try terminal.instant(of: lastRowLabel(page: 1), after: mark)
        var samples: [Double] = []
        for page in 2...(runs + 1) {
            // The next page's thumbnails are in, and a moment more for their rendering.
            try await waitForQuiet(sandbox, reading: terminal)
            terminal.pause(.milliseconds(500))
            mark = terminal.mark()
            let start = ContinuousClock.now
            terminal.write("\r")
            let end = try terminal.instant(of: lastRowLabel(page: page), after: mark)
            samples.append(milliseconds(end - start))
        }
        terminal.write("/quit\r")
        try terminal.waitForExit()
        return samples
    }
    print(String(format: "preheat-enter: median %.1f ms, min %.1f ms, max %.1f ms (%d pages)",
                 median(samples), samples.min() ?? 0, samples.max() ?? 0, samples.count))
}

func runRelaunch(_ arguments: Arguments) async throws {
    let flickr = try arguments.required("--flickr")
    let runs = try arguments.positive("--runs", default: 5)
    var configuration = SandboxConfiguration()
    configuration.latency = .milliseconds(40)
    let home = try TemporaryDirectory(prefix: "flickr-bench-relaunch")
    let (samples, pageRequests, laterRequests) = try await SandboxHarness.with(configuration) { sandbox in
        let app = BenchApp(
            flickr: flickr, home: home, sandbox: sandbox,
            columns: try arguments.positive("--columns", default: 120), rows: try arguments.positive("--rows", default: 50))
        // The first run searches, fills the disk cache and saves the session.
        try await app.searchOnce("kittens")

        var samples: [Double] = []
        var headers: [Double] = []
        var firstRows: [Double] = []
        var pageRequests = 0
        var laterRequests = 0
        for _ in 0..<runs {
            let before = try await sandbox.requestLog().count
            let start = ContinuousClock.now
            let terminal = try app.launch()
            let header = try terminal.instant(of: "· page 1 of", after: 0)
            let firstRow = try terminal.instant(of: "\n1 ", after: 0)
            let painted = try terminal.instant(of: lastRowLabel(page: 1), after: 0)
            headers.append(milliseconds(header - start))
            firstRows.append(milliseconds(firstRow - start))
            let paintedAt = Date().timeIntervalSince1970
            samples.append(milliseconds(painted - start))
            try await waitForQuiet(sandbox, reading: terminal, quiet: .milliseconds(500))
            let requests = try await sandbox.requestLog().dropFirst(before)
            // Requests for page 2 are the app reading the next page ahead
            // once this one is in; everything else would be for the page.
            let readAhead = requests.filter { $0.kind == "rest" && $0.path.contains("&page=2&") }
            let forThePage = requests.filter { $0.startedAt <= paintedAt && !($0.kind == "rest" && $0.path.contains("&page=2&")) }
            pageRequests = max(pageRequests, forThePage.count)
            laterRequests = max(laterRequests, readAhead.count)
            terminal.write("/quit\r")
            try terminal.waitForExit()
        }
        FileHandle.standardError.write(Data(String(
            format: "relaunch: header at %.1f ms, first row at %.1f ms (medians)\n",
            median(headers), median(firstRows)).utf8))
        return (samples, pageRequests, laterRequests)
    }
    print(String(format: "relaunch-paint: median %.1f ms, min %.1f ms, max %.1f ms (%d runs); "
                 + "requests for the page: %d (reading page 2 ahead: %d)",
                 median(samples), samples.min() ?? 0, samples.max() ?? 0, samples.count, pageRequests, laterRequests))
}
