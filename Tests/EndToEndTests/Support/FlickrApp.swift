import Foundation
import Sandbox
import Testing
import TestSupport

/// One isolated run of the real `flickr` binary: its own HOME, state and
/// cache folders (removed afterwards), pointed at a test's sandbox.
struct FlickrApp {
    let home: TemporaryDirectory
    let apiURL: URL
    let apiKey: String

    init(sandbox: SandboxHarness, apiKey: String = "test") throws {
        try self.init(apiURL: sandbox.restURL, apiKey: apiKey)
    }

    /// For a server that is not a sandbox harness (or nothing at all).
    /// Pass `home` to share state and cache with an earlier run.
    init(apiURL: URL, apiKey: String = "test", home: TemporaryDirectory? = nil) throws {
        self.home = try home ?? TemporaryDirectory(prefix: "flickr-e2e")
        self.apiURL = apiURL
        self.apiKey = apiKey
    }

    var stateDirectory: URL { home.url.appendingPathComponent("state", isDirectory: true) }
    var cacheDirectory: URL { home.url.appendingPathComponent("cache", isDirectory: true) }

    /// Nothing inherited from the developer's shell: no FLICKR_* variables,
    /// no real HOME (so no ~/.inputrc or real history), XDG folders in the temp dir.
    var environment: [String: String] {
        var environment = PTYProcess.baseEnvironment()
        environment["HOME"] = home.path
        environment["XDG_STATE_HOME"] = stateDirectory.path
        environment["XDG_CACHE_HOME"] = cacheDirectory.path
        return environment
    }

    /// `--api-url` and `--api-key` for this sandbox.
    var providerArguments: [String] {
        ["--api-url", apiURL.absoluteString, "--api-key", apiKey]
    }

    /// Starts the interactive app in a pty; `responder` answers its
    /// start-up terminal probe (nil: nothing answers). Live search is off
    /// unless `live`: elsewhere a slow echo would let a pause search before
    /// Enter and change the requests a test counts.
    func launch(
        _ arguments: [String] = [], columns: Int = 120, rows: Int = 40,
        responder: TerminalResponder? = nil, extraEnvironment: [String: String] = [:], live: Bool = false
    ) throws -> PTYProcess {
        try PTYProcess(
            executable: try Binaries.flickr, arguments: providerArguments + (live ? [] : ["--live-delay", "0"]) + arguments,
            environment: environment.merging(extraEnvironment) { $1 }, columns: columns, rows: rows,
            responder: responder)
    }

    /// Runs the binary with stdin, stdout and stderr as pipes (no terminal).
    func run(_ arguments: [String], input: String = "", withProvider: Bool = true) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run(
            try Binaries.flickr, arguments: arguments + (withProvider ? providerArguments : []),
            environment: environment, input: input)
    }
}

/// A sandbox like a slow real server: every response waits `latency`.
func sandboxConfiguration(latency: Duration = .milliseconds(40), throttleKBps: Int? = nil, requiredAPIKey: String? = nil) -> SandboxConfiguration {
    var configuration = SandboxConfiguration()
    configuration.latency = latency
    configuration.throttleKBps = throttleKBps
    configuration.requiredAPIKey = requiredAPIKey
    return configuration
}

// MARK: - Driving the interactive app

extension PTYProcess {
    /// Waits until the app is ready for a first command: the first-launch
    /// listing of recent photos has printed its header (not just the
    /// "loading" status line).
    func waitForFirstListing() async throws {
        try await waitFor("the first-launch listing's header (\"page 1 of …\")") { bytes, screen in
            screen.text.contains("recent photos · page 1 of")
        }
    }

    /// Types `line` at the prompt, waits until it shows on the cursor's line
    /// (echoed by readline), then presses Enter.
    func enter(_ line: String) async throws {
        try await type(line)
        try write("\r")
    }

    /// Types `text` at the prompt and waits until readline echoes it on the
    /// cursor's line, without pressing Enter.
    func type(_ text: String) async throws {
        try write(text)
        guard !text.isEmpty else { return }
        try await waitFor("the typed text \(text.debugDescription) on the prompt line") { _, screen in
            screen.lines[screen.cursor.row].contains(text)
        }
    }

    /// Waits for a results header `page P of N (T photos)` in output written
    /// after `mark`, and returns it.
    @discardableResult
    func waitForHeader(page: Int, total: Int? = nil, after mark: Int) async throws -> ResultsHeader {
        var found: ResultsHeader?
        try await waitFor("a results header \"page \(page) of N (T photos)\"") { bytes, _ in
            let text = String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self)
            found = resultsHeaders(in: text).first { $0.page == page && (total == nil || $0.total == total) }
            return found != nil
        }
        guard let found else { throw PTYError.timedOut(waitingFor: "header", transcript: transcript()) }
        return found
    }

    /// Output written after `mark`, decoded.
    func text(since mark: Int) -> String {
        String(decoding: output(since: mark), as: UTF8.self)
    }

    /// Quits with `/quit` and returns the exit status.
    func quit() async throws -> TerminationStatus {
        try await enter("/quit")
        return try await waitForExit()
    }
}

/// A results header as the app prints it: `page P of N (T photos)`.
struct ResultsHeader: Equatable, CustomStringConvertible {
    var page: Int
    var pages: Int
    var total: Int

    var description: String { "page \(page) of \(pages) (\(total) photos)" }
}

/// Every results header in `text`, in order (numbers may carry thousands separators).
func resultsHeaders(in text: String) -> [ResultsHeader] {
    let pattern = #/page (\d[\d,]*) of (\d[\d,]*) \((\d[\d,]*) photos?\)/#
    return text.matches(of: pattern).compactMap { match in
        func number(_ part: Substring) -> Int? { Int(part.filter(\.isNumber)) }
        guard let page = number(match.output.1), let pages = number(match.output.2),
              let total = number(match.output.3) else { return nil }
        return ResultsHeader(page: page, pages: pages, total: total)
    }
}

/// Pages the header may announce for `total` results: every page, or only
/// those the provider serves (Flickr stops at 4,000 results).
func acceptablePageCounts(total: Int, perPage: Int) -> Set<Int> {
    let all = (total + perPage - 1) / perPage
    let served = (min(total, 4_000) + perPage - 1) / perPage
    return [all, served]
}

/// True when a line holds the grid/list label `N title…` for this result:
/// the number, a space, then the start of the title (checked only for plain
/// ASCII titles; others are sanitised or cut in ways the test does not model).
func lineShowsLabel(_ line: String, number: Int, title: String) -> Bool {
    let label = "\(number) "
    let plainTitle = title.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
    let expected = plainTitle && !title.isEmpty ? label + String(title.prefix(8)) : label
    return line.hasPrefix(expected) || line.contains(" " + expected)
}

/// True when any line on screen or in the scrollback shows that label;
/// with `header`, only lines below the last line showing that header count,
/// so an earlier listing's labels (same number, similar title) never match.
func screenShowsLabel(_ screen: TerminalScreen, number: Int, title: String, below header: ResultsHeader? = nil) -> Bool {
    var lines = screen.scrollback + screen.lines
    if let header {
        guard let start = lines.lastIndex(where: { $0.contains(header.description) }) else { return false }
        lines = Array(lines[(start + 1)...])
    }
    return lines.contains { lineShowsLabel($0, number: number, title: title) }
}

/// Every escape sequence in `bytes`, as text (for example `ESC[2K`, `ESC]52;…`).
func escapeSequences(in bytes: [UInt8]) -> [String] {
    var sequences: [String] = []
    var index = 0
    while index < bytes.count {
        guard bytes[index] == 0x1B, index + 1 < bytes.count else {
            index += 1
            continue
        }
        let start = index
        let kind = bytes[index + 1]
        index += 2
        switch kind {
        case UInt8(ascii: "["):
            while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
            index += 1
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
            while index < bytes.count, bytes[index] != 0x07, !(bytes[index] == 0x1B) { index += 1 }
            index += bytes.count > index && bytes[index] == 0x1B ? 2 : 1
        case 0x20...0x2F:
            while index < bytes.count, (0x20...0x2F).contains(bytes[index]) { index += 1 }
            index += 1
        default:
            break
        }
        let end = min(index, bytes.count)
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        sequences.append("ESC" + String(text.dropFirst().prefix(40)))
    }
    return sequences
}

/// Where `bytes` stop being a well-formed terminal stream: an escape
/// sequence cut short (another byte where its next part or its terminator
/// belongs, or the end), or a UTF-8 character cut in half. Empty when every
/// sequence and character is whole.
func brokenSequences(in bytes: [UInt8]) -> [String] {
    var problems: [String] = []
    func report(_ what: String, at start: Int) {
        let shown = String(decoding: bytes[start..<min(start + 24, bytes.count)], as: UTF8.self)
        problems.append("\(what) at byte \(start): \(PTYProcess.visible(shown))")
    }
    var index = 0
    while index < bytes.count {
        let start = index
        let byte = bytes[index]
        if byte == 0x1B {
            guard index + 1 < bytes.count else { report("ESC at the end", at: start); break }
            let kind = bytes[index + 1]
            index += 2
            switch kind {
            case UInt8(ascii: "["):
                while index < bytes.count, (0x30...0x3F).contains(bytes[index]) { index += 1 }
                while index < bytes.count, (0x20...0x2F).contains(bytes[index]) { index += 1 }
                guard index < bytes.count, (0x40...0x7E).contains(bytes[index]) else {
                    report("CSI cut short", at: start)
                    continue
                }
                index += 1
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                // A string ends with ST (ESC \); OSC may end with BEL.
                while index < bytes.count, bytes[index] != 0x1B, !(kind == UInt8(ascii: "]") && bytes[index] == 0x07) {
                    index += 1
                }
                if index < bytes.count, bytes[index] == 0x07 {
                    index += 1
                } else if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") {
                    index += 2
                } else {
                    report("string sequence cut short", at: start)
                }
            case 0x20...0x2F:
                while index < bytes.count, (0x20...0x2F).contains(bytes[index]) { index += 1 }
                guard index < bytes.count, (0x30...0x7E).contains(bytes[index]) else {
                    report("escape cut short", at: start)
                    continue
                }
                index += 1
            case 0x30...0x7E:
                break
            default:
                report("ESC followed by \(kind)", at: start)
            }
        } else if byte >= 0x80 {
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0
            let whole = length > 0 && index + length <= bytes.count
                && bytes[(index + 1)..<(index + length)].allSatisfy { $0 & 0xC0 == 0x80 }
            if !whole { report("UTF-8 character cut short", at: start) }
            index += whole ? length : 1
        } else {
            index += 1
        }
    }
    return problems
}

extension SandboxHarness {
    /// Polls the sandbox's request log until `condition` holds; records an
    /// issue (with `describe` of the log) and throws when it never does.
    func waitForLog(
        _ description: String,
        describe: ([SandboxRequestRecord]) -> String = { $0.suffix(20).map(\.path).joined(separator: "\n") },
        until condition: ([SandboxRequestRecord]) -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: PTYProcess.defaultTimeout)
        while true {
            let log = try await requestLog()
            if condition(log) { return }
            if clock.now >= deadline {
                Issue.record("Timed out waiting for \(description). Log: \(describe(log))")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// A sandbox that signs in only `key` with `secret`, the app on it, and what
/// the app's environment needs for signing in: its config folder in the app's
/// temporary home, and the secret.
func withSignInSandbox(
    key: String, secret: String, _ body: (FlickrApp, SandboxHarness, _ signInEnvironment: [String: String]) async throws -> Void
) async throws {
    var configuration = sandboxConfiguration(latency: .zero, requiredAPIKey: key)
    configuration.flickrAPISecret = secret
    try await SandboxHarness.with(configuration) { sandbox in
        let app = try FlickrApp(sandbox: sandbox, apiKey: key)
        let signIn = ["XDG_CONFIG_HOME": app.home.url.appendingPathComponent("config").path, "FLICKR_API_SECRET": secret]
        try await body(app, sandbox, signIn)
    }
}
