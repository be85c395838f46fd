import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// The real binary where two windows share a HOME, and where Ctrl-C
    /// cuts output short.
    @Suite("Hardening")
    struct Hardening {
        /// Each instance merges its own lines into the file when it quits, so
        /// the one quitting last no longer overwrites the other's.
        @Test func twoInstancesOnOneHomeKeepEachOthersHistory() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .milliseconds(5))) { sandbox in
                let one = try FlickrApp(sandbox: sandbox)
                let two = try FlickrApp(apiURL: one.apiURL, home: one.home)
                let first = try one.launch()
                try await first.waitForFirstListing()
                let second = try two.launch()
                try await second.waitForFirstListing()

                var mark = first.mark()
                try await first.enter("kittens from one")
                try await first.waitForHeader(page: 1, after: mark)
                mark = second.mark()
                try await second.enter("sunset from two")
                try await second.waitForHeader(page: 1, after: mark)

                #expect(try await first.quit() == .exited(0))
                #expect(try await second.quit() == .exited(0))
                let file = one.stateDirectory.appendingPathComponent("flickr/history")
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                #expect(lines.contains("kittens from one"), "\(lines)")
                #expect(lines.contains("sunset from two"), "\(lines)")
            }
        }

        /// Ctrl-C while a page is being drawn to a terminal that is not
        /// keeping up (the reader stops, so output queues in the pty): on
        /// SIGINT the kernel drops queued output unless the tty has NOFLSH,
        /// which would leave an escape sequence cut in half on the screen.
        /// Every sequence and character the app wrote must arrive whole.
        @Test func controlCWhileAPageDrawsLeavesNoCutSequence() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .milliseconds(5))) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch()
                try await process.waitForFirstListing()
                let mark = process.mark()
                try await process.type("kittens")
                process.pauseReading()
                try process.write("\r")
                // The line discipline's buffer is full: the page's drawing
                // now queues behind it, then blocks the app's writes.
                try await eventually("the page's output to back up in the pty") {
                    process.unreadOutputBytes >= 4000
                }
                try process.sendControlC()
                process.resumeReading()
                try await process.waitFor("the app to answer Ctrl-C") { bytes, _ in
                    String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self)
                        .range(of: "cancel", options: .caseInsensitive) != nil
                }
                // Which draw Ctrl-C lands in (the last rows of the first
                // listing, or the kittens page) does not matter: each must
                // arrive whole.
                #expect(try await process.quit() == .exited(0))

                let written = process.output(since: mark)
                #expect(written.count > 16_000, "too little output to have backed up: \(written.count) bytes")
                let broken = brokenSequences(in: written)
                #expect(broken.isEmpty, "\(broken.count) cut: \(broken.prefix(5))")
            }
        }

        /// `search --json` interrupted (SIGINT, as Ctrl-C sends) mid-listing:
        /// what it wrote ends on a whole line, and every line is whole JSON.
        @Test func searchJSONCutBySIGINTEndsOnAWholeLine() async throws {
            // 500 ms a page: after the third page ~18 s of listing remain, time
            // a busy machine needs to get the signal there before the end.
            try await SandboxHarness.with(sandboxConfiguration(latency: .milliseconds(500))) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try ProcessRunner.start(
                    try Binaries.flickr,
                    arguments: ["search", "kittens", "--json", "--pages", "40", "--per-page", "20"] + app.providerArguments,
                    environment: app.environment)
                try await eventually("a few pages of JSON lines") {
                    process.outputSoFar.count { $0 == UInt8(ascii: "\n") } > 50
                }
                process.send(signal: SIGINT)
                let result = try await process.finish()
                #expect(result.status != .exited(0), "SIGINT did not stop the listing: \(result.status)")

                let text = result.outputText
                #expect(text.hasSuffix("\n"), "cut mid-line: …\(text.suffix(120).debugDescription)")
                for line in text.split(separator: "\n") {
                    let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                    #expect(object?["id"] != nil, "not a whole JSON line: \(line.prefix(120).debugDescription)")
                }
            }
        }
    }
}
