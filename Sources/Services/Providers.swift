import PhotoCore
import CommonsService
import FlickrService
import OpenverseService
import Sandbox
import ShutterstockService

/// A provider as the whole program knows it: its descriptor (the app), the
/// service the sandbox imitates for it, and the readers Scripts/fuzz feeds.
/// This target links the providers and the sandbox, which know nothing of
/// each other, so the one line that pairs them lives here.
public struct ProviderModule: Sendable {
    public let descriptor: ProviderDescriptor
    public let sandbox: ImitatedService
    public let fuzzEntries: [FuzzEntry]

    public init(_ descriptor: ProviderDescriptor, sandbox: ImitatedService, fuzz fuzzEntries: [FuzzEntry] = []) {
        self.descriptor = descriptor
        self.sandbox = sandbox
        self.fuzzEntries = fuzzEntries
    }

    /// Every provider, one line each, in the order `--help` lists them; the
    /// first is the default. The app, the sandbox, the fuzz harness and the
    /// tests all read this list.
    public static let standard = [
        ProviderModule(FlickrProvider.descriptor, sandbox: .flickr),
        ProviderModule(ShutterstockProvider.descriptor, sandbox: .shutterstock),
        ProviderModule(OpenverseProvider.descriptor, sandbox: .openverse),
        ProviderModule(CommonsProvider.descriptor, sandbox: .commons, fuzz: CommonsProvider.fuzzEntries),
    ]

    /// The services a sandbox serves: one for each provider.
    public static var imitatedServices: [ImitatedService] { standard.map(\.sandbox) }
}

extension ProviderRegistry {
    /// Every provider the app offers (`ProviderModule.standard`).
    public static let standard = ProviderRegistry(ProviderModule.standard.map(\.descriptor))
}

extension SandboxServer {
    /// A sandbox that imitates every provider's service.
    public static func start(_ configuration: SandboxConfiguration) async throws -> SandboxServer {
        try await start(configuration, serving: ProviderModule.imitatedServices)
    }
}
