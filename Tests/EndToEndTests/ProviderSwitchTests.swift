import Foundation
import Networking
import PhotoCore
import Sandbox
import Services
import Testing
import TestSupport

extension EndToEnd {
    /// Every provider keeps every capability through every `/provider`
    /// switch, with no credentials: those that need credentials on the
    /// embedded sandbox (started on first use when not chosen at launch),
    /// those that need none on the harness's. The providers, and what each
    /// can do, come from the provider list: a new provider is walked
    /// without a line here.
    @Suite("Switching providers")
    struct ProviderSwitch {
        /// What a provider is shown as and can do, as the provider itself
        /// says when built the way the app builds it.
        struct Target: Sendable {
            let id: String
            let displayName: String
            /// The sentence `/recent` answers when it has no recent photos.
            let noRecent: String?
            /// The sentence `/user` answers when it has no photostreams.
            let noPeople: String?
            /// Whether it reads Flickr's links (pasted at the prompt).
            let readsFlickrLinks: Bool
        }

        static let ids = ProviderModule.standard.map(\.descriptor.service.id)

        /// From each launch, a walk that takes every ordered pair of
        /// providers once (an Euler circuit of the complete directed graph),
        /// rotated to start at the launch's provider.
        static let walks: [[String]] = {
            let circuit = Array(eulerCircuit(ids.count).dropLast())
            return ids.indices.map { start in
                let first = circuit.firstIndex(of: start) ?? 0
                let rotated = Array(circuit[first...] + circuit[..<first])
                return (rotated + [rotated[0]]).map { ids[$0] }
            }
        }()

        /// Hierholzer's walk over every edge of the complete directed graph
        /// on `count` vertices, from vertex 0 back to it.
        static func eulerCircuit(_ count: Int) -> [Int] {
            var unused = (0..<count).map { from in (0..<count).filter { $0 != from } }
            var path = [0]
            var circuit: [Int] = []
            while let vertex = path.last {
                if let next = unused[vertex].popLast() {
                    path.append(next)
                } else {
                    circuit.append(path.removeLast())
                }
            }
            return circuit.reversed()
        }

        /// The walks above cover every ordered pair: a table that forgot one
        /// would leave a switch untested.
        @Test func theWalksTakeEveryOrderedPair() {
            #expect(Self.ids.count >= 4, "the provider list lost providers: \(Self.ids)")
            #expect(Self.walks.count == Self.ids.count)
            for walk in Self.walks {
                let pairs = Set(zip(walk, walk.dropFirst()).map { "\($0)→\($1)" })
                let wanted = Set(Self.ids.flatMap { from in Self.ids.filter { $0 != from }.map { "\(from)→\($0)" } })
                #expect(pairs == wanted)
                #expect(walk.count == wanted.count + 1)
            }
        }

        /// Each provider as the app will show it: those that need no
        /// credentials at the harness's imitation of their service, the
        /// others on a sandbox of their own.
        static func targets(sandbox: URL) async throws -> (targets: [String: Target], environment: [String: String]) {
            // Built, never asked: no request is sent.
            let network = NetworkManager(configuration: .testing)
            let built = Result { () throws -> ([String: Target], [String: String]) in
                try targets(sandbox: sandbox, network: network)
            }
            await network.shutdown()
            return try built.get()
        }

        private static func targets(sandbox: URL, network: NetworkManager) throws -> ([String: Target], [String: String]) {
            var targets: [String: Target] = [:]
            var environment: [String: String] = [:]
            for module in ProviderModule.standard {
                let descriptor = module.descriptor
                let apiURL = descriptor.needsNoCredentials ? module.sandbox.apiURL(base: sandbox) : nil
                if let apiURL { environment[descriptor.endpointVariable] = apiURL.absoluteString }
                let setup = ProviderSetup(environment: [:], apiKey: nil, apiURL: apiURL, network: network)
                let provider: any PhotoProvider = switch try descriptor.connect(setup) {
                case .remote(let provider): provider
                case .sandbox(let make): make(sandbox)
                }
                let flickrLink = "https://www.flickr.com/photos/\(SandboxWellKnown.pathAlias)/"
                let readsFlickrLinks = if case .link = provider.capabilities.links.available?.readLink(flickrLink) { true } else { false }
                targets[descriptor.service.id] = Target(
                    id: descriptor.service.id, displayName: provider.displayName,
                    noRecent: provider.capabilities.recent.unsupportedSentence.map(firstClause),
                    noPeople: provider.capabilities.collections.unsupportedSentence.map(firstClause),
                    readsFlickrLinks: readsFlickrLinks)
            }
            return (targets, environment)
        }

        /// A sentence up to its first `;` or `:` (what fits on one status line).
        static func firstClause(_ sentence: String) -> String {
            String(sentence.prefix { $0 != ";" && $0 != ":" }.prefix(48))
        }

        @Test(arguments: walks)
        func everyProviderKeepsEveryCapabilityThroughEverySwitch(_ walk: [String]) async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let (targets, endpoints) = try await Self.targets(sandbox: sandbox.baseURL)
                let steps = try walk.map { try #require(targets[$0]) }
                let process = try PTYProcess(
                    executable: try Binaries.flickr,
                    arguments: ["--provider", walk[0], "--live-delay", "0", "--layout", "list", "--images", "none"],
                    environment: app.environment.merging(endpoints) { $1 }, columns: 120, rows: 40)
                try await process.waitFor(text: "/help")
                try await use(steps[0], in: process)
                for (from, target) in zip(steps, steps.dropFirst()) {
                    let mark = process.mark()
                    try await process.enter("/provider \(target.id)")
                    // A switch repeats what was shown (a search, recent photos) or says it
                    // cannot: wait for that to settle, or a search typed next races it.
                    try await process.waitFor("switching \(from.id) → \(target.id)") { bytes, _ in
                        let after = String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self)
                        return after.contains("Now searching \(target.displayName)")
                            && (["· page 1 of", "Type words to search"] + [target.noRecent].compactMap { $0 }).contains { after.contains($0) }
                    }
                    try await use(target, in: process)
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        /// Search, recent, details, people and albums, and link reading,
        /// each where the target has it (its own sentence where not).
        private func use(_ target: Target, in process: PTYProcess) async throws {
            func expect(_ command: String, shows wanted: String) async throws {
                let mark = process.mark()
                try await process.enter(command)
                try await process.waitFor("\(target.id): \(command) → \(wanted)") { bytes, _ in
                    String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self).contains(wanted)
                }
            }
            try await expect("kittens", shows: "\(target.displayName) · “kittens” · page 1 of")
            try await expect("/open 1", shows: "#1 ")
            try await expect("/recent", shows: target.noRecent ?? "recent photos · page 1 of")
            let person = "photos of \(SandboxWellKnown.realName) · page 1 of"
            if let noPeople = target.noPeople {
                try await expect("/user \(SandboxWellKnown.pathAlias)", shows: noPeople)
            } else {
                try await expect("/user \(SandboxWellKnown.pathAlias)", shows: person)
                try await expect("/albums \(SandboxWellKnown.pathAlias)", shows: "albums of \(SandboxWellKnown.realName) ·")
            }
            if target.readsFlickrLinks {
                try await expect(
                    "https://www.flickr.com/photos/\(SandboxWellKnown.pathAlias)/albums/\(SandboxWellKnown.kittensAlbumID)",
                    shows: "album “")
                try await expect("https://www.flickr.com/photos/\(SandboxWellKnown.pathAlias)/", shows: person)
            }
        }
    }
}
