/// Reads the terminal's answers to the start-up queries from raw input
/// bytes. Pure: no I/O, so it is tested on byte strings.
///
/// Answers may arrive split across reads (an unfinished sequence waits for
/// the rest) and mixed with other input such as keys typed during start-up
/// (kept in `typedAhead`, for the prompt). Strings it does not know are
/// skipped whole, and one that grows without end is dropped, so garbage
/// never stalls it.
public struct TerminalProbeParser: Sendable {
    /// The id sent in the kitty graphics query; only its answer counts.
    public let kittyQueryID: UInt32
    /// The id sent in the kitty query that carries `U=1` (placeholders).
    public let placeholderQueryID: UInt32?
    /// Keep reading after the DA1 answer until kitty's answers too. Inside
    /// tmux, tmux answers DA1 at once while kitty's answer comes from the
    /// outer terminal through the passthrough, later.
    public let waitsForKittyAfterAttributes: Bool
    public private(set) var result = TerminalProbeResult()
    /// Keys typed while the probe read: plain bytes and key sequences
    /// (arrows and the like), in order, for the prompt to receive.
    public private(set) var typedAhead: [UInt8] = []
    private var kittyAnswered = false
    private var pending: [UInt8] = []

    /// Longest sequence kept while waiting for its end.
    static let sequenceLimit = 4096

    public init(kittyQueryID: UInt32, placeholderQueryID: UInt32? = nil, waitsForKittyAfterAttributes: Bool = false) {
        self.kittyQueryID = kittyQueryID
        self.placeholderQueryID = placeholderQueryID
        self.waitsForKittyAfterAttributes = waitsForKittyAfterAttributes
    }

    /// Every answer that matters has arrived.
    public var isComplete: Bool {
        result.answered && (!waitsForKittyAfterAttributes || kittyAnswered)
    }

    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        pending.append(contentsOf: bytes)
        var index = 0
        while index < pending.count {
            guard pending[index] == 0x1B else {
                typedAhead.append(pending[index])
                index += 1
                continue
            }
            switch scan(from: index) {
            case .incomplete:
                pending.removeFirst(index)
                if pending.count > Self.sequenceLimit { pending.removeAll() }
                return
            case .sequence(let end):
                let sequence = Array(pending[index..<end])
                if !interpret(sequence), sequence[1] == UInt8(ascii: "[") { typedAhead += sequence }
                index = end
            case .skip(let end):
                // ESC and a character: Alt with a key.
                if end == index + 2, pending[index + 1] != UInt8(ascii: "[") { typedAhead += pending[index..<end] }
                index = end
            }
        }
        pending.removeAll()
    }

    // MARK: - Framing

    private enum Scan {
        /// A whole sequence ends before `end`.
        case sequence(end: Int)
        /// Not a sequence of interest: resume at `end`.
        case skip(end: Int)
        /// The sequence goes on past the bytes received so far.
        case incomplete
    }

    private func scan(from start: Int) -> Scan {
        guard start + 1 < pending.count else { return .incomplete }
        switch pending[start + 1] {
        case UInt8(ascii: "["):
            var index = start + 2
            while index < pending.count {
                let byte = pending[index]
                if (0x40...0x7E).contains(byte) { return .sequence(end: index + 1) }
                // A control byte or a new ESC: what came before was broken.
                if !(0x20...0x3F).contains(byte) { return .skip(end: index) }
                index += 1
            }
            return .incomplete
        case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "X"):
            var index = start + 2
            while index < pending.count {
                if pending[index] == 0x07 { return .sequence(end: index + 1) }
                if pending[index] == 0x1B {
                    guard index + 1 < pending.count else { return .incomplete }
                    if pending[index + 1] == UInt8(ascii: "\\") { return .sequence(end: index + 2) }
                    return .skip(end: index)
                }
                index += 1
            }
            return .incomplete
        default:
            return .skip(end: start + 2)
        }
    }

    // MARK: - Answers

    /// Takes in an answer; false for a control sequence that answers
    /// nothing (a key such as an arrow).
    @discardableResult
    private mutating func interpret(_ sequence: [UInt8]) -> Bool {
        let introducer = sequence[1]
        if introducer == UInt8(ascii: "[") {
            return interpretCSI(Array(sequence.dropFirst(2)))
        }
        interpretString(sequence)
        return true
    }

    private mutating func interpretString(_ sequence: [UInt8]) {
        let introducer = sequence[1]
        // Strip the terminator (BEL or ESC \).
        let end = sequence.last == 0x07 ? sequence.count - 1 : sequence.count - 2
        guard end >= 2 else { return }
        let body = Array(sequence[2..<end])
        if introducer == UInt8(ascii: "_"), body.first == UInt8(ascii: "G") {
            interpretKitty(Array(body.dropFirst()))
        } else if introducer == UInt8(ascii: "P"), body.starts(with: Array(">|".utf8)) {
            let name = body.dropFirst(2).filter { (0x20...0x7E).contains($0) }.prefix(64)
            result.terminalName = String(decoding: name, as: UTF8.self)
        }
    }

    private mutating func interpretCSI(_ body: [UInt8]) -> Bool {
        guard let final = body.last else { return false }
        let inner = Array(body.dropLast())
        switch final {
        case UInt8(ascii: "c") where inner.first == UInt8(ascii: "?"):
            result.answered = true
            result.deviceAttributes = Self.numbers(inner.dropFirst())
        case UInt8(ascii: "y") where inner.first == UInt8(ascii: "?") && inner.last == UInt8(ascii: "$"):
            let values = Self.numbers(inner.dropFirst().dropLast())
            // 1 set, 2 reset, 3 permanently set; 0 unknown, 4 permanently reset.
            if values.count == 2, values[0] == 2026 {
                result.synchronizedOutput = (1...3).contains(values[1])
            }
        case UInt8(ascii: "t"):
            let values = Self.numbers(inner[...])
            guard values.count == 3, values[1] > 0, values[2] > 0 else { return true }
            let size = TerminalProbeResult.PixelSize(width: values[2], height: values[1])
            if values[0] == 6 { result.cellPixelSize = size }
            if values[0] == 4 { result.windowPixelSize = size }
        default:
            return false
        }
        return true
    }

    /// `i=31;OK` (keys, then the message after the semicolon).
    private mutating func interpretKitty(_ body: [UInt8]) {
        let parts = body.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
        let keys = parts[0].split(separator: UInt8(ascii: ","))
        let id = keys.lazy.compactMap { key -> UInt32? in
            guard key.starts(with: Array("i=".utf8)) else { return nil }
            return UInt32(String(decoding: key.dropFirst(2), as: UTF8.self))
        }.first
        let message = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
        if let placeholderQueryID, id == placeholderQueryID {
            result.kittyPlaceholders = message == "OK"
            return
        }
        guard id == kittyQueryID else { return }
        kittyAnswered = true
        result.kittyGraphics = message == "OK"
    }

    /// `62;4;22` → [62, 4, 22]; empty parameters and anything odd are
    /// skipped; values are capped so a long digit run cannot overflow.
    static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int] {
        bytes.split(separator: UInt8(ascii: ";")).compactMap { part -> Int? in
            guard !part.isEmpty, part.count <= 9,
                  part.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return nil }
            return Int(String(decoding: part, as: UTF8.self))
        }
    }
}
