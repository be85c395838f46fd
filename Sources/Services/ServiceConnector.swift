import PhotoCore
import Foundation
import Networking
import Sandbox

/// What the person chose: a service by id, and the command line's
/// `--api-key` and `--api-url` (both belong to the chosen service).
public struct ServiceChoice: Sendable {
    public var provider: String
    public var apiKey: String?
    public var apiURL: String?
    /// Results per page asked for the chosen service (`--per-page`).
    public var perPage: Int?

    public init(provider: String, apiKey: String? = nil, apiURL: String? = nil, perPage: Int? = nil) {
        self.provider = provider
        self.apiKey = apiKey
        self.apiURL = apiURL
        self.perPage = perPage
    }

    /// The chosen service's entry, once the choice is checked as far as the
    /// registry can tell before anything starts.
    ///
    /// - Throws: `ServiceSetupError` with a sentence: an unknown service, a
    ///   page size it never accepts, an address that is not http(s), or an
    ///   API key for a service that takes none.
    public func descriptor(in registry: ProviderRegistry) throws(ServiceSetupError) -> ProviderDescriptor {
        guard let descriptor = registry.descriptor(id: provider) else {
            throw ServiceSetupError("Unknown --provider “\(provider)”: use \(registry.idList).")
        }
        let range = descriptor.perPageRange
        if let perPage, !range.contains(perPage) {
            throw ServiceSetupError(
                "--per-page must be between \(range.lowerBound) and \(range.upperBound) on \(descriptor.service.name) (got \(perPage)).")
        }
        if let apiURL, ServiceConnector.webURL(apiURL) == nil {
            throw ServiceSetupError("--api-url must be an http or https URL (got “\(ResponseExcerpt.make(apiURL, limit: 60))”).")
        }
        if apiKey != nil, !descriptor.takesAPIKey {
            throw ServiceSetupError("--api-key is not \(descriptor.service.name)'s setting. \(descriptor.credentialHint)")
        }
        return descriptor
    }
}

/// A choice that cannot be connected, worded for a person.
public struct ServiceSetupError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Builds providers from the registry, the choice and the environment.
/// Services without credentials or URL are served by the one embedded
/// sandbox: started now for the chosen service, and on first use for the
/// others, so a launch never pays for a server it does not use.
public enum ServiceConnector {
    /// Connects to the chosen service. With `alsoOthers`, the others are
    /// connected too (for `/provider`); one that cannot be set up is left
    /// out with a note rather than failing the app.
    public static func connect(
        _ choice: ServiceChoice,
        registry: ProviderRegistry = .standard,
        alsoOthers: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(ServiceSetupError) -> ServiceConnection {
        let chosen = try choice.descriptor(in: registry)
        let network = NetworkManager()
        let notices = ServiceNotices()
        let sandbox = EmbeddedSandbox()
        var sandboxed: Set<String> = []
        var notes: [String] = []
        do {
            let first = try await provider(
                chosen, choice: choice, network: network, notices: notices, sandbox: sandbox, deferred: false,
                sandboxed: &sandboxed, environment: environment)
            // The service may accept less from this caller than the registry's range (Openverse without a token).
            let accepted = first.perPageRange
            if let perPage = choice.perPage, !accepted.contains(perPage) {
                // When credentials would allow it, say which (Openverse's client id and secret).
                let more = chosen.perPageRange.contains(perPage) ? " " + chosen.credentialHint : ""
                throw ServiceSetupError(
                    "\(first.displayName) accepts \(accepted.lowerBound)–\(accepted.upperBound) results per page here (got --per-page \(perPage)).\(more)")
            }
            var providers = [first]
            if alsoOthers {
                for other in registry.descriptors where other.service != chosen.service {
                    do {
                        providers.append(try await provider(
                            other, choice: nil, network: network, notices: notices, sandbox: sandbox, deferred: true,
                            sandboxed: &sandboxed, environment: environment))
                    } catch {
                        notes.append("/provider \(other.service.id) is unavailable: \(userMessage(for: error))")
                    }
                }
            }
            // Twice the pipeline's usual six: as many again may be set aside
            // as stalled while healthy ones go on.
            var images = NetworkManager.Configuration()
            images.connectionsPerHost = 12
            return ServiceConnection(
                providers: providers, registry: registry, chosenPerPage: choice.perPage, network: network,
                images: NetworkManager(configuration: images), notices: notices, sandbox: sandbox,
                sandboxURL: await sandbox.started?.baseURL, sandboxed: sandboxed, notes: notes)
        } catch {
            await sandbox.shutdown()
            await network.shutdown()
            throw error as? ServiceSetupError ?? ServiceSetupError(userMessage(for: error))
        }
    }

    /// One provider: the service, a server the person named, or the sandbox.
    private static func provider(
        _ descriptor: ProviderDescriptor, choice: ServiceChoice?, network: NetworkManager, notices: ServiceNotices,
        sandbox: EmbeddedSandbox,
        deferred: Bool, sandboxed: inout Set<String>, environment: [String: String]
    ) async throws -> any PhotoProvider {
        // --api-url belongs to the chosen service; the others read their variable.
        let urlText = choice?.apiURL ?? nonEmpty(environment[descriptor.endpointVariable])
        var apiURL: URL?
        if let urlText {
            guard let url = webURL(urlText) else {
                let setting = choice?.apiURL != nil ? "--api-url" : descriptor.endpointVariable
                throw ServiceSetupError("\(setting) must be an http or https URL (got “\(ResponseExcerpt.make(urlText, limit: 60))”).")
            }
            apiURL = url
        }
        let setup = ProviderSetup(
            environment: environment, apiKey: choice?.apiKey, apiURL: apiURL, network: network, notices: notices)
        let apiKey = choice?.apiKey
        switch try descriptor.connect(setup) {
        case .remote(let provider):
            return FlickrStoredSignIn.attach(to: provider, apiKey: apiKey, environment: environment)
        case .sandbox(let make):
            sandboxed.insert(descriptor.service.id)
            let start: @Sendable () async throws -> any PhotoProvider = {
                FlickrStoredSignIn.attach(to: make(try await sandbox.server().baseURL), apiKey: apiKey, environment: environment)
            }
            guard deferred else { return try await start() }
            // Built at an address nothing is sent to, it answers what needs no
            // server (its links, what it can do) before the sandbox starts.
            return DeferredProvider(unstarted: make(unstartedSandboxURL), make: start)
        }
    }

    /// Where a deferred sandbox provider points before the sandbox runs: a
    /// reserved name (RFC 2606) that never resolves.
    static let unstartedSandboxURL = URL(string: "http://sandbox.invalid/")!

    /// An http or https URL with a host, or `nil`.
    public static func webURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        return url
    }

    private static func nonEmpty(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }
}
