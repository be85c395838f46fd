import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import TerminalUI

@Suite("OrderedParallel")
struct OrderedParallelTests {
    @Test func resultsComeBackInIndexOrderWhateverFinishesFirst() async {
        // Later jobs finish first: each sleeps less than the one before.
        var delivered: [Int] = []
        await OrderedParallel.forEach(count: 8, width: 4, operation: { index in
            try? await Task.sleep(for: .milliseconds(2 * (8 - index)))
            return index * 10
        }, deliver: { index, value in
            #expect(value == index * 10)
            delivered.append(index)
        })
        #expect(delivered == Array(0..<8))
    }

    @Test func neverRunsMoreJobsAtOnceThanItsWidth() async {
        let running = NIOLockedValueBox((now: 0, most: 0))
        let results = await OrderedParallel.map(count: 24, width: 3) { index in
            running.withLockedValue { $0.now += 1; $0.most = max($0.most, $0.now) }
            try? await Task.sleep(for: .milliseconds(1))
            running.withLockedValue { $0.now -= 1 }
            return index
        }
        #expect(results == Array(0..<24))
        let most = running.withLockedValue { $0.most }
        #expect(most >= 1 && most <= 3)
    }

    @Test func aFinishedFirstResultIsDeliveredWhileLaterJobsStillRun() async {
        // Job 1 finishes only once result 0 has been delivered: if delivery
        // waited for every job, job 1 would give up and say so.
        let firstDelivered = NIOLockedValueBox(false)
        var seen: [String] = []
        await OrderedParallel.forEach(count: 2, width: 2, operation: { index -> String in
            if index == 0 { return "first" }
            for _ in 0..<5_000 {
                if firstDelivered.withLockedValue({ $0 }) { return "second" }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return "gave up"
        }, deliver: { _, value in
            seen.append(value)
            if value == "first" { firstDelivered.withLockedValue { $0 = true } }
        })
        #expect(seen == ["first", "second"])
    }

    @Test func nothingToDoDeliversNothing() async {
        var calls = 0
        await OrderedParallel.forEach(count: 0, operation: { $0 }, deliver: { _, _ in calls += 1 })
        #expect(calls == 0)
        #expect(await OrderedParallel.map(count: 0) { $0 }.isEmpty)
    }

    @Test func aCancelledPageStopsDelivering() async {
        let task = Task {
            var delivered = 0
            await OrderedParallel.forEach(count: 50, width: 2, operation: { index in
                try? await Task.sleep(for: .milliseconds(1))
                return index
            }, deliver: { index, _ in
                delivered += 1
                if index == 4 { withUnsafeCurrentTask { $0?.cancel() } }
            })
            return delivered
        }
        #expect(await task.value == 5)
    }

    @Test func parallelRenderingGivesTheSameOutputsInTheSameOrderAsOneByOne() async throws {
        let renderer = TerminalImageRenderer(graphics: TerminalGraphics(mode: .symbols, colors: .truecolor))
        let shapes = [(640, 480), (480, 640), (300, 300), (800, 450), (200, 600), (640, 427), (500, 500), (1024, 683)]
        let images = try shapes.map { try ImageFixtures.jpeg(width: $0.0, height: $0.1) }
        let jobs = images.enumerated().map { index, data in
            CellRenderJob(source: .image(data, cacheKey: "image-\(index)"), columns: 38, rows: 14)
        }
        let parallel = await OrderedParallel.map(count: jobs.count, width: 4) { jobs[$0].run(with: renderer) }
        let sequential = TerminalImageRenderer(graphics: renderer.graphics)
        let oneByOne = jobs.map { $0.run(with: sequential) }
        #expect(parallel == oneByOne)
        // Each picture kept its own shape: the portrait ones are narrower.
        let widths = parallel.map { content -> Int in
            if case .image(let image) = content { return image.columns }
            return 0
        }
        #expect(widths[1] < widths[0] && widths[4] < widths[3])
    }
}
