import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// A window closed, a `kill`, or Ctrl-\ end the app as the signal
    /// would, but only after it saved what the next launch needs.
    @Suite("Termination signals")
    struct TerminationSignals {
        @Test(arguments: [SIGTERM, SIGHUP, SIGQUIT])
        func theSignalSavesHistoryAndSessionFirst(signal: Int32) async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--images", "none"])
                try await process.waitForFirstListing()
                let mark = process.mark()
                try await process.enter("red car")
                try await process.waitForHeader(page: 1, after: mark)

                process.send(signal: signal)
                #expect(try await process.waitForExit() == .signalled(signal))

                let state = app.stateDirectory.appendingPathComponent("flickr")
                let history = try String(contentsOf: state.appendingPathComponent("history"), encoding: .utf8)
                #expect(history.contains("red car"))
                let session = try String(contentsOf: state.appendingPathComponent("session.json"), encoding: .utf8)
                #expect(session.contains("red car"))
            }
        }
    }
}
