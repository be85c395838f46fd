import Foundation
import NIOConcurrencyHelpers

/// The sandbox's counters, as `GET /sandbox/stats` reports them (snake_case).
public struct SandboxStats: Sendable, Codable, Equatable {
    public var restRequests = 0
    public var imageRequests = 0
    /// Image body bytes actually handed to the connection.
    public var imageBytes = 0
    /// Responses whose client went away before the body was complete.
    public var abortedResponses = 0
    /// Responses being produced or sent now (not counting `/sandbox/*`).
    public var inFlight = 0
    public var faultsInjected = 0
    /// Unix epoch seconds when the latest aborted response ended.
    public var lastAbortAt: Double?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case restRequests = "rest_requests"
        case imageRequests = "image_requests"
        case imageBytes = "image_bytes"
        case abortedResponses = "aborted_responses"
        case inFlight = "in_flight"
        case faultsInjected = "faults_injected"
        case lastAbortAt = "last_abort_at"
    }
}

/// One request the sandbox served, as `GET /sandbox/log` lists them.
public struct SandboxRequestRecord: Sendable, Codable, Equatable {
    /// Path with query, `api_key` removed.
    public var path: String
    /// "rest", "image" or "other".
    public var kind: String
    public var status: Int
    /// Unix epoch seconds.
    public var startedAt: Double
    /// nil while the response is still being sent.
    public var endedAt: Double?
    public var bytesSent: Int
    public var aborted: Bool
    /// For an image answered 200: the id of the photo it shows (in the
    /// service's own terms) and `SandboxFingerprint` of the bytes sent, so a
    /// test can tell which photo a downloaded file holds.
    public var photo: String?
    public var fingerprint: String?

    public init(
        path: String, kind: String, status: Int, startedAt: Double, endedAt: Double? = nil,
        bytesSent: Int = 0, aborted: Bool = false
    ) {
        self.path = path
        self.kind = kind
        self.status = status
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.bytesSent = bytesSent
        self.aborted = aborted
    }

    enum CodingKeys: String, CodingKey {
        case path, kind, status, aborted, photo, fingerprint
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case bytesSent = "bytes_sent"
    }
}

/// Counters and the request log behind one lock.
final class StatsRecorder: Sendable {
    enum Kind: String { case rest, image, other }

    static let logLimit = 10_000

    /// The log is a ring of the latest `logLimit` records, so appending
    /// never shifts the whole log. Records are addressed by sequence number
    /// (one per request since start), so a finishing response finds its
    /// record, or finds it was dropped.
    private struct State {
        var stats = SandboxStats()
        var ring: [SandboxRequestRecord] = []
        /// Physical index of the oldest record once the ring is full.
        var start = 0
        /// Sequence number of the oldest record in the ring.
        var firstSequence = 0

        func position(of sequence: Int) -> Int? {
            let offset = sequence - firstSequence
            guard offset >= 0, offset < ring.count else { return nil }
            return (start + offset) % StatsRecorder.logLimit
        }
    }

    private let state = NIOLockedValueBox(State())

    /// Counts a new request and returns its log sequence number.
    func begin(path: String, kind: Kind) -> Int {
        let record = SandboxRequestRecord(path: path, kind: kind.rawValue, status: 0, startedAt: Date().timeIntervalSince1970)
        return state.withLockedValue { state in
            switch kind {
            case .rest: state.stats.restRequests += 1
            case .image: state.stats.imageRequests += 1
            case .other: break
            }
            state.stats.inFlight += 1
            if state.ring.count < Self.logLimit {
                state.ring.append(record)
            } else {
                state.ring[state.start] = record
                state.start = (state.start + 1) % Self.logLimit
                state.firstSequence += 1
            }
            return state.firstSequence + state.ring.count - 1
        }
    }

    func setStatus(_ status: Int, sequence: Int) {
        state.withLockedValue { state in
            if let position = state.position(of: sequence) { state.ring[position].status = status }
        }
    }

    func addBytes(_ count: Int, kind: Kind, sequence: Int) {
        state.withLockedValue { state in
            if kind == .image { state.stats.imageBytes += count }
            if let position = state.position(of: sequence) { state.ring[position].bytesSent += count }
        }
    }

    func setImage(photo: String, fingerprint: String, sequence: Int) {
        state.withLockedValue { state in
            guard let position = state.position(of: sequence) else { return }
            state.ring[position].photo = photo
            state.ring[position].fingerprint = fingerprint
        }
    }

    func faultInjected() {
        state.withLockedValue { $0.stats.faultsInjected += 1 }
    }

    /// Ends a response that `begin` counted; `aborted` when the client left early.
    func end(sequence: Int, aborted: Bool) {
        let now = Date().timeIntervalSince1970
        state.withLockedValue { state in
            state.stats.inFlight -= 1
            if aborted {
                state.stats.abortedResponses += 1
                state.stats.lastAbortAt = now
            }
            if let position = state.position(of: sequence) {
                state.ring[position].endedAt = now
                state.ring[position].aborted = aborted
            }
        }
    }

    func snapshot() -> SandboxStats { state.withLockedValue { $0.stats } }

    /// Records in arrival order.
    func log() -> [SandboxRequestRecord] {
        state.withLockedValue { state in Array(state.ring[state.start...]) + Array(state.ring[..<state.start]) }
    }

    /// Zeroes the counters and clears the log; responses still in flight
    /// stay counted in `inFlight`, so it returns to 0 when they end.
    func reset() {
        state.withLockedValue { state in
            let inFlight = state.stats.inFlight
            state.stats = SandboxStats()
            state.stats.inFlight = inFlight
            state.firstSequence += state.ring.count
            state.ring.removeAll(keepingCapacity: true)
            state.start = 0
        }
    }
}

/// A 64-bit FNV-1a of a body, in hex: what the request log records of each
/// image, and what a test computes of a file to find the photo it holds.
public enum SandboxFingerprint {
    public static func of<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
