import ArgumentParser
import Foundation
import Platform
import Sandbox

/// `flickr sandbox`: runs the embedded Flickr-compatible server alone,
/// until SIGINT or SIGTERM.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run the embedded Flickr-compatible server on its own.",
        discussion: """
            Serves the Flickr REST API at /services/rest/ (GET or POST; flickr.photos.search with \
            its licence, date, user, tag and place filters, getRecent, getInfo, getSizes, \
            licenses.getInfo, people.findByUsername, people.getInfo, people.getPublicPhotos, \
            photosets.getList, photosets.getPhotos, galleries.getPhotos, groups.pools.getPhotos, \
            urls.lookupUser, urls.lookupGallery, urls.lookupGroup, flickr.test.echo; XML unless \
            format says otherwise), \
            Shutterstock's GET /v2/images/search and POST /v2/oauth/access_token over the same \
            catalog, Openverse's GET /v1/images/ and POST /v1/auth_tokens/token/ (openly licensed \
            photos only, with thumbnails and images in JPEG, PNG, GIF or WebP), \
            synthetic JPEGs at every size Flickr names, and counters at GET /sandbox/stats, \
            the request log at GET /sandbox/log, POST /sandbox/reset to zero them. \
            API answers are gzip-compressed when the client sends Accept-Encoding: gzip. \
            The first line on stdout is "listening on http://HOST:PORT". \(SandboxCommand.oauthHelp)
            """)

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "Port to listen on; 0 picks a free one.")
    var port = 0

    @Option(name: .customLong("latency"), parsing: .unconditional, help: "Delay before every response, in milliseconds.")
    var latencyMilliseconds = 0

    @Option(name: .customLong("throttle"), parsing: .unconditional, help: "Send each response at most this fast, in KiB/s.")
    var throttleKBps: Int?
    @Option(name: .customLong("link"), parsing: .unconditional, help: "One bandwidth in KiB/s shared by every response in flight, like a slow line.")
    var linkKBps: Int?

    @Option(name: .customLong("photos"), parsing: .unconditional, help: "Number of photos in the synthetic catalog.")
    var photoCount = 20_000

    @Option(help: "Seed of the synthetic catalog (same seed, same photos).")
    var seed: UInt64 = 1

    @Option(name: .customLong("api-key"), help: "Accept only this API key (default: any non-empty key).")
    var apiKey: String?

    @Option(name: .customLong("api-secret"), help: "Consumer secret of Flickr's OAuth (default: \(FlickrOAuthServer.defaultConsumerSecret)).")
    var apiSecret: String?

    @Option(name: .customLong("fault-rate"), parsing: .unconditional, help: "Fraction of URLs (0...1) that fail, chosen by hash of the fault seed and the URL.")
    var faultRate = 0.0

    @Option(name: .customLong("fault"), help: """
        How faulty URLs fail: status, reset, truncate, garbage, stall (headers, then silence until the \
        client gives up), slow-headers (status line after --slow-headers-delay), api-error (Flickr \
        error 105, Shutterstock and Openverse HTTP 503) or hostile (answers valid on the wire and hostile \
        in meaning, drawn from --hostile-case).
        """)
    var faultKind = "status"

    @Option(name: .customLong("slow-headers-delay"), parsing: .unconditional, help: "Seconds before a slow-headers fault answers.")
    var slowHeadersDelay = 10

    @Option(name: .customLong("fault-status"), parsing: .unconditional, help: "HTTP status of the status fault.")
    var faultStatus = 503

    @Option(name: .customLong("fault-times"), parsing: .unconditional, help: "A faulty URL fails its first N requests, then works; 0 = always.")
    var faultTimes = 0

    @Option(name: .customLong("fault-seed"), help: "Seed choosing the faulty URLs.")
    var faultSeed: UInt64 = 1

    @Option(name: .customLong("hostile-case"), help: ArgumentHelp(
        "A case the hostile fault may answer with (repeat for several; default: all of them).",
        discussion: "One of: \(HostileCase.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "name"))
    var hostileCases: [String] = []

    @Option(name: .customLong("fault-scope"), help: "Which responses can fail: images, rest or all.")
    var faultScope = "images"

    func validate() throws {
        guard !host.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--host must not be empty.") }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (0 picks a free port).") }
        guard (0...600_000).contains(latencyMilliseconds) else {
            throw ValidationError("--latency must be between 0 and 600000 milliseconds.")
        }
        if let throttleKBps, throttleKBps < 1 { throw ValidationError("--throttle must be at least 1 KiB/s.") }
        guard (1...1_000_000).contains(photoCount) else { throw ValidationError("--photos must be between 1 and 1000000.") }
        guard faultRate.isFinite, (0...1).contains(faultRate) else {
            throw ValidationError("--fault-rate must be a fraction between 0 and 1 (for example 0.1).")
        }
        guard FaultConfiguration.Kind(rawValue: faultKind) != nil else {
            throw ValidationError("--fault must be one of: \(FaultConfiguration.Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard (100...599).contains(faultStatus) else { throw ValidationError("--fault-status must be an HTTP status between 100 and 599.") }
        guard (0...600).contains(slowHeadersDelay) else {
            throw ValidationError("--slow-headers-delay must be between 0 and 600 seconds.")
        }
        guard faultTimes >= 0 else { throw ValidationError("--fault-times must be 0 (always) or more.") }
        guard FaultConfiguration.Scope(rawValue: faultScope) != nil else {
            throw ValidationError("--fault-scope must be one of: \(FaultConfiguration.Scope.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        for name in hostileCases where HostileCase(rawValue: name) == nil {
            throw ValidationError("Unknown --hostile-case “\(name)”: use one of \(HostileCase.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if let apiKey, apiKey.isEmpty { throw ValidationError("--api-key must not be empty.") }
    }

    func run() async throws {
        var configuration = SandboxConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.latency = .milliseconds(latencyMilliseconds)
        configuration.throttleKBps = throttleKBps
        configuration.linkKBps = linkKBps
        configuration.photoCount = photoCount
        configuration.seed = seed
        configuration.requiredAPIKey = apiKey
        configuration.flickrAPISecret = apiSecret
        configuration.faults.rate = faultRate
        configuration.faults.kind = FaultConfiguration.Kind(rawValue: faultKind) ?? .status
        configuration.faults.status = faultStatus
        configuration.faults.times = faultTimes
        configuration.faults.slowHeadersDelay = .seconds(slowHeadersDelay)
        configuration.faults.seed = faultSeed
        configuration.faults.scope = FaultConfiguration.Scope(rawValue: faultScope) ?? .images
        if !hostileCases.isEmpty { configuration.faults.hostileCases = hostileCases.compactMap(HostileCase.init(rawValue:)) }

        // Catch the signals before the server starts, so an early Ctrl-C still shuts down cleanly.
        let termination = SignalWatcher.stream(of: [SIGINT, SIGTERM])
        let server: SandboxServer
        do {
            server = try await SandboxServer.start(configuration)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        // Unbuffered: scripts wait for this line before they connect.
        FileHandle.standardOutput.write(Data("listening on \(server.baseURL.absoluteString)\n".utf8))
        FileHandle.standardOutput.write(Data((describe(configuration, catalog: server.catalog) + "\n").utf8))
        var received = termination.signals.makeAsyncIterator()
        _ = await received.next()
        termination.watcher?.cancel()
        await server.shutdown()
    }

    private func describe(_ configuration: SandboxConfiguration, catalog: Catalog) -> String {
        var parts = ["catalog: \(catalog.count) photos (seed \(configuration.seed))"]
        parts.append("latency \(latencyMilliseconds) ms")
        parts.append(throttleKBps.map { "throttle \($0) KiB/s" } ?? "no throttle")
        parts.append(apiKey == nil ? "any API key" : "one API key accepted")
        if faultRate > 0 {
            let times = faultTimes == 0 ? "always" : "first \(faultTimes) requests"
            let cases = faultKind == FaultConfiguration.Kind.hostile.rawValue
                ? " (\(hostileCases.isEmpty ? "all \(HostileCase.allCases.count) cases" : hostileCases.joined(separator: ", ")))" : ""
            parts.append("faults: \(faultKind)\(cases) on \(faultRate * 100)% of \(faultScope) URLs (\(times), seed \(faultSeed))")
        } else {
            parts.append("no faults")
        }
        return parts.joined(separator: ", ")
    }
}
