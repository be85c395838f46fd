import Foundation

/// One imitated service: the routes it answers, built from what every
/// service shares. A service lives in a folder of its own; adding one is
/// that folder and a line in `SandboxServices.all`.
protocol SandboxService: Sendable {
    init(_ shared: SandboxShared)
    /// Its routes, tried in this order (API routes before image routes, over all services).
    var routes: [SandboxRoute] { get }
}

/// The services the sandbox imitates, each registered by one line.
enum SandboxServices {
    static let all: [any SandboxService.Type] = [
        FlickrSandbox.self,
        ShutterstockSandbox.self,
        OpenverseSandbox.self,
        CommonsSandbox.self,
    ]
}

/// What every service's routes are built from: one catalog, searched the
/// same way, drawn by one renderer.
struct SandboxShared: Sendable {
    let configuration: SandboxConfiguration
    let catalog: Catalog
    let searches: SearchCache
    let images: SandboxImages
}
