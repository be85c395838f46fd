import Dispatch
import NIOConcurrencyHelpers
import Platform
import TestSupport
import Testing

/// The one signal mechanism, with real signals raised in this process.
/// Serialized: signal dispositions are process-wide.
@Suite(.serialized) struct SignalWatcherTests {
    /// SIGUSR1 is ignored outside the watchers, so a stray one cannot end the test process.
    init() {
        signal(SIGUSR1, SIG_IGN)
    }

    @Test func aRaisedSignalReachesTheHandlerOnItsQueue() async throws {
        let received = NIOLockedValueBox<[Int32]>([])
        let watcher = try #require(SignalWatcher(signals: [SIGUSR1], queue: .global()) { number in
            received.withLockedValue { $0.append(number) }
        })
        kill(getpid(), SIGUSR1)
        try await eventually("SIGUSR1 delivered") { received.withLockedValue { $0 } == [SIGUSR1] }
        watcher.cancel()
    }

    @Test func cancellingPutsTheDefaultDispositionBack() throws {
        #expect(SignalWatcher.hasDefaultDisposition(SIGUSR2))
        let watcher = try #require(SignalWatcher(signals: [SIGUSR2], queue: .global()) { _ in })
        #expect(!SignalWatcher.hasDefaultDisposition(SIGUSR2))
        watcher.cancel()
        #expect(SignalWatcher.hasDefaultDisposition(SIGUSR2))
    }

    @Test func twoWatchersEachHearOnlyTheirOwnSignal() async throws {
        let first = NIOLockedValueBox<[Int32]>([])
        let second = NIOLockedValueBox<[Int32]>([])
        let one = try #require(SignalWatcher(signals: [SIGUSR1], queue: .global()) { n in first.withLockedValue { $0.append(n) } })
        let two = try #require(SignalWatcher(signals: [SIGUSR2], queue: .global()) { n in second.withLockedValue { $0.append(n) } })
        kill(getpid(), SIGUSR2)
        kill(getpid(), SIGUSR1)
        try await eventually("both delivered") {
            first.withLockedValue { $0 } == [SIGUSR1] && second.withLockedValue { $0 } == [SIGUSR2]
        }
        two.cancel()
        one.cancel()
    }

    @Test func aStreamDeliversTheFirstSignal() async throws {
        let (signals, watcher) = SignalWatcher.stream(of: [SIGUSR1])
        kill(getpid(), SIGUSR1)
        var iterator = signals.makeAsyncIterator()
        #expect(await iterator.next() == SIGUSR1)
        watcher?.cancel()
    }
}

@Suite struct TerminalDetectionTests {
    @Test func aPipeIsNoTerminal() {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(!Platform.isTerminal(fds[0], environment: ["TERM": "xterm-256color"]))
    }

    @Test func dumbEmptyOrMissingTermCannotTakeEscapes() {
        #expect(!Platform.usableTerm(["TERM": "dumb"]))
        #expect(!Platform.usableTerm(["TERM": ""]))
        #expect(!Platform.usableTerm([:]))
        #expect(Platform.usableTerm(["TERM": "tmux-256color"]))
    }

    @Test func writeAllWritesEveryByte() {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let text = String(repeating: "flickr ", count: 1000)
        #expect(Platform.writeAll(text.utf8, to: fds[1]))
        close(fds[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        #expect(String(decoding: bytes, as: UTF8.self) == text)
    }
}
