import NIOConcurrencyHelpers

/// Image data a kitty-protocol terminal must hold before an image can show:
/// the transmission escape codes, sent once and then referred to by id.
public struct KittyUpload: Sendable, Equatable {
    /// The image id the placement (or the placeholder colour) refers to.
    public let imageID: UInt32
    /// The escape codes, already wrapped for tmux's passthrough when needed.
    let commands: String

    init(imageID: UInt32, commands: String) {
        self.imageID = imageID
        self.commands = commands
    }

    var byteCount: Int { commands.utf8.count }
}

/// Which images this process has sent to the terminal, so each is sent once
/// and shown again by id, and the oldest are deleted when too many pile up.
///
/// Thread-safe (one lock around small state). `commands(showing:)` must be
/// called in the order the output is written, which the page printer
/// guarantees (it prints on the main actor, one job at a time).
final class KittyImageRegistry: Sendable {
    /// Images kept in the terminal at most; past that, the least recently
    /// shown are deleted. Matches the render cache's default entry limit.
    static let defaultLimit = 400

    private struct State {
        var nextID: UInt32
        /// Sent image id → when it was last shown (a logical clock).
        var sent: [UInt32: UInt64] = [:]
        var clock: UInt64 = 0
    }

    let limit: Int
    /// Inside tmux every command goes through its passthrough.
    let passthrough: Bool
    private let state: NIOLockedValueBox<State>

    /// - Parameter firstID: where ids start. Ids share one namespace with
    ///   every other program in the terminal, so the default start is random.
    init(passthrough: Bool, limit: Int = KittyImageRegistry.defaultLimit, firstID: UInt32? = nil) {
        self.passthrough = passthrough
        self.limit = max(1, limit)
        let start = firstID ?? UInt32.random(in: 0x10_0000...0xE0_0000)
        state = NIOLockedValueBox(State(nextID: Self.clamped(start)))
    }

    /// A fresh image id that fits a placeholder's 24-bit colour.
    func makeID() -> UInt32 {
        state.withLockedValue { state in
            let id = state.nextID
            state.nextID = Self.clamped(id &+ 1)
            return id
        }
    }

    /// What to write before output that shows `uploads`: the data of every
    /// image the terminal does not hold yet, then deletions of the least
    /// recently shown images beyond `limit` (never one shown now).
    func commands(showing uploads: [KittyUpload]) -> String {
        guard !uploads.isEmpty else { return "" }
        let (transmit, evicted) = state.withLockedValue { state -> ([KittyUpload], [UInt32]) in
            var transmit: [KittyUpload] = []
            for upload in uploads {
                state.clock += 1
                if state.sent.updateValue(state.clock, forKey: upload.imageID) == nil {
                    transmit.append(upload)
                }
            }
            let excess = state.sent.count - limit
            guard excess > 0 else { return (transmit, []) }
            let shown = Set(uploads.map(\.imageID))
            let oldest = state.sent.filter { !shown.contains($0.key) }
                .sorted { $0.value < $1.value }.prefix(excess).map(\.key)
            for id in oldest { state.sent[id] = nil }
            return (transmit, oldest)
        }
        var output = transmit.map(\.commands).joined()
        for id in evicted { output += wrap(KittyCommand.delete(id: id)) }
        return output
    }

    /// Deletes every image this process sent (on exit, or when the screen
    /// is cleared); afterwards any image shown again is sent again.
    func releaseAll() -> String {
        let ids = state.withLockedValue { state -> [UInt32] in
            defer { state.sent.removeAll() }
            return state.sent.keys.sorted()
        }
        return ids.map { wrap(KittyCommand.delete(id: $0)) }.joined()
    }

    /// Ids the terminal holds now, least recently shown first (for tests).
    var sentIDs: [UInt32] {
        state.withLockedValue { $0.sent.sorted { $0.value < $1.value }.map(\.key) }
    }

    func wrap(_ command: String) -> String {
        passthrough ? KittyCommand.tmuxPassthrough(command) : command
    }

    private static func clamped(_ id: UInt32) -> UInt32 {
        KittyPlaceholder.idRange.contains(id) ? id : KittyPlaceholder.idRange.lowerBound
    }
}
