// Benchmark driver for Scripts/bench (not part of the product).
//
//   render    decode + render a page of sandbox thumbnails, one core and all cores
//   fetch     save the thumbnails a grid cell asks for, for other tools to render
//   grid      render JPEG files as flickr's grid page, to stdout
//   enter     Enter -> page header in the interactive app
//   preheat   Enter on a prefetched, pre-rendered page -> its last thumbnail
//   relaunch  launch with a saved session -> its whole page painted
//   validate  the whole-image check's cost per file, beside a full decode
//   warm      Enter on a search whose images are in the disk cache -> its last thumbnail
//   stall     share of healthy thumbnails drawn soon after Enter, 10 % of images stalling
//   live      results while typing: key echo on and off, searches sent, Enter after a live search

import Foundation

enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case noPhotos(String)
    case failed(String)

    var description: String {
        switch self {
        case .usage(let message): message
        case .noPhotos(let query): "the sandbox has no photos for \"\(query)\""
        case .failed(let message): message
        }
    }
}

let usage = """
    usage: flickr-bench render [--columns W] [--rows H] [--count N] [--runs N] [--query Q]
                              [--modes symbols,sixels,kitty,iterm] [--work 0…1]
      Times decode + render of a page of sandbox thumbnails (the size a W x H
      grid asks for) on one core and as the app renders a page (every core).
           flickr-bench fetch --out DIR [--columns W] [--rows H] [--count N] [--query Q]
      Saves those thumbnails as DIR/NN.jpg.
           flickr-bench grid [--columns W] [--rows H] FILE...
      Renders JPEG files as a 3-column grid page (symbols, 24-bit colour) to stdout.
           flickr-bench enter --flickr PATH --api-url URL [--runs N]
      Times Enter to the page header in the interactive app (real pty, images off).
           flickr-bench preheat --flickr PATH [--columns W] [--rows H] [--runs N]
      Times Enter on a prefetched page to its last thumbnail row (real pty, symbols).
           flickr-bench relaunch --flickr PATH [--columns W] [--rows H] [--runs N]
      Times a launch with a saved session to its whole page painted, and counts requests.
           flickr-bench warm --flickr PATH [--columns W] [--rows H] [--runs N] [--query Q]
      Times Enter on a search whose thumbnails are in the disk cache (no latency) to its last thumbnail.
           flickr-bench validate [--runs N] FILE...
      Times the whole-image check (ImageDecoder.validate) of the files, beside a full decode.
           flickr-bench stall --flickr PATH [--columns W] [--rows H] [--runs N] [--window-ms MS]
      Share of a page's healthy thumbnails drawn within MS of Enter while 10 % of images stall.
           flickr-bench live --flickr PATH [--columns W] [--rows H]
      Key-to-echo with live search on and off, searches sent while typing, Enter after a live search.
           flickr-bench slowline --flickr PATH [--link KBPS] [--latency-ms MS] [--columns W] [--rows H] [--runs N]
      Over one shared slow line: Enter -> first row drawn; page 1's header -> page 2's header (Enter at once).
           flickr-bench bytes [--columns W] [--rows H] [--count N] [--query Q] [--modes symbols,kitty,sixels] [--flickr PATH]
      Bytes of a page per mode as the grid renders it, and (with --flickr) as the app writes it to a pty.
    """

/// The `--name value` pairs after a subcommand, with the rest as positional arguments.
struct Arguments {
    var named: [String: String] = [:]
    var positional: [String] = []

    init(_ arguments: ArraySlice<String>, flags: Set<String>) throws(BenchError) {
        var rest = arguments
        while let argument = rest.popFirst() {
            if argument == "-h" || argument == "--help" { throw .usage(usage) }
            if argument.hasPrefix("--") {
                guard flags.contains(argument) else { throw .usage("unknown argument \(argument)\n\(usage)") }
                guard let value = rest.popFirst() else { throw .usage("\(argument) needs a value\n\(usage)") }
                named[argument] = value
            } else {
                positional.append(argument)
            }
        }
    }

    func positive(_ name: String, default value: Int) throws(BenchError) -> Int {
        guard let text = named[name] else { return value }
        guard let number = Int(text), number > 0 else { throw .usage("\(name) needs a positive number, not \(text)") }
        return number
    }

    func required(_ name: String) throws(BenchError) -> String {
        guard let value = named[name], !value.isEmpty else { throw .usage("\(name) is required\n\(usage)") }
        return value
    }
}

func wallTime() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

let arguments = CommandLine.arguments.dropFirst()
do {
    let rest = arguments.dropFirst()
    switch arguments.first {
    case "render":
        try await runRender(Arguments(rest, flags: ["--columns", "--rows", "--count", "--runs", "--query", "--modes", "--work"]))
    case "fetch":
        try await runFetch(Arguments(rest, flags: ["--out", "--columns", "--rows", "--count", "--query"]))
    case "grid":
        try await runGrid(Arguments(rest, flags: ["--columns", "--rows"]))
    case "enter":
        try await runEnterToHeader(try parseEnterOptions(rest))
    case "preheat":
        try await runPreheat(Arguments(rest, flags: ["--flickr", "--columns", "--rows", "--runs"]))
    case "relaunch":
        try await runRelaunch(Arguments(rest, flags: ["--flickr", "--columns", "--rows", "--runs"]))
    case "validate":
        try runValidate(Arguments(rest, flags: ["--runs"]))
    case "warm":
        try await runWarm(Arguments(rest, flags: ["--flickr", "--columns", "--rows", "--runs", "--query"]))
    case "stall":
        try await runStall(Arguments(rest, flags: ["--flickr", "--columns", "--rows", "--runs", "--window-ms"]))
    case "live":
        try await runLive(Arguments(rest, flags: ["--flickr", "--columns", "--rows"]))
    case "slowline":
        try await runSlowLine(Arguments(rest, flags: ["--flickr", "--link", "--latency-ms", "--columns", "--rows", "--runs"]))
    case "bytes":
        try await runBytes(Arguments(rest, flags: ["--columns", "--rows", "--count", "--query", "--modes", "--flickr"]))
    case "-h", "--help":
        print(usage)
    default:
        throw BenchError.usage(usage)
    }
} catch let error as BenchError {
    FileHandle.standardError.write(Data("flickr-bench: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("flickr-bench: \(error)\n".utf8))
    exit(1)
}
