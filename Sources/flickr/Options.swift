import ArgumentParser
import FlickrKit
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

    var descriptor: ProviderDescriptor? { Self.registry.descriptor(id: provider) }

    func validate() throws {
        guard let descriptor else {
            throw ValidationError("Unknown --provider “\(provider)”: use \(Self.registry.idList).")
        }
        if let perPage {
            try NumericRange.check("--per-page", perPage, in: descriptor.perPageRange, on: descriptor.service.name)
        }
        if let apiURL, ServiceConnector.webURL(apiURL) == nil {
            throw ValidationError("--api-url must be an http or https URL (got \"\(apiURL)\").")
        }
        if apiKey != nil, !descriptor.takesAPIKey {
            throw ValidationError("--api-key is not \(descriptor.service.name)'s setting. \(descriptor.credentialHint)")
        }
    }

    /// Results per page for `provider`: `--per-page` for the chosen service,
    /// else the service's default, within what it accepts from this caller.
    func resolvedPerPage(for provider: any PhotoProvider) -> Int {
        let chosen = provider.service.id == self.provider.lowercased() ? perPage : nil
        let wanted = chosen ?? Self.registry.descriptor(id: provider.service.id)?.defaultPerPage ?? 20
        return min(max(wanted, provider.perPageRange.lowerBound), provider.perPageRange.upperBound)
    }

    /// Connects to the chosen service (and, with `alsoOthers`, the others
    /// for `/provider`); a `--per-page` the connected service does not
    /// accept from this caller is refused with its range.
    func connect(
        alsoOthers: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> ServiceConnection {
        let connection: ServiceConnection
        do {
            connection = try await ServiceConnector.connect(
                ServiceChoice(provider: provider, apiKey: apiKey, apiURL: apiURL),
                registry: Self.registry, alsoOthers: alsoOthers, environment: environment)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let range = connection.provider.perPageRange
        if let perPage, !range.contains(perPage) {
            await connection.close()
            throw CommandFailure(message: "\(connection.provider.displayName) accepts \(range.lowerBound)–\(range.upperBound) results per page here (got --per-page \(perPage)).")
        }
        return connection
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
    static func check(_ name: String, _ value: Int, in range: ClosedRange<Int>, on service: String? = nil) throws {
        guard range.contains(value) else {
            let whose = service.map { " on \($0)" } ?? ""
            throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound)\(whose) (got \(value)).")
        }
    }

    static func check(_ name: String, _ value: Int, atLeast minimum: Int) throws {
        guard value >= minimum else {
            throw ValidationError("\(name) must be \(minimum) or more (got \(value)).")
        }
    }
}
