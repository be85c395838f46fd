import PhotoCore
import Foundation
import NIOConcurrencyHelpers
import Sandbox
import Testing
import TestSupport
@testable import ImagePipeline

/// Cancellation against the real sandbox over loopback, with throttled
/// bodies so that transfers are mid-body when requesters leave; the
/// sandbox's own counters say whether a transfer was aborted.
@Suite struct SandboxCancellationTests {
    /// 1 KiB/s: a ~25 KB `.l` body takes ~25 s, the margin a busy machine
    /// gets between the first byte and the cancel or join.
    private static func throttle(_ configuration: inout SandboxConfiguration) { configuration.throttleKBps = 1 }

    @Test func onlyTheLastRequesterLeavingAbortsTheTransfer() async throws {
        try await withSandboxPipeline(sandbox: Self.throttle) { server, _, pipeline in
            let url = sandboxImageURL(server, 3, .l)
            let recorders = (0..<3).map { _ in ImageEventRecorder() }
            let requests = recorders.map { pipeline.load(url, priority: .normal, onEvent: $0.handler) }
            try await eventually(timeout: patience) { recorders[2].receivedBytes > 0 }

            requests[0].cancel()
            requests[1].cancel()
            let bytesWhenTwoLeft = recorders[2].receivedBytes
            try await eventually(timeout: patience) { recorders[2].receivedBytes > bytesWhenTwoLeft }
            #expect(server.stats().abortedResponses == 0, "one requester still wants the image")
            #expect(recorders[2].completion == nil, "the body is still arriving")

            requests[2].cancel()
            try await eventually(timeout: patience) { server.stats().abortedResponses == 1 }
            try await eventually(timeout: patience) { server.stats().inFlight == 0 }
            try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
            #expect(server.stats().imageRequests == 1)
            #expect(recorders.allSatisfy { $0.completion == nil })
            #expect(pipeline.statistics().cancelled == 1)
            #expect(pipeline.cachedImage(for: url) == nil)
        }
    }

    @Test func noEventReachesARequestAfterItsCancelReturned() async throws {
        try await withSandboxPipeline(sandbox: Self.throttle) { server, _, pipeline in
            let url = sandboxImageURL(server, 4, .l)
            let leaving = ImageEventRecorder()
            let staying = ImageEventRecorder()
            let request = pipeline.load(url, priority: .normal, onEvent: leaving.handler)
            pipeline.load(url, priority: .normal, onEvent: staying.handler)
            try await eventually(timeout: patience) { leaving.receivedBytes > 0 }

            request.cancel()
            let eventsAtCancel = leaving.all.count
            try await eventually(timeout: patience) { staying.completion != nil }
            #expect(try staying.completion?.get().source == .network)
            #expect(staying.receivedBytes > leaving.receivedBytes, "progress went on after the cancel")
            #expect(leaving.all.count == eventsAtCancel)
            #expect(leaving.completion == nil)
            #expect(server.stats().abortedResponses == 0)
        }
    }

    @Test func handlerMayCancelItsOwnRequestAndIsNeverCalledAgain() async throws {
        try await withSandboxPipeline(sandbox: Self.throttle) { server, _, pipeline in
            let url = sandboxImageURL(server, 5, .l)
            /// The request (once `load` returned) and how many events arrived after it was cancelled.
            struct Box { var request: ImageRequest?; var cancelled = false; var lateEvents = 0 }
            let box = NIOLockedValueBox(Box())
            let request = pipeline.load(url, priority: .normal) { _ in
                let (request, late) = box.withLockedValue { state in
                    if state.cancelled { state.lateEvents += 1 }
                    return (state.cancelled ? nil : state.request, state.cancelled)
                }
                guard !late, let request else { return }
                // Cancelling from inside the handler must neither deadlock nor let another event through.
                request.cancel()
                box.withLockedValue { $0.cancelled = true }
            }
            box.withLockedValue { $0.request = request }
            // The first event may arrive before the request was stored; any later one cancels.
            try await eventually(timeout: patience) { box.withLockedValue { $0.cancelled } }
            try await eventually(timeout: patience) { server.stats().abortedResponses == 1 }
            try await eventually(timeout: patience) { pipeline.statistics().running == 0 }
            #expect(box.withLockedValue { $0.lateEvents } == 0)
        }
    }

    @Test func joiningARunningTransferSharesItsBodyAndResult() async throws {
        try await withSandboxPipeline(sandbox: Self.throttle) { server, _, pipeline in
            let url = sandboxImageURL(server, 6, .l)
            let first = ImageEventRecorder()
            let late = ImageEventRecorder()
            pipeline.load(url, priority: .low, onEvent: first.handler)
            try await eventually(timeout: patience) { first.receivedBytes > 0 }
            pipeline.load(url, priority: .high, onEvent: late.handler)
            try await eventually(timeout: patience) { first.completion != nil && late.completion != nil }
            let original = try #require(try first.completion?.get())
            let joined = try #require(try late.completion?.get())
            #expect(joined.data == original.data)
            #expect(joined.source == .network)
            #expect(late.receivedBytes > 0, "the joiner hears progress too")
            #expect(server.stats().imageRequests == 1)
            #expect(pipeline.statistics().coalesced == 1)
        }
    }
}
