// Benchmark driver for Scripts/bench (not part of the product).
//
// `flickr-bench render`: fetches a page of sandbox thumbnails over loopback
// HTTP once, then times decode + render of the whole page, sequentially on
// one thread (libchafa limited to one thread too), in each image mode.

import FlickrKit
import Foundation
import Sandbox
import TerminalUI

struct RenderOptions {
    var terminalColumns = 120
    var terminalRows = 50
    var count = 30
    var runs = 9
    var query = "kittens"
    var modes: [ImageMode] = [.symbols, .sixels, .kitty]
}

enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case noPhotos(String)

    var description: String {
        switch self {
        case .usage(let message): message
        case .noPhotos(let query): "the sandbox has no photos for \"\(query)\""
        }
    }
}

let usage = """
    usage: flickr-bench render [--columns W] [--image-columns N] [--count N] [--runs N] [--query Q]
                              [--modes symbols,sixels,kitty,iterm]
      Times decode + render of a page of sandbox thumbnails (q, 150 px) laid out
      for a W-column terminal (default 120), one core, several runs (min/median).
      --image-columns caps the thumbnail width (default: the grid's own cap).
           flickr-bench enter --flickr PATH --api-url URL [--runs N]
      Times Enter to the page header in the interactive app (real pty, images off).
    """

func parseRenderOptions(_ arguments: ArraySlice<String>) throws(BenchError) -> RenderOptions {
    var options = RenderOptions()
    var iterator = arguments.makeIterator()
    func value(_ name: String) throws(BenchError) -> String {
        guard let value = iterator.next() else { throw .usage("\(name) needs a value\n\(usage)") }
        return value
    }
    func positive(_ name: String) throws(BenchError) -> Int {
        let text = try value(name)
        guard let number = Int(text), number > 0 else { throw .usage("\(name) needs a positive number, not \(text)") }
        return number
    }
    while let argument = iterator.next() {
        switch argument {
        case "--columns": options.terminalColumns = try positive(argument)
        case "--count": options.count = try positive(argument)
        case "--rows": options.terminalRows = try positive(argument)
        case "--runs": options.runs = try positive(argument)
        case "--query": options.query = try value(argument)
        case "--modes":
            let names = try value(argument).split(separator: ",").map(String.init)
            var modes: [ImageMode] = []
            for name in names {
                guard let mode = ImageMode(rawValue: name), mode != .auto, mode != .none else {
                    throw .usage("unknown mode \(name)\n\(usage)")
                }
                modes.append(mode)
            }
            options.modes = modes
        case "-h", "--help": throw .usage(usage)
        default: throw .usage("unknown argument \(argument)\n\(usage)")
        }
    }
    return options
}

/// CPU time of the calling thread, so a busy machine inflates the figure less
/// than wall time (both are printed).
func threadCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
}

func wallTime() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000
}

/// Downloads `count` `q` thumbnails of `query` from an in-process sandbox.
func fetchThumbnails(query: String, count: Int) async throws -> [(key: String, data: Data)] {
    let server = try await SandboxServer.start(SandboxConfiguration())
    let network = NetworkManager()
    do {
        let indices = server.catalog.search(text: query).prefix(count)
        guard !indices.isEmpty else { throw BenchError.noPhotos(query) }
        var thumbnails: [(key: String, data: Data)] = []
        for index in indices {
            let photo = server.catalog.photo(at: index)
            let path = photo.imagePath(.q)
            guard let url = URL(string: path, relativeTo: server.baseURL) else { continue }
            let response = try await network.get(url)
            thumbnails.append((url.absoluteString, response.body))
        }
        await network.shutdown()
        await server.shutdown()
        return thumbnails
    } catch {
        await network.shutdown()
        await server.shutdown()
        throw error
    }
}

struct Measurement {
    var wall: [Double] = []
    var cpu: [Double] = []
    var bytes = 0

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    func format(_ value: Double) -> String { String(format: "%.1f", value) }

    var summary: String {
        "median \(format(Self.median(wall))) ms, min \(format(wall.min() ?? 0)) ms wall; "
            + "median \(format(Self.median(cpu))) ms cpu"
    }
}

/// Decodes and renders every thumbnail with a fresh renderer (cold cache) per run.
func measure(
    _ thumbnails: [(key: String, data: Data)], mode: ImageMode, layout: GridLayout, runs: Int
) throws -> Measurement {
    let graphics = TerminalGraphics(mode: mode, colors: .truecolor)
    var measurement = Measurement()
    for run in 0..<runs {
        let renderer = TerminalImageRenderer(graphics: graphics)
        var bytes = 0
        let startWall = wallTime()
        let startCPU = threadCPUTime()
        for thumbnail in thumbnails {
            let image = try renderer.render(
                thumbnail.data, cacheKey: thumbnail.key,
                columns: layout.imageColumns, rows: layout.imageRows)
            bytes += image.byteCount
        }
        let cpu = threadCPUTime() - startCPU
        let wall = wallTime() - startWall
        // The first run warms code paths and allocators; it is not counted.
        if run > 0 || runs == 1 {
            measurement.wall.append(wall)
            measurement.cpu.append(cpu)
        }
        measurement.bytes = bytes
    }
    return measurement
}

/// Re-showing a page: every image comes from the render cache.
func measureCached(
    _ thumbnails: [(key: String, data: Data)], layout: GridLayout, runs: Int
) throws -> Measurement {
    let renderer = TerminalImageRenderer(graphics: TerminalGraphics(mode: .symbols, colors: .truecolor))
    for thumbnail in thumbnails {
        _ = try renderer.render(
            thumbnail.data, cacheKey: thumbnail.key, columns: layout.imageColumns, rows: layout.imageRows)
    }
    var measurement = Measurement()
    for _ in 0..<runs {
        let startWall = wallTime()
        let startCPU = threadCPUTime()
        for thumbnail in thumbnails {
            _ = try renderer.render(
                thumbnail.data, cacheKey: thumbnail.key, columns: layout.imageColumns, rows: layout.imageRows)
        }
        measurement.cpu.append(threadCPUTime() - startCPU)
        measurement.wall.append(wallTime() - startWall)
    }
    return measurement
}

func runRender(_ options: RenderOptions) async throws {
    let thumbnails = try await fetchThumbnails(query: options.query, count: options.count)
    TerminalImageRenderer.setLibraryThreadCount(1)
    let width = options.terminalColumns
    for mode in options.modes {
        let graphics = TerminalGraphics(mode: mode, colors: .truecolor)
        let layout = GridLayout(
            terminalColumns: width, terminalRows: options.terminalRows, cellAspectRatio: graphics.cellAspectRatio)
        let result = try measure(thumbnails, mode: mode, layout: layout, runs: options.runs)
        print("render \(mode.rawValue) \(width)x: \(result.summary) "
              + "(\(thumbnails.count) thumbnails, \(layout.imageColumns)x\(layout.imageRows) cells each, "
              + "\(result.bytes / 1024) KB output)")
    }
    let layout = GridLayout(terminalColumns: width, terminalRows: options.terminalRows)
    let cached = try measureCached(thumbnails, layout: layout, runs: options.runs)
    print("render symbols \(width)x cached: \(cached.summary) (\(thumbnails.count) thumbnails, render cache hits)")
}

let arguments = CommandLine.arguments.dropFirst()
do {
    switch arguments.first {
    case "render":
        try await runRender(try parseRenderOptions(arguments.dropFirst()))
    case "enter":
        try await runEnterToHeader(try parseEnterOptions(arguments.dropFirst()))
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
