import Downloads
import Foundation
import PhotoCore
import Services

/// libFuzzer's entry for a program that has its own `main`: it parses the
/// options and corpus folders in `argv` and calls `callback` once per input.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// libFuzzer's runtime refers to this symbol even when the driver is started
/// through `LLVMFuzzerRunDriver`; it runs the selected target too.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    FuzzTarget.runSelected(bytes, count)
}

/// One thing fed with fuzzed bytes: code that reads input from outside (a
/// server, a title, the keyboard, an image file).
///
/// `run` must not crash, hang or trip the address sanitizer on any input,
/// and checks the promises its subject makes about the result (sanitised
/// text holds no control characters, and so on); a broken promise is a
/// `fatalError`, which libFuzzer reports as a crash with the input saved.
struct FuzzTarget: Sendable {
    let name: String
    /// Recorded real answers Scripts/fuzz seeds it with, as shell globs
    /// from the package's root.
    var recorded: [String] = []
    /// Seeds beyond the recorded answers.
    let seeds: @Sendable () throws -> [(name: String, bytes: Data)]
    let run: @Sendable (Data) -> Void

    /// The harness's own targets, then every provider's readers as the
    /// provider list carries them: a new provider's are fuzzed without a
    /// line here or in Scripts/fuzz.
    static let all: [FuzzTarget] = [
        FlickrTargets.json, FlickrTargets.jsonp, FlickrTargets.xml, FlickrTargets.details,
        FlickrTargets.shutterstock, ProviderTargets.openverse, ProviderTargets.query, ProviderTargets.link,
        ProviderTargets.retryAfter,
        TerminalTargets.title, TerminalTargets.command, TerminalTargets.jpeg,
    ] + (ProviderModule.standard.flatMap(\.fuzzEntries) + [DownloadFuzzEntries.manifest]).map(FuzzTarget.init(entry:))

    init(name: String, recorded: [String] = [], seeds: @escaping @Sendable () throws -> [(name: String, bytes: Data)],
         run: @escaping @Sendable (Data) -> Void) {
        self.name = name
        self.recorded = recorded
        self.seeds = seeds
        self.run = run
    }

    /// A provider's reader: a broken promise it reports fails the run.
    init(entry: FuzzEntry) {
        self.init(name: entry.name, recorded: entry.recorded, seeds: entry.seeds) { data in
            if let broken = entry.check(data) { fatalError("\(entry.name): \(broken)") }
        }
    }

    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }

    /// Set once by main before libFuzzer starts; libFuzzer calls back on that
    /// one thread only.
    nonisolated(unsafe) static var selected: FuzzTarget?

    static func runSelected(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        guard let selected else { return 0 }
        // No copy: an overread of libFuzzer's exact-size buffer is what the
        // address sanitizer should see.
        let data = bytes.map { Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: count, deallocator: .none) } ?? Data()
        selected.run(data)
        return 0
    }

    func writeSeeds(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for seed in try seeds() {
            try seed.bytes.write(to: folder.appendingPathComponent("seed-" + seed.name))
        }
    }
}

/// Fails the run (libFuzzer saves the input) when a promise is broken.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}

extension Data {
    /// Seeds written as text.
    static func text(_ string: String) -> Data { Data(string.utf8) }
}
