import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Networking
import Sandbox
import Services
import Testing
import TestSupport

/// `flickr sandbox --fault hostile` as its own process, every URL faulty,
/// drawing from `cases`; stopped with SIGINT when the test is done.
final class HostileSandbox: Sendable {
    let process: PTYProcess
    let baseURL: URL
    private let network = NetworkManager(configuration: .testing)

    init(cases: [HostileCase], seed: Int = 1) async throws {
        var arguments = ["sandbox", "--port", "0", "--photos", "3000", "--fault", "hostile", "--fault-rate", "1",
                         "--fault-scope", "all", "--fault-seed", "\(seed)"]
        if cases.count < HostileCase.allCases.count { arguments += cases.flatMap { ["--hostile-case", $0.rawValue] } }
        process = try PTYProcess(executable: try Binaries.flickr, arguments: arguments, environment: PTYProcess.baseEnvironment())
        try await process.waitFor(text: "faults: hostile")
        let line = process.outputText.split(whereSeparator: \.isNewline).first { $0.hasPrefix("listening on ") }
        baseURL = try #require(line.flatMap { URL(string: String($0.dropFirst("listening on ".count))) })
    }

    /// The request log, read over HTTP as any outside tool reads it.
    func log() async throws -> [SandboxRequestRecord] {
        let body = try await network.get(baseURL.appendingPathComponent("sandbox/log")).body
        return try JSONDecoder().decode([SandboxRequestRecord].self, from: body)
    }

    /// The base URL without a trailing slash.
    var root: String {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    func stop() async {
        process.send(signal: SIGINT)
        _ = try? await process.waitForExit()
        await network.shutdown()
    }

    /// Runs `body` with a started hostile sandbox, always stopping it.
    static func with<T>(_ cases: [HostileCase], seed: Int = 1, _ body: (HostileSandbox) async throws -> T) async throws -> T {
        let sandbox = try await HostileSandbox(cases: cases, seed: seed)
        do {
            let result = try await body(sandbox)
            await sandbox.stop()
            return result
        } catch {
            await sandbox.stop()
            throw error
        }
    }
}

/// Every provider in the provider list, each with the arguments and
/// environment that point the real binary at the sandbox's imitation of its
/// service: a new provider meets the hostile server without a line here.
struct HostileProvider: Sendable, Equatable, CustomTestStringConvertible {
    let module: ProviderModule

    static let allCases = ProviderModule.standard.map(HostileProvider.init)
    /// Flickr, whose people and albums some tests list.
    static var flickr: HostileProvider { allCases.first { $0.rawValue == "flickr" } ?? allCases[0] }

    var rawValue: String { module.descriptor.service.id }
    var testDescription: String { rawValue }

    static func == (lhs: HostileProvider, rhs: HostileProvider) -> Bool { lhs.rawValue == rhs.rawValue }

    func arguments(_ sandbox: HostileSandbox) -> [String] {
        ["--provider", rawValue, "--api-url", module.sandbox.apiURL(base: sandbox.baseURL).absoluteString]
    }

    /// A credential for a service that needs one: the sandbox takes any.
    var environment: [String: String] {
        guard !module.descriptor.needsNoCredentials, let variable = module.descriptor.credentialVariables.first else { return [:] }
        return [variable: "hostile"]
    }
}

extension FlickrApp {
    /// Runs the binary with pipes against `provider` on a hostile sandbox.
    func run(_ arguments: [String], on provider: HostileProvider, _ sandbox: HostileSandbox) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run(
            try Binaries.flickr, arguments: arguments + provider.arguments(sandbox),
            environment: environment.merging(provider.environment) { $1 })
    }
}

// MARK: - What must hold whatever the server says

/// "no crash": an exit, not a signal, below 128.
func expectNoCrash(_ status: TerminationStatus?, _ what: String, item: String, transcript: @autoclosure () -> String,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    let crashed: Bool
    switch status {
    case .exited(let code): crashed = code >= 128 || code < 0
    case .signalled: crashed = true
    case nil: crashed = false
    }
    #expect(!crashed, "\(item): \(what) crashed (\(status.map(\.description) ?? "running"))\n\(transcript())",
            sourceLocation: sourceLocation)
}

/// Every non-empty stdout line of a `--json` run is a JSON object.
func expectJSONLines(_ result: ProcessRunner.Result, _ what: String, item: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for line in result.outputText.split(separator: "\n") where !line.isEmpty {
        let parsed = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        #expect(parsed != nil, "\(item): \(what) wrote a --json line that does not parse: \(line.prefix(200))",
                sourceLocation: sourceLocation)
    }
}

/// Characters a server's text must never carry to a terminal or a file a
/// person reads: C0 controls but line feed and tab (and the backspace,
/// carriage return and ESC of the app's own editing, checked separately),
/// DEL, C1 controls, bidirectional controls, zero-width and tag characters.
func forbiddenScalars(in text: String, allowing allowed: Set<UInt32> = [0x0A, 0x09]) -> [String] {
    var found: Set<String> = []
    for scalar in text.unicodeScalars {
        let value = scalar.value
        let bad = (value < 0x20 && !allowed.contains(value)) || (0x7F...0x9F).contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
            || value == 0x061C || (0x200B...0x200D).contains(value) || value == 0x2060 || value == 0xFEFF
            || (0xE0000...0xE007F).contains(value) || value == 0xFFFE || value == 0xFFFF
        if bad { found.insert(String(format: "U+%04X", value)) }
    }
    return found.sorted()
}

/// Terminal output carries no sequence a hostile text holds: the app's own
/// escape sequences are CSI (editing, colours) and cursor save/restore,
/// never OSC, DCS, full clears or alternate screens, nor a hostile title's
/// exact sequence, nor a raw C0, C1, bidi or invisible character.
func hostileTerminalSequences(in bytes: [UInt8]) -> [String] {
    var found: [String] = []
    for sequence in escapeSequences(in: bytes) {
        if sequence.hasPrefix("ESC]") || sequence.hasPrefix("ESCP") || sequence.hasPrefix("ESC[2J")
            || sequence.hasPrefix("ESC[?1049") {
            found.append(sequence)
        }
    }
    // The app saves and restores the cursor itself (the live line); a
    // title's own sequences are found by their bytes.
    for sample in HostileCase.escapeSequences.samples + HostileCase.c1Controls.samples {
        let raw = Array(sample.utf8)
        if bytes.firstRange(of: raw) != nil { found.append("a title's own \(PTYProcess.visible(sample))") }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    // Readline moves with BS and CR; a bare BEL, VT, FF, SO, SI, NUL or DEL is the server's.
    found += forbiddenScalars(in: text, allowing: [0x0A, 0x09, 0x0D, 0x08, 0x1B])
    return Array(Set(found)).sorted()
}

/// A strict XML 1.0 parse.
func isWellFormedXML(_ data: Data) -> Bool { XMLParser(data: data).parse() }

/// Peak resident memory of a running process, in bytes (VmHWM).
func peakResidentBytes(of pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "").map { $0 * 1024 }
}
