import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// Thumbnails fill the window's width, keep each photo's shape, and
    /// take the space that shape reserves whether or not bytes ever arrive.
    /// Expected sizes are worked out here from the catalog's own photo
    /// dimensions, independently of the app's layout code.
    @Suite("Thumbnail layout")
    struct ThumbnailLayout {
        struct Window: Sendable, CustomTestStringConvertible {
            var columns: Int
            var rows: Int
            var minimumMedianWidth: Int
            var testDescription: String { "\(columns)x\(rows)" }
        }

        @Test(arguments: [
            Window(columns: 120, rows: 50, minimumMedianWidth: 30),
            Window(columns: 200, rows: 60, minimumMedianWidth: 45),
        ])
        func areasAreReservedFromTheAspectRatioAndFillTheWidthBeforeAnyBytes(window: Window) async throws {
            // Every image request stalls: no picture byte ever arrives, so
            // each cell shows the frame of the area its photo reserved.
            var configuration = sandboxConfiguration(latency: .milliseconds(5))
            configuration.faults.rate = 1
            configuration.faults.kind = .stall
            configuration.faults.scope = .images
            try await SandboxHarness.with(configuration) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--images", "symbols"], columns: window.columns, rows: window.rows)
                try await process.waitForFirstListing()
                var mark = process.mark()
                try await process.enter("/cancel")
                try await process.waitFor(text: "Cancelled", after: mark)

                mark = process.mark()
                try await process.enter("kittens")
                let header = try await process.waitForHeader(page: 1, after: mark)
                try await process.enter("/cancel")
                let frames = try await waitForFrames(30, below: header, in: process)

                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance).prefix(30).map {
                    sandbox.catalog.photo(at: $0)
                }
                for (index, (frame, photo)) in zip(frames, expected).enumerated() {
                    let area = reservedArea(photo, window: window)
                    #expect(abs(frame.columns - area.columns) <= 1 && abs(frame.rows - area.rows) <= 1,
                            "result \(index + 1): frame \(frame.columns)x\(frame.rows), photo \(photo.originalWidth)x\(photo.originalHeight) reserves \(area.columns)x\(area.rows)")
                    #expect(frame.rows + 1 + 2 <= window.rows, "a row and its label fit the window")
                }
                let widths = frames.map(\.columns).sorted()
                #expect(widths[widths.count / 2] >= window.minimumMedianWidth, "widths \(widths)")
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func loadedPicturesOccupyExactlyTheReservedRows() async throws {
            let window = Window(columns: 120, rows: 50, minimumMedianWidth: 30)
            try await SandboxHarness.with(sandboxConfiguration(latency: .milliseconds(5))) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--images", "symbols"], columns: window.columns, rows: window.rows)
                try await process.waitForFirstListing()
                let photos = sandbox.catalog.search(text: "kittens", sort: .relevance).prefix(30).map {
                    sandbox.catalog.photo(at: $0)
                }
                let mark = process.mark()
                try await process.enter("kittens")
                let header = try await process.waitForHeader(page: 1, after: mark)
                try await process.waitFor("result 30") { _, screen in
                    screenShowsLabel(screen, number: 30, title: photos[29].title, below: header)
                }
                let screen = process.screen
                let lines = screen.scrollback + screen.lines
                var above = try #require(lines.lastIndex { $0.contains(header.description) })
                for row in 0..<10 {
                    let first = row * 3
                    let labelLine = try #require(lines[(above + 1)...].firstIndex {
                        lineShowsLabel($0, number: first + 1, title: photos[first].title)
                    })
                    let tallest = photos[first..<first + 3].map { reservedArea($0, window: window).rows }.max() ?? 0
                    #expect(abs((labelLine - above - 1) - tallest) <= 1,
                            "grid row \(row + 1) is \(labelLine - above - 1) lines tall; its photos reserve \(tallest)")
                    above = labelLine
                }
                #expect(try await process.quit() == .exited(0))
            }
        }
    }
}

/// The picture area of `photo` in a 3-column grid: the cell's width (the
/// window less two 2-column gaps, in thirds), as tall as the photo's shape
/// in 1:2 terminal cells, capped at the window less a label, a status line
/// and the prompt (then narrower).
private func reservedArea(_ photo: CatalogPhoto, window: EndToEnd.ThumbnailLayout.Window) -> (columns: Int, rows: Int) {
    let cellWidth = (window.columns - 4) / 3
    let maximumRows = window.rows - 3
    let ratio = Double(photo.originalWidth) / Double(photo.originalHeight)
    let rows = (Double(cellWidth) / ratio / 2).rounded()
    if rows <= Double(maximumRows) { return (cellWidth, max(1, Int(rows))) }
    return (min(cellWidth, Int((Double(maximumRows) * 2 * ratio).rounded())), maximumRows)
}

/// A placeholder frame on screen: its size in cells.
private struct Frame {
    var line: Int
    var column: Int
    var columns: Int
    var rows: Int
}

/// Waits until `count` complete frames are drawn below `header`, and returns
/// them in result order (grid rows top to bottom, cells left to right).
private func waitForFrames(_ count: Int, below header: ResultsHeader, in process: PTYProcess) async throws -> [Frame] {
    var found: [Frame] = []
    try await process.waitFor("\(count) placeholder frames below \(header)") { _, screen in
        found = frames(in: screen, below: header)
        return found.count >= count
    }
    return Array(found.prefix(count))
}

private func frames(in screen: TerminalScreen, below header: ResultsHeader) -> [Frame] {
    let all = screen.scrollback + screen.lines
    guard let start = all.lastIndex(where: { $0.contains(header.description) }) else { return [] }
    let lines = all[(start + 1)...].map(Array.init)
    var frames: [Frame] = []
    for (offset, line) in lines.enumerated() {
        for (column, character) in line.enumerated() where character == "┌" {
            guard let right = line[column...].firstIndex(of: "┐") else { continue }
            // The bottom-left corner, straight down.
            guard let bottom = lines[offset...].firstIndex(where: { $0.count > column && $0[column] == "└" })
            else { continue }
            frames.append(Frame(line: offset, column: column, columns: right - column + 1, rows: bottom - offset + 1))
        }
    }
    return frames.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
}
