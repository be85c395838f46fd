import Foundation

// libFuzzer owns the command line, so the target comes from FUZZ_TARGET.
// With FUZZ_WRITE_SEEDS=DIR the harness writes the target's built-in seeds
// there and exits (Scripts/fuzz adds the recorded API answers itself).
let environment = ProcessInfo.processInfo.environment
// FUZZ_LIST=1: one line per target, its name and its recorded seeds' globs
// (Scripts/fuzz takes its list from here).
if environment["FUZZ_LIST"] == "1" {
    print(FuzzTarget.all.map { ([$0.name] + $0.recorded).joined(separator: " ") }.joined(separator: "\n"))
    exit(0)
}
guard let name = environment["FUZZ_TARGET"], let target = FuzzTarget.named(name) else {
    let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: FUZZ_TARGET=NAME FuzzHarness [libFuzzer options] [CORPUS...]\ntargets: \(names)\n".utf8))
    exit(2)
}
if let folder = environment["FUZZ_WRITE_SEEDS"] {
    do {
        try target.writeSeeds(to: URL(fileURLWithPath: folder, isDirectory: true))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("cannot write seeds to \(folder): \(error)\n".utf8))
        exit(1)
    }
}
FuzzTarget.selected = target
var argumentCount = CommandLine.argc
var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments) { bytes, count in
    FuzzTarget.runSelected(bytes, count)
})
