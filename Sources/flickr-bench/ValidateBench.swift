// `flickr-bench validate`: what the whole-image check costs per file,
// beside a full decode, so its price is a number and not a guess.

import Foundation
import ImageCodecs

func runValidate(_ arguments: Arguments) throws {
    guard !arguments.positional.isEmpty else { throw BenchError.usage("validate needs image files\n\(usage)") }
    let runs = try arguments.positive("--runs", default: 20)
    let files = try arguments.positional.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    // Median over runs of the time for all files, in ms.
    func time(_ body: (Data) throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = wallTime()
            for data in files { try body(data) }
            samples.append(wallTime() - start)
        }
        return median(samples)
    }
    let validate = try time { _ = try ImageDecoder.validate($0) }
    let decode = try time { _ = try ImageDecoder.decode($0) }
    let bytes = files.reduce(0) { $0 + $1.count }
    print(String(format: "validate: %.2f ms for %d files (%d KB), full decode %.2f ms, one core",
                 validate, files.count, bytes / 1024, decode))
}
