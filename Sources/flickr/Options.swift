import ArgumentParser
import PhotoCore
import Foundation
import Services

/// Which service to talk to, shared by every mode. What each service needs
/// (credentials, endpoint variable, page sizes) comes from the registry.
/// A service with neither credentials nor a URL is served by the embedded
/// sandbox. Credentials are held in memory only.
struct ProviderOptions: ParsableArguments {
    static let registry = ProviderRegistry.standard

    @Option(help: ArgumentHelp("Service to search: \(registry.idList).", valueName: "name"))
    var provider: String = registry.ids[0]

    @Option(name: .customLong("api-key"), help: ArgumentHelp(
        "Flickr API key (default: $FLICKR_API_KEY). Without a key or URL the embedded sandbox is used.",
        valueName: "key"))
    var apiKey: String?

    @Option(name: .customLong("api-url"), help: ArgumentHelp(
        "API address of the chosen service (default: \(registry.descriptors.map { "$" + $0.endpointVariable }.joined(separator: ", ")), else the service's own).",
        valueName: "url"))
    var apiURL: String?

    @Option(name: .customLong("per-page"), parsing: .unconditional, help: ArgumentHelp(
        "Results per page (default: \(registry.descriptors.map { "\($0.defaultPerPage) on \($0.service.name)" }.joined(separator: ", "))).",
        valueName: "n"))
    var perPage: Int?

    var choice: ServiceChoice { ServiceChoice(provider: provider, apiKey: apiKey, apiURL: apiURL, perPage: perPage) }

    func validate() throws {
        do {
            _ = try choice.descriptor(in: Self.registry)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Connects to the chosen service (and, with `alsoOthers`, the others
    /// for `/provider`).
    func connect(
        alsoOthers: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> ServiceConnection {
        do {
            return try await ServiceConnector.connect(
                choice, registry: Self.registry, alsoOthers: alsoOthers, environment: environment)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }
}

extension ServiceConnection {
    /// For the scripting modes: one line on stderr when the results are
    /// synthetic, so stdout stays the results alone.
    func announceSandbox() {
        guard let line = sandboxAnnouncement else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
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
