import PhotoCore
import Foundation
import Networking

/// A connected service: the providers (the chosen one first), the
/// `NetworkManager`s (one for the API, one for images), and the embedded
/// sandbox when one was started. Call `close()` before exiting.
public struct ServiceConnection: Sendable {
    public let providers: [any PhotoProvider]
    public let registry: ProviderRegistry
    /// `--per-page`, which belongs to the chosen service.
    let chosenPerPage: Int?
    public let network: NetworkManager
    /// Image transfers' own connections, so API calls never wait behind
    /// thumbnails (Openverse and the sandbox serve both from one host). The
    /// pipeline runs no more transfers than this has connections.
    public let images: NetworkManager
    /// What the providers say while they work.
    public let notices: ServiceNotices
    let sandbox: EmbeddedSandbox
    /// Where the sandbox listens, when it was started for the chosen service.
    public let sandboxURL: URL?
    /// Ids of the services answered by the sandbox.
    public let sandboxed: Set<String>
    /// Remarks for the banner (a service left out, and why).
    public let notes: [String]

    public var provider: any PhotoProvider { providers[0] }

    /// Results per page for `service`: `--per-page` for the chosen one, else
    /// the service's default, within what it accepts from this caller.
    public func perPage(for service: any PhotoProvider) -> Int {
        let chosen = service.service == provider.service ? chosenPerPage : nil
        let wanted = chosen ?? registry.descriptor(id: service.service.id)?.defaultPerPage ?? 20
        return min(max(wanted, service.perPageRange.lowerBound), service.perPageRange.upperBound)
    }

    /// The chosen service's registry entry.
    public var descriptor: ProviderDescriptor? { registry.descriptor(id: provider.service.id) }

    /// Whether the chosen service's results are synthetic.
    public var isSandboxed: Bool { sandboxed.contains(provider.service.id) }

    /// The banner: which service, and whether it is synthetic.
    public var banner: String {
        var lines: [String]
        if let sandboxURL, isSandboxed {
            lines = [
                "No \(provider.service.name) credentials: searching the embedded sandbox (synthetic photos, \(sandboxURL.absoluteString)).",
                descriptor?.credentialHint,
                keylessHint(interactive: true),
            ].compactMap { $0 }
        } else {
            lines = ["Searching \(provider.displayName)."]
        }
        return (lines + notes).joined(separator: "\n")
    }

    /// For the scripting modes: one line for stderr when the results are
    /// synthetic (so stdout stays the results alone), or `nil`.
    public var sandboxAnnouncement: String? {
        guard isSandboxed else { return nil }
        return (["flickr: no \(provider.service.name) credentials; using the embedded sandbox (synthetic photos)."]
            + [descriptor?.credentialHint, keylessHint(interactive: false)].compactMap { $0 })
            .joined(separator: " ")
    }

    /// Real photos with no key at all: the services that need none.
    private func keylessHint(interactive: Bool) -> String? {
        let keyless = registry.descriptors.filter(\.needsNoCredentials).map(\.service)
        guard !keyless.isEmpty else { return nil }
        let ways = keyless.map { service in
            interactive ? "/provider \(service.id) (or --provider \(service.id))" : "--provider \(service.id)"
        }
        return "For real photos with no key: \(ProviderRegistry.list(ways, conjunction: "or"))."
    }

    public func close() async {
        await images.shutdown()
        await network.shutdown()
        await sandbox.shutdown()
    }
}
