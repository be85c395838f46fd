@testable import Sandbox
import Testing

@Suite struct RequestLogTests {
    @Test func logKeepsTheLatest10000RequestsInArrivalOrder() {
        let recorder = StatsRecorder()
        var sequences: [Int] = []
        for number in 0..<10_050 {
            sequences.append(recorder.begin(path: "/\(number)", kind: .image))
        }
        recorder.end(sequence: sequences[10], aborted: false)
        recorder.end(sequence: sequences[10_049], aborted: true)
        let log = recorder.log()
        #expect(log.count == 10_000)
        #expect(log.first?.path == "/50")
        #expect(log.last?.path == "/10049")
        #expect(log.last?.aborted == true)
        #expect(recorder.snapshot().inFlight == 10_048)
        #expect(recorder.snapshot().imageRequests == 10_050)
    }

    @Test func responsesEndingAfterAResetLeaveTheNewLogAlone() {
        let recorder = StatsRecorder()
        let old = recorder.begin(path: "/old", kind: .rest)
        recorder.reset()
        let new = recorder.begin(path: "/new", kind: .rest)
        recorder.end(sequence: old, aborted: true)
        #expect(recorder.log().map(\.path) == ["/new"])
        #expect(recorder.log().first?.endedAt == nil)
        recorder.end(sequence: new, aborted: false)
        #expect(recorder.snapshot().inFlight == 0)
        #expect(recorder.snapshot().restRequests == 1)
    }
}
