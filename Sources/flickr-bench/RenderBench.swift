// `flickr-bench render`, `fetch` and `grid`: the render pipeline on its own,
// over thumbnails of the size the grid asks for.

import PhotoCore
import FlickrService
import Networking
import Foundation
import Glibc
import ImageCodecs
import Sandbox
import Services
import TerminalUI

/// A grid page's thumbnail: bytes, render cache key, shape, title.
typealias Thumbnail = GridPageRenderer.Picture

/// The grid the app lays out in a `columns` x `rows` window, in symbols.
func benchLayout(columns: Int, rows: Int, graphics: TerminalGraphics) -> GridLayout {
    GridLayout(terminalColumns: columns, terminalRows: rows, graphics: graphics)
}

/// Downloads the first `count` results for `query` from an in-process
/// sandbox at the size a grid cell of `layout` asks for (as the app chooses it).
func fetchThumbnails(query: String, count: Int, layout: GridLayout, graphics: TerminalGraphics) async throws -> [Thumbnail] {
    let server = try await SandboxServer.start(SandboxConfiguration())
    let network = NetworkManager()
    do {
        let provider = FlickrProvider(
            apiKey: "bench", endpoint: server.restURL, imageHost: server.baseURL, network: network,
            displayName: "sandbox")
        guard let search = SearchQuery(query) else { throw BenchError.noPhotos(query) }
        let page = try await provider.search(search, page: 1, perPage: count)
        guard !page.photos.isEmpty else { throw BenchError.noPhotos(query) }
        let cell = TerminalImageRenderer.sourcePixelsPerCell(for: graphics)
        let need = layout.pixelNeed(cellPixels: cell)
        var thumbnails: [Thumbnail] = []
        for photo in page.photos {
            guard let url = provider.imageURL(for: photo, covering: PixelSize(width: need.width, height: need.height))
            else { continue }
            let response = try await network.get(url)
            thumbnails.append(Thumbnail(
                data: response.body, cacheKey: url.absoluteString, aspectRatio: photo.aspectRatio, title: photo.title))
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

/// CPU time of the process, in ms: during the one-core runs nothing else works.
func processCPUTime() -> Double {
    Double(clock()) * 1_000 / Double(CLOCKS_PER_SEC)
}

func format(_ value: Double) -> String { String(format: "%.1f", value) }

func runRender(_ arguments: Arguments) async throws {
    let columns = try arguments.positive("--columns", default: 120)
    let rows = try arguments.positive("--rows", default: 50)
    let count = try arguments.positive("--count", default: 30)
    let runs = try arguments.positive("--runs", default: 9)
    let query = arguments.named["--query"] ?? "kittens"
    var modes: [ImageMode] = [.symbols, .sixels, .kitty]
    if let names = arguments.named["--modes"] {
        modes = try names.split(separator: ",").map { name throws(BenchError) -> ImageMode in
            guard let mode = ImageMode(rawValue: String(name)), mode != .auto, mode != .none else {
                throw .usage("unknown mode \(name)\n\(usage)")
            }
            return mode
        }
    }
    var configuration = TerminalImageRenderer.Configuration()
    if let work = arguments.named["--work"] {
        guard let factor = Float(work), factor > 0, factor <= 1 else { throw BenchError.usage("--work needs 0…1, not \(work)") }
        configuration.workFactor = factor
    }
    TerminalImageRenderer.setLibraryThreadCount(1)
    for mode in modes {
        let graphics = TerminalGraphics(mode: mode, colors: .truecolor)
        let layout = benchLayout(columns: columns, rows: rows, graphics: graphics)
        let thumbnails = try await fetchThumbnails(query: query, count: count, layout: layout, graphics: graphics)
        var oneCore: [Double] = []
        var page: [Double] = []
        var bytes = 0
        // The first run warms code paths and allocators; it is not counted.
        for run in 0...runs {
            let sequential = TerminalImageRenderer(graphics: graphics, configuration: configuration)
            let start = processCPUTime()
            bytes = 0
            for thumbnail in thumbnails {
                let area = layout.imageSize(aspectRatio: thumbnail.aspectRatio)
                let image = try sequential.render(
                    thumbnail.data, cacheKey: thumbnail.cacheKey, columns: area.columns, rows: area.rows)
                bytes += image.byteCount
            }
            let cpu = processCPUTime() - start
            let parallel = TerminalImageRenderer(graphics: graphics, configuration: configuration)
            let wallStart = wallTime()
            _ = await GridPageRenderer.render(thumbnails, layout: layout, renderer: parallel)
            let wall = wallTime() - wallStart
            if run > 0 {
                oneCore.append(cpu)
                page.append(wall)
            }
        }
        let middle = { (values: [Double]) in format(median(values)) }
        let sizes = thumbnails.map { layout.imageSize(aspectRatio: $0.aspectRatio).columns }.sorted()
        print("render \(mode.rawValue) \(columns)x\(rows): page median \(middle(page)) ms wall on "
              + "\(ProcessInfo.processInfo.activeProcessorCount) cores, one core \(middle(oneCore)) ms cpu "
              + "(\(thumbnails.count) thumbnails, median \(sizes[sizes.count / 2]) columns wide, "
              + "\(bytes / 1024) KB output)")
    }
}

func runFetch(_ arguments: Arguments) async throws {
    let folder = URL(fileURLWithPath: try arguments.required("--out"), isDirectory: true)
    let graphics = TerminalGraphics(mode: .symbols, colors: .truecolor)
    let layout = benchLayout(
        columns: try arguments.positive("--columns", default: 120),
        rows: try arguments.positive("--rows", default: 50), graphics: graphics)
    let thumbnails = try await fetchThumbnails(
        query: arguments.named["--query"] ?? "kittens", count: try arguments.positive("--count", default: 30),
        layout: layout, graphics: graphics)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (index, thumbnail) in thumbnails.enumerated() {
        try thumbnail.data.write(to: folder.appendingPathComponent(String(format: "%02d.jpg", index + 1)))
    }
    let dimensions = thumbnails.compactMap { try? JPEGDecoder.dimensions(of: $0.data) }
    let widths = dimensions.map(\.width).sorted()
    print("fetched \(thumbnails.count) thumbnails to \(folder.path) (median \(widths[widths.count / 2]) px wide)")
}

/// Renders files the way the app renders a page and writes it to stdout;
/// the time from the first byte read to the page written goes to stderr.
func runGrid(_ arguments: Arguments) async throws {
    guard !arguments.positional.isEmpty else { throw BenchError.usage("grid needs JPEG files\n\(usage)") }
    let start = wallTime()
    let graphics = TerminalGraphics(mode: .symbols, colors: .truecolor)
    let layout = benchLayout(
        columns: try arguments.positive("--columns", default: 120),
        rows: try arguments.positive("--rows", default: 50), graphics: graphics)
    var thumbnails: [Thumbnail] = []
    for path in arguments.positional {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let size = try? ImageDecoder.dimensions(of: data)
        thumbnails.append(Thumbnail(
            data: data, cacheKey: path, aspectRatio: size.map { Double($0.width) / Double($0.height) },
            title: URL(fileURLWithPath: path).lastPathComponent))
    }
    TerminalImageRenderer.setLibraryThreadCount(1)
    let text = await GridPageRenderer.render(thumbnails, layout: layout, renderer: TerminalImageRenderer(graphics: graphics))
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
    FileHandle.standardError.write(Data("grid: \(format(wallTime() - start)) ms in process\n".utf8))
}
