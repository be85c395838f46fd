import ArgumentParser
import Foundation
import Platform
import Sandbox
import Services

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
    var faultKind: FaultConfiguration.Kind = .status

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
    var hostileCases: [HostileCase] = []

    @Option(name: .customLong("fault-scope"), help: "Which responses can fail: images, rest or all.")
    var faultScope: FaultConfiguration.Scope = .images

    func validate() throws {
        try require(!host.trimmingCharacters(in: .whitespaces).isEmpty, "--host must not be empty.")
        try require((0...65_535).contains(port), "--port must be between 0 and 65535 (0 picks a free port).")
        try require((0...600_000).contains(latencyMilliseconds), "--latency must be between 0 and 600000 milliseconds.")
        try require((throttleKBps ?? 1) >= 1, "--throttle must be at least 1 KiB/s.")
        try require((1...1_000_000).contains(photoCount), "--photos must be between 1 and 1000000.")
        try require(faultRate.isFinite && (0...1).contains(faultRate), "--fault-rate must be a fraction between 0 and 1 (for example 0.1).")
        try require((100...599).contains(faultStatus), "--fault-status must be an HTTP status between 100 and 599.")
        try require((0...600).contains(slowHeadersDelay), "--slow-headers-delay must be between 0 and 600 seconds.")
        try require(faultTimes >= 0, "--fault-times must be 0 (always) or more.")
        try require(apiKey?.isEmpty != true, "--api-key must not be empty.")
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
        configuration.faults.kind = faultKind
        configuration.faults.status = faultStatus
        configuration.faults.times = faultTimes
        configuration.faults.slowHeadersDelay = .seconds(slowHeadersDelay)
        configuration.faults.seed = faultSeed
        configuration.faults.scope = faultScope
        // None named: every case.
        configuration.faults.hostileCases = hostileCases.isEmpty ? HostileCase.allCases : hostileCases

        // Catch the signals before the server starts, so an early Ctrl-C still shuts down cleanly.
        let termination = SignalWatcher.stream(of: [SIGINT, SIGTERM])
        let server = try await worded { try await SandboxServer.start(configuration) }
        // Unbuffered: scripts wait for this line before they connect.
        FileHandle.standardOutput.write(Data("listening on \(server.baseURL.absoluteString)\n".utf8))
        FileHandle.standardOutput.write(Data((configuration.summary(catalogCount: server.catalog.count) + "\n").utf8))
        var received = termination.signals.makeAsyncIterator()
        _ = await received.next()
        termination.watcher?.cancel()
        await server.shutdown()
    }
}
