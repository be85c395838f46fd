// `flickr-bench enter`: time from Enter to the page header in the
// interactive app, through a real pty, against a sandbox given by URL.

import Foundation
import TestSupport

struct EnterOptions {
    var flickr = ""
    var apiURL = ""
    var runs = 8
}

func parseEnterOptions(_ arguments: ArraySlice<String>) throws(BenchError) -> EnterOptions {
    var options = EnterOptions()
    var rest = arguments
    while let argument = rest.popFirst() {
        guard let value = rest.popFirst() else { throw .usage(usage) }
        switch argument {
        case "--flickr": options.flickr = value
        case "--api-url": options.apiURL = value
        case "--runs":
            guard let runs = Int(value), runs > 0 else { throw .usage(usage) }
            options.runs = runs
        default: throw .usage(usage)
        }
    }
    guard !options.flickr.isEmpty, !options.apiURL.isEmpty else { throw .usage(usage) }
    return options
}

/// Types a query, presses Enter, and waits for "· page 1 of" in the output
/// written after the Enter. Polls every 25 ms, so figures carry that much slack.
func runEnterToHeader(_ options: EnterOptions) async throws {
    let home = try TemporaryDirectory(prefix: "flickr-bench-enter")
    var environment = PTYProcess.baseEnvironment()
    environment["XDG_STATE_HOME"] = home.path + "/state"
    environment["XDG_CACHE_HOME"] = home.path + "/cache"
    let process = try PTYProcess(
        executable: options.flickr,
        arguments: ["--api-url", options.apiURL, "--api-key", "bench", "--images", "none"],
        environment: environment)
    defer { process.terminate() }
    try await process.waitFor(text: "· page 1 of")
    try await process.waitFor(text: "flickr> ")

    let queries = ["kittens", "sunset", "beach", "mountain lake", "red car", "garden", "bridge", "snow"]
    var samples: [Double] = []
    for run in 0..<options.runs {
        let query = queries[run % queries.count]
        try process.write(query)
        try await process.waitFor(text: query)
        let mark = process.mark()
        let start = ContinuousClock.now
        try process.write("\r")
        try await process.waitFor(text: "· page 1 of", after: mark)
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        // The whole page before the next query: with --images none no
        // thumbnail is fetched, so no progress line ends it; output stops.
        var printed = process.mark()
        repeat {
            printed = process.mark()
            try await Task.sleep(for: .milliseconds(200))
        } while process.mark() != printed
    }
    try process.write("/quit\r")
    _ = try await process.waitForExit()
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    print(String(format: "enter-to-header: median %.1f ms, min %.1f ms, max %.1f ms (%d runs)",
                 median, sorted.first ?? 0, sorted.last ?? 0, samples.count))
}
