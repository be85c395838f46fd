import Platform
import Synchronization

/// The bytes readline reads at the prompt (its `rl_getc_function`): first
/// the keys typed while the start-up probe was reading (`TerminalProbe`
/// hands them over), then the terminal, less any answer to the probe that
/// arrived after the probe stopped waiting (a slow ssh link): such an answer
/// would otherwise be typed into the first query (`62;22ckittens`).
///
/// Answer-shaped input is what no key sends: a DCS or APC string (XTVERSION,
/// kitty's graphics answer), `CSI ? … c` (device attributes), `CSI ? … $ y`
/// (a mode report) or `CSI Ps ; Ps ; Ps t` (a size report). Keys that start
/// with ESC (arrows, Alt+key, ESC alone) pass unchanged.
///
/// Main thread only: readline calls it from `rl_callback_read_char`.
@MainActor
final class PromptInput {
    /// Keys not yet given to readline.
    private var queued: [UInt8] = []
    /// How long to wait for the rest of a sequence that started with ESC.
    static let sequenceWait: Int32 = 30

    init(typedAhead: [UInt8]) {
        queued = typedAhead
    }

    /// Keys are waiting here: readline should be called although stdin may
    /// not be readable.
    var hasQueued: Bool { !queued.isEmpty }

    /// Reads what `descriptor` has now, answers left out. False when the
    /// input ended (or failed) with nothing read: readline should then be
    /// called once to see the end for itself.
    func fill(from descriptor: Int32) -> Bool {
        var chunk: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            chunk += buffer[0..<count]
            var more = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard count == buffer.count, poll(&more, 1, 0) > 0 else { break }
        }
        guard !chunk.isEmpty else { return false }
        queued += Self.removingAnswers(chunk) { Self.readByte(descriptor, waitingMilliseconds: Self.sequenceWait) }
        return true
    }

    /// The next byte for readline; reads the terminal itself only when
    /// readline wants the rest of a key whose bytes have not arrived yet.
    func next(from descriptor: Int32) -> Int32 {
        if !queued.isEmpty { return Int32(queued.removeFirst()) }
        return Self.readByte(descriptor, waitingMilliseconds: -1).map(Int32.init) ?? -1
    }

    /// `bytes` without the answer-shaped sequences in them. A sequence cut
    /// at the end is completed with `readMore` (nil: nothing more came).
    nonisolated static func removingAnswers(_ bytes: [UInt8], readMore: () -> UInt8?) -> [UInt8] {
        var kept: [UInt8] = []
        var index = 0
        var bytes = bytes
        while index < bytes.count {
            guard bytes[index] == 0x1B else {
                kept.append(bytes[index])
                index += 1
                continue
            }
            var end = index + 1
            while needsMore(Array(bytes[index..<end])), end - index < 4096 {
                if end == bytes.count {
                    guard let more = readMore() else { break }
                    bytes.append(more)
                }
                // An ESC inside a CSI starts a new sequence: stop before it.
                if end > index + 1, bytes[end] == 0x1B, bytes[index + 1] == UInt8(ascii: "[") { break }
                end += 1
            }
            let sequence = Array(bytes[index..<end])
            if !isAnswer(sequence) { kept += sequence }
            index = end
        }
        return kept
    }

    // MARK: - Sequences

    /// Whether `sequence` (starting with ESC) may still grow into an answer.
    nonisolated static func needsMore(_ sequence: [UInt8]) -> Bool {
        guard sequence.count >= 2 else { return true }
        switch sequence[1] {
        case UInt8(ascii: "["):
            guard let last = sequence.last, sequence.count > 2 else { return true }
            return !(0x40...0x7E).contains(last)
        case UInt8(ascii: "P"), UInt8(ascii: "_"):
            if sequence.last == 0x07 { return false }
            return !(sequence.count >= 4 && sequence.suffix(2) == [0x1B, UInt8(ascii: "\\")])
        default:
            return false
        }
    }

    /// Whether a whole sequence is one of the probe's answers.
    nonisolated static func isAnswer(_ sequence: [UInt8]) -> Bool {
        guard sequence.count >= 3, !needsMore(sequence) else { return false }
        switch sequence[1] {
        case UInt8(ascii: "P"), UInt8(ascii: "_"):
            return true
        case UInt8(ascii: "["):
            let body = sequence.dropFirst(2).dropLast()
            guard let final = sequence.last else { return false }
            let digits = body.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ";") }
            switch final {
            case UInt8(ascii: "c"):
                return body.first == UInt8(ascii: "?")
            case UInt8(ascii: "y"):
                return body.first == UInt8(ascii: "?") && body.last == UInt8(ascii: "$")
            case UInt8(ascii: "t"):
                return digits && body.filter { $0 == UInt8(ascii: ";") }.count == 2
            default:
                return false
            }
        default:
            return false
        }
    }

    nonisolated private static func readByte(_ descriptor: Int32, waitingMilliseconds: Int32) -> UInt8? {
        if waitingMilliseconds >= 0 {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, waitingMilliseconds) > 0 else { return nil }
        }
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(descriptor, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    // MARK: - Hand-over from the probe

    nonisolated private static let handedOver = Mutex<[Int32: [UInt8]]>([:])

    /// Keeps keys typed during the probe on `descriptor` for the prompt.
    nonisolated static func handOver(_ typedAhead: [UInt8], descriptor: Int32) {
        guard !typedAhead.isEmpty else { return }
        handedOver.withLock { $0[descriptor, default: []] += typedAhead }
    }

    /// The keys handed over for `descriptor`, once.
    nonisolated static func takeHandedOver(descriptor: Int32) -> [UInt8] {
        handedOver.withLock { $0.removeValue(forKey: descriptor) ?? [] }
    }
}
