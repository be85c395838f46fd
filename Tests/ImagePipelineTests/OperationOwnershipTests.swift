import PhotoCore
import Networking
import Foundation
import NIOConcurrencyHelpers
import Testing
import TestSupport
@testable import ImagePipeline

/// The operation's own rules, checked without a manager: it owns its
/// subscribers and its priority, cancels itself when the last subscriber
/// leaves, and reports to its owner only through the owner protocol.
@Suite struct OperationOwnershipTests {
    /// An owner that only records what it is told.
    final class RecordingOwner: ImageDownloadOperationOwner {
        struct Reports: Equatable {
            var priorityChanges = 0
            var cancellations = 0
            var finished: [String] = []
            var retries = 0
            var bytes = 0
            var transferEnds = 0
        }

        private let box = NIOLockedValueBox(Reports())
        var reports: Reports { box.withLockedValue { $0 } }

        func operationPriorityDidChange(_ operation: ImageDownloadOperation) {
            box.withLockedValue { $0.priorityChanges += 1 }
        }

        func operationWasCancelled(_ operation: ImageDownloadOperation) {
            box.withLockedValue { $0.cancellations += 1 }
        }

        func operation(_ operation: ImageDownloadOperation, didFinishWith result: Result<ImageResponse, ImageLoadError>) {
            let outcome = switch result {
            case .success(let response): "success from \(response.source)"
            case .failure(let error): "failure: \(error)"
            }
            box.withLockedValue { $0.finished.append(outcome) }
        }

        func operationWillRetry(_ operation: ImageDownloadOperation) {
            box.withLockedValue { $0.retries += 1 }
        }

        func operation(_ operation: ImageDownloadOperation, didReceiveBytes count: Int) {
            box.withLockedValue { $0.bytes += count }
        }

        func operationTransferDidEnd(_ operation: ImageDownloadOperation) {
            box.withLockedValue { $0.transferEnds += 1 }
        }

        func operationWentQuiet(_ operation: ImageDownloadOperation) -> Bool {
            true
        }
    }

    private let retries = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1))

    private func subscriber(_ recorder: ImageEventRecorder) -> Subscriber {
        Subscriber(handler: recorder.handler)
    }

    @Test func priorityIsTheHighestOfTheSubscribersAndDropsWhenTheHighOneLeaves() {
        let owner = RecordingOwner()
        let low = subscriber(ImageEventRecorder())
        let high = subscriber(ImageEventRecorder())
        let normal = subscriber(ImageEventRecorder())
        let operation = ImageDownloadOperation(url: testURL("a"), sequence: 1, owner: owner, subscriber: low, priority: .low)
        #expect(operation.priority == .low)

        #expect(operation.subscribe(high, priority: .high) == .joined(raisedTo: .high))
        #expect(operation.subscribe(normal, priority: .normal) == .joined(raisedTo: nil))
        #expect(operation.priority == .high)
        #expect(owner.reports.priorityChanges == 0, "joins are reported to the caller, not through the owner")

        operation.unsubscribe(high)
        #expect(operation.priority == .normal)
        #expect(owner.reports.priorityChanges == 1)

        operation.setPriority(.high, for: low)
        #expect(operation.priority == .high)
        operation.setPriority(.low, for: low)
        #expect(operation.priority == .normal)
        operation.setPriority(.low, for: normal)
        #expect(operation.priority == .low)
        #expect(owner.reports.priorityChanges == 4)

        operation.setPriority(.low, for: normal)
        operation.setPriority(.high, for: high)
        #expect(owner.reports.priorityChanges == 4, "no change, and a departed subscriber, report nothing")
        #expect(operation.phase == .pending)
        #expect(owner.reports.cancellations == 0)
    }

    @Test func lastSubscriberLeavingCancelsTheOperationAndAbortsItsTransfer() async throws {
        let owner = RecordingOwner()
        let fetcher = ScriptedImageFetcher(gated: true)
        let url = testURL("a")
        let first = ImageEventRecorder()
        let second = ImageEventRecorder()
        let one = subscriber(first)
        let two = subscriber(second)
        let operation = ImageDownloadOperation(url: url, sequence: 1, owner: owner, subscriber: one, priority: .normal)
        _ = operation.subscribe(two, priority: .normal)
        #expect(operation.start(with: fetcher, retries: retries))
        try await eventually(timeout: patience) { fetcher.started == [url] }

        operation.unsubscribe(one)
        #expect(operation.phase == .running, "another subscriber still wants the image")
        #expect(owner.reports.cancellations == 0)

        operation.unsubscribe(two)
        #expect(operation.phase == .cancelled)
        #expect(owner.reports.cancellations == 1)
        try await eventually(timeout: patience) { owner.reports.transferEnds == 1 }
        #expect(fetcher.cancelled == [url], "the fetch saw its task cancelled")
        #expect(owner.reports.finished.isEmpty)
        #expect(first.all.isEmpty && second.all.isEmpty)
        #expect(operation.subscribe(subscriber(ImageEventRecorder()), priority: .high) == .ended)
    }

    @Test func cancelledPendingOperationNeverStarts() {
        let owner = RecordingOwner()
        let only = subscriber(ImageEventRecorder())
        let operation = ImageDownloadOperation(url: testURL("a"), sequence: 1, owner: owner, subscriber: only, priority: .low)
        operation.unsubscribe(only)
        let fetcher = ScriptedImageFetcher()
        #expect(!operation.start(with: fetcher, retries: retries))
        #expect(fetcher.started.isEmpty)
        #expect(owner.reports.cancellations == 1)
    }

    @Test func finishedOperationTellsItsOwnerFirstThenEverySubscriberOnce() async throws {
        let owner = RecordingOwner()
        let fetcher = ScriptedImageFetcher()
        let recorders = [ImageEventRecorder(), ImageEventRecorder()]
        let operation = ImageDownloadOperation(
            url: testURL("a"), sequence: 1, owner: owner, subscriber: subscriber(recorders[0]), priority: .normal)
        _ = operation.subscribe(subscriber(recorders[1]), priority: .low)
        #expect(operation.start(with: fetcher, retries: retries))
        try await eventually(timeout: patience) { owner.reports.transferEnds == 1 }
        #expect(owner.reports.finished == ["success from network"])
        #expect(owner.reports.bytes == fakeJPEG().count)
        for recorder in recorders {
            #expect(recorder.completionCount == 1)
            #expect(try recorder.completion?.get().data == fakeJPEG())
        }
        #expect(operation.phase == .finished)
        #expect(operation.subscribe(subscriber(ImageEventRecorder()), priority: .normal) == .ended)
    }

    @Test func cancellingEverySubscriberCompletesEachAsCancelledAndAbortsTheTransfer() async throws {
        let owner = RecordingOwner()
        let fetcher = ScriptedImageFetcher()
        let url = testURL("a")
        fetcher.setStandingAnswer(.stall, for: url)
        let recorders = [ImageEventRecorder(), ImageEventRecorder()]
        let operation = ImageDownloadOperation(
            url: url, sequence: 1, owner: owner, subscriber: subscriber(recorders[0]), priority: .normal)
        _ = operation.subscribe(subscriber(recorders[1]), priority: .normal)
        #expect(operation.start(with: fetcher, retries: retries))
        try await eventually(timeout: patience) { fetcher.inFlight == 1 }

        operation.cancelEverySubscriber()
        for recorder in recorders {
            #expect(recorder.completionCount == 1)
            if case .failure(.cancelled) = recorder.completion {} else { Issue.record("expected .cancelled") }
        }
        #expect(owner.reports.cancellations == 1)
        try await eventually(timeout: patience) { owner.reports.transferEnds == 1 }
        #expect(fetcher.cancelled == [url])
        #expect(owner.reports.finished.isEmpty)
    }

    @Test func retriesAreBoundedAndEachIsReported() async throws {
        let owner = RecordingOwner()
        let fetcher = ScriptedImageFetcher()
        let url = testURL("a")
        fetcher.fail(url, with: .timedOut(host: "images.test"))
        let recorder = ImageEventRecorder()
        let operation = ImageDownloadOperation(url: url, sequence: 1, owner: owner, subscriber: subscriber(recorder), priority: .normal)
        #expect(operation.start(with: fetcher, retries: retries))
        try await eventually(timeout: patience) { owner.reports.transferEnds == 1 }
        #expect(fetcher.requests(for: url) == 3)
        #expect(owner.reports.retries == 2)
        if case .failure(.network(.timedOut)) = recorder.completion {} else { Issue.record("expected the time-out") }
    }
}
