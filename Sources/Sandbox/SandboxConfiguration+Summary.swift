import Foundation

extension SandboxConfiguration {
    /// The line `flickr sandbox` prints after "listening on": the catalog,
    /// the pace, the keys it accepts and the faults it injects.
    public func summary(catalogCount: Int) -> String {
        var parts = ["catalog: \(catalogCount) photos (seed \(seed))"]
        parts.append("latency \(latency.components.seconds * 1_000 + latency.components.attoseconds / 1_000_000_000_000_000) ms")
        parts.append(throttleKBps.map { "throttle \($0) KiB/s" } ?? "no throttle")
        parts.append(requiredAPIKey == nil ? "any API key" : "one API key accepted")
        parts.append(faults.rate > 0 ? faults.summary : "no faults")
        return parts.joined(separator: ", ")
    }
}

extension FaultConfiguration {
    /// "faults: hostile (all 30 cases) on 100.0% of all URLs (always, seed 1)".
    var summary: String {
        let times = times == 0 ? "always" : "first \(times) requests"
        let everyCase = hostileCases.count == HostileCase.allCases.count
        let cases = kind == .hostile
            ? " (\(everyCase ? "all \(HostileCase.allCases.count) cases" : hostileCases.map(\.rawValue).joined(separator: ", ")))" : ""
        return "faults: \(kind.rawValue)\(cases) on \(rate * 100)% of \(scope.rawValue) URLs (\(times), seed \(seed))"
    }
}
