import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// Cancelling pending thumbnail downloads really stops the transfers:
    /// the sandbox throttles every response to 1 KB/s, so thumbnails (about
    /// 2 KB) are mid-body for seconds when the cancel arrives. Pages of 12
    /// keep the (equally throttled) search responses to a few seconds.
    @Suite("Cancellation")
    struct Cancellation {
        static let perPage = 12
        /// How late after the cancel a request sent before it may reach the sandbox's handler.
        static let handlerSlack: Double = 0.5

        @Test func cancelCommandAbortsPendingThumbnailTransfers() async throws {
            try await SandboxHarness.with(sandboxConfiguration(throttleKBps: 1)) { sandbox in
                let process = try await startDownloadsThenCancel(sandbox: sandbox) { process in
                    try await process.enter("/cancel")
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func controlCWhileDownloadingCancelsAndKeepsTheAppRunning() async throws {
            try await SandboxHarness.with(sandboxConfiguration(throttleKBps: 1)) { sandbox in
                let process = try await startDownloadsThenCancel(sandbox: sandbox) { process in
                    try process.sendControlC()
                }
                #expect(process.exitStatus == nil, "Ctrl-C with work pending must not end the app")
                // Still usable: another search works.
                let mark = process.mark()
                try await process.enter("sunset")
                try await process.waitForHeader(page: 1, after: mark)
                #expect(try await process.quit() == .exited(0))
            }
        }

        /// Searches `kittens`, waits until one of its thumbnails is mid-body at
        /// the sandbox, cancels with `cancel`, and checks what the contract
        /// promises: the app says so, transfers end aborted, and no image
        /// request starts afterwards. Returns the still-running app.
        private func startDownloadsThenCancel(
            sandbox: SandboxHarness,
            cancel: (PTYProcess) async throws -> Void
        ) async throws -> PTYProcess {
            let app = try FlickrApp(sandbox: sandbox)
            let process = try app.launch(["--per-page", "\(Self.perPage)"])
            try await process.waitForFirstListing()

            let catalog = sandbox.catalog
            let results = catalog.search(text: "kittens", sort: .relevance)
            // The grid asks for the size that fills its cells, so any size of these photos counts.
            let thumbnails = Set(results.prefix(Self.perPage).flatMap { index in
                SandboxImageSize.allCases.map { catalog.photo(at: index).imagePath($0) }
            })
            var mark = process.mark()
            try await process.enter("kittens")
            try await process.waitForHeader(page: 1, after: mark)
            try await sandbox.waitForLog("a kittens thumbnail transfer in progress (some bytes sent, not finished)", describe: Self.describe) { log in
                log.contains { thumbnails.contains(Self.pathOnly($0.path)) && $0.endedAt == nil && $0.bytesSent > 0 }
            }

            let sentAt = Date().timeIntervalSince1970
            mark = process.mark()
            try await cancel(process)
            try await process.waitFor("the app to say the downloads were cancelled") { bytes, _ in
                let text = String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self)
                return text.range(of: "cancell?ed", options: [.regularExpression, .caseInsensitive]) != nil
            }
            let acknowledgedAt = Date().timeIntervalSince1970

            // Transfers really stop: nothing left in flight at the sandbox.
            let afterCancel = try await sandbox.waitForStats("no responses in flight after the cancel") { $0.inFlight == 0 }
            // Give a queue that wrongly kept going the chance to start a request.
            try await Task.sleep(for: .seconds(1))
            let log = try await sandbox.requestLog()

            #expect(afterCancel.abortedResponses > 0, "aborted_responses after the cancel: \(afterCancel)")
            let aborted = log.filter { thumbnails.contains(Self.pathOnly($0.path)) && $0.aborted }
            #expect(!aborted.isEmpty, "no kittens thumbnail transfer ended aborted; image log: \(Self.describe(log))")
            // The in-process sandbox shares this busy test process, so a request
            // the app sent just before the cancel can reach its handler a little
            // after the app said "cancelled"; such a request must end aborted.
            // A queue that kept going would start whole transfers, or start them
            // well after the cancel.
            let late = log.filter {
                $0.kind == "image" && $0.startedAt > acknowledgedAt
                    && (!$0.aborted || $0.startedAt > acknowledgedAt + Self.handlerSlack)
            }
            let repeats = late.map { record in
                let earlier = log.filter { $0.path == record.path && $0.startedAt < record.startedAt }
                return "\(record.path): \(earlier.count) earlier request(s), \(earlier.filter(\.aborted).count) aborted"
            }
            #expect(late.isEmpty, """
                image requests started after the app acknowledged the cancel \
                (cancel sent at \(sentAt), acknowledged by \(acknowledgedAt)): \(Self.describe(late))
                same URL before the cancel: \(repeats.joined(separator: "; "))
                """)
            return process
        }

        private static func pathOnly(_ path: String) -> String {
            String(path.prefix { $0 != "?" })
        }

        private static func describe(_ log: [SandboxRequestRecord]) -> String {
            let images = log.filter { $0.kind == "image" }
            let lines = images.suffix(40).map { record in
                "\(record.path) started \(record.startedAt) ended \(record.endedAt.map { "\($0)" } ?? "-") "
                    + "bytes \(record.bytesSent) aborted \(record.aborted)"
            }
            return "\(images.count) image requests; last ones:\n" + lines.joined(separator: "\n")
        }
    }
}
