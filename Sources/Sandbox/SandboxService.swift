import Foundation

/// One imitated service: the routes it answers, built from what every
/// service shares. A service lives in a folder of its own and names itself
/// as an `ImitatedService`; the app's one provider list says which run.
protocol SandboxService: Sendable {
    init(_ shared: SandboxShared)
    /// Its routes, tried in this order (API routes before image routes, over all services).
    var routes: [SandboxRoute] { get }
}

/// A service the sandbox can imitate, as the list of providers names it
/// beside the provider it stands in for. Which services a sandbox serves is
/// told at start (`SandboxServer.start(_:serving:)`): the sandbox keeps no
/// list of its own, so a new service is its folder and that one line.
public struct ImitatedService: Sendable {
    /// Its name in logs and tests: the provider's id.
    public let name: String
    /// Where the app's `--api-url` points for this service, relative to the
    /// sandbox's base URL ("" for the base itself).
    public let apiPath: String
    let make: @Sendable (SandboxShared) -> any SandboxService

    init<Service: SandboxService>(_ service: Service.Type, name: String, apiPath: String) {
        self.name = name
        self.apiPath = apiPath
        make = { Service($0) }
    }

    /// The address to give the app for this service on a sandbox at `base`.
    public func apiURL(base: URL) -> URL {
        apiPath.isEmpty ? base : base.appendingPathComponent(apiPath, isDirectory: apiPath.hasSuffix("/"))
    }
}

/// What every service's routes are built from: one catalog, searched the
/// same way, drawn by one renderer.
struct SandboxShared: Sendable {
    let configuration: SandboxConfiguration
    let catalog: Catalog
    let searches: SearchCache
    let images: SandboxImages
}
