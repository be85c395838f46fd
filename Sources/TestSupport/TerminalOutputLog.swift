/// The graphics-related escape sequences in a program's raw output, in
/// order: kitty graphics commands (APC `ESC _ G`), other DCS strings (sixels
/// and the like) and synchronized-output brackets (`ESC[?2026h/l`). The
/// screen model skips these; tests that count bytes on the wire read them here.
public struct TerminalOutputLog: Sendable {
    public enum Event: Sendable, Equatable {
        /// A kitty command: its control keys and the size of its payload.
        case kitty(keys: [String: String], payloadBytes: Int)
        /// A DCS string (`ESC P`), by the bytes it took.
        case deviceControl(bytes: Int)
        /// `ESC[?2026h` (true) or `ESC[?2026l` (false).
        case synchronizedUpdate(begin: Bool)
    }

    public private(set) var events: [Event] = []

    public init(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B, index + 1 < bytes.count else {
                index += 1
                continue
            }
            let kind = bytes[index + 1]
            if kind == UInt8(ascii: "_") || kind == UInt8(ascii: "P") {
                // Strings end at ESC \ (kitty and sixel both use ST).
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
                let body = Array(bytes[(index + 2)..<min(end, bytes.count)])
                if kind == UInt8(ascii: "_"), body.first == UInt8(ascii: "G") {
                    events.append(Self.kittyEvent(Array(body.dropFirst())))
                } else if kind == UInt8(ascii: "P") {
                    events.append(.deviceControl(bytes: end + 2 - index))
                }
                index = end + 2
            } else if kind == UInt8(ascii: "["), bytes[(index + 2)...].starts(with: Array("?2026".utf8)),
                      index + 7 < bytes.count {
                let final = bytes[index + 7]
                if final == UInt8(ascii: "h") || final == UInt8(ascii: "l") {
                    events.append(.synchronizedUpdate(begin: final == UInt8(ascii: "h")))
                }
                index += 8
            } else {
                index += 2
            }
        }
    }

    private static func kittyEvent(_ body: [UInt8]) -> Event {
        let parts = body.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
        var keys: [String: String] = [:]
        for pair in parts[0].split(separator: UInt8(ascii: ",")) {
            let keyValue = pair.split(separator: UInt8(ascii: "="), maxSplits: 1)
            if keyValue.count == 2 {
                keys[String(decoding: keyValue[0], as: UTF8.self)] = String(decoding: keyValue[1], as: UTF8.self)
            }
        }
        return .kitty(keys: keys, payloadBytes: parts.count > 1 ? parts[1].count : 0)
    }

    /// Kitty commands whose action (`a`) is `action`; chunks after the first
    /// carry no action and are not counted.
    public func kittyCommands(action: String) -> [[String: String]] {
        events.compactMap { event in
            if case .kitty(let keys, _) = event, keys["a"] == action { return keys }
            return nil
        }
    }

    /// Synchronized-output brackets, in order.
    public var synchronizedUpdates: [Bool] {
        events.compactMap { event in
            if case .synchronizedUpdate(let begin) = event { return begin }
            return nil
        }
    }
}
