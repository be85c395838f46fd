import ArgumentParser
import FlickrKit
import Foundation
import Sandbox

extension PhotoService: ExpressibleByArgument {}

/// Which service to talk to, shared by every mode.
///
/// Flickr: `--api-key` (or `FLICKR_API_KEY`), `--api-url` (or
/// `FLICKR_API_URL`). Shutterstock: `SHUTTERSTOCK_API_TOKEN`, or
/// `SHUTTERSTOCK_KEY` and `SHUTTERSTOCK_SECRET`; `--api-url` (or
/// `SHUTTERSTOCK_API_URL`). A service with neither credentials nor a URL is
/// served by the embedded sandbox. Credentials are held in memory only.
struct ProviderOptions: ParsableArguments {
    @Option(help: "Service to search: flickr or shutterstock.")
    var provider: PhotoService = .flickr

    @Option(name: .customLong("api-key"), help: ArgumentHelp(
        "Flickr API key (default: $FLICKR_API_KEY). Without a key or URL the embedded sandbox is used.",
        valueName: "key"))
    var apiKey: String?

    @Option(name: .customLong("api-url"), help: ArgumentHelp(
        "REST endpoint of the chosen service (default: $FLICKR_API_URL or $SHUTTERSTOCK_API_URL, else the service's own).",
        valueName: "url"))
    var apiURL: String?

    @Option(name: .customLong("per-page"), parsing: .unconditional,
            help: "Results per page, 1–500 (default: 30 on Flickr, 20 on Shutterstock).")
    var perPage: Int?

    func validate() throws {
        if let perPage { try NumericRange.check("--per-page", perPage, in: 1...500) }
        if let apiURL, Self.restURL(apiURL) == nil {
            throw ValidationError("--api-url must be an http or https URL (got \"\(apiURL)\").")
        }
        if apiKey != nil, provider != .flickr {
            throw ValidationError("--api-key is Flickr's. For Shutterstock set SHUTTERSTOCK_API_TOKEN, or SHUTTERSTOCK_KEY and SHUTTERSTOCK_SECRET.")
        }
    }

    /// Results per page for `service`.
    func resolvedPerPage(for service: PhotoService) -> Int {
        perPage ?? (service == .shutterstock ? 20 : 30)
    }

    /// Connects to the chosen service, starting the embedded sandbox when it
    /// has no credentials or URL. With `alsoOthers`, the other services are
    /// connected too (for `/provider`); one that cannot be set up is left
    /// out with a note rather than failing the app.
    func connect(
        alsoOthers: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> ServiceConnection {
        let network = NetworkManager()
        var connector = ServiceConnector(options: self, environment: environment, network: network)
        do {
            let chosen = try await connector.provider(for: provider)
            var providers = [chosen]
            if alsoOthers {
                for service in PhotoService.allCases where service != provider {
                    do {
                        providers.append(try await connector.provider(for: service, deferred: true))
                    } catch {
                        connector.notes.append("/provider \(service.rawValue) is unavailable: \(userMessage(for: error))")
                    }
                }
            }
            return ServiceConnection(
                providers: providers, network: network, sandbox: connector.sandbox,
                sandboxURL: await connector.sandbox.started?.baseURL,
                sandboxed: connector.sandboxed, notes: connector.notes)
        } catch {
            await connector.sandbox.shutdown()
            await network.shutdown()
            if let error = error as? ValidationError { throw error }
            if let error = error as? CommandFailure { throw error }
            throw CommandFailure(message: userMessage(for: error))
        }
    }

    static func restURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        return url
    }
}

/// A connected service: the providers (the chosen one first), the one
/// `NetworkManager`, and the embedded sandbox when one was started. Call
/// `close()` before exiting.
struct ServiceConnection: Sendable {
    let providers: [any PhotoProvider]
    let network: NetworkManager
    let sandbox: EmbeddedSandbox
    /// Where the sandbox listens, when it was started for the chosen service.
    let sandboxURL: URL?
    /// Services answered by the sandbox.
    let sandboxed: Set<PhotoService>
    /// Remarks for the banner (a service left out, and why).
    let notes: [String]

    var provider: any PhotoProvider { providers[0] }

    /// The banner: which service, and whether it is synthetic.
    var banner: String {
        var lines: [String]
        if let sandboxURL, sandboxed.contains(provider.service) {
            lines = [
                "No \(provider.service.name) credentials: searching the embedded sandbox (synthetic photos, \(sandboxURL.absoluteString)).",
                Self.howToUseTheRealService(provider.service),
            ]
        } else {
            lines = ["Searching \(provider.displayName)."]
        }
        return (lines + notes).joined(separator: "\n")
    }

    /// For the scripting modes: one line on stderr when the results are
    /// synthetic, so stdout stays the results alone.
    func announceSandbox() {
        guard sandboxed.contains(provider.service) else { return }
        let line = "flickr: no \(provider.service.name) credentials; using the embedded sandbox (synthetic photos). "
            + Self.howToUseTheRealService(provider.service) + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func howToUseTheRealService(_ service: PhotoService) -> String {
        switch service {
        case .flickr: "Set FLICKR_API_KEY or pass --api-key to search Flickr."
        case .shutterstock: "Set SHUTTERSTOCK_API_TOKEN (or SHUTTERSTOCK_KEY and SHUTTERSTOCK_SECRET) to search Shutterstock."
        case .openverse: "Openverse needs no key; OPENVERSE_CLIENT_ID and OPENVERSE_CLIENT_SECRET allow larger pages."
        }
    }

    func close() async {
        await network.shutdown()
        await sandbox.shutdown()
    }
}

/// Out-of-range numbers say what the range is.
enum NumericRange {
    static func check(_ name: String, _ value: Int, in range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound) (got \(value)).")
        }
    }

    static func check(_ name: String, _ value: Int, atLeast minimum: Int) throws {
        guard value >= minimum else {
            throw ValidationError("\(name) must be \(minimum) or more (got \(value)).")
        }
    }
}
