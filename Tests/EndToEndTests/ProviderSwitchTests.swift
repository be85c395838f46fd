import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// Every provider keeps every capability through every `/provider`
    /// switch, with no credentials: Flickr and Shutterstock on the embedded
    /// sandbox (started on first use when not chosen at launch), Openverse
    /// and Commons on the harness's.
    @Suite("Switching providers")
    struct ProviderSwitch {
        /// What a provider is shown as and can do, as the app says it.
        struct Target: Sendable {
            let id: String
            let displayName: String
            /// The sentence `/recent` answers when it has no recent photos.
            let noRecent: String?
            /// The sentence `/user` answers when it has no photostreams.
            let noPeople: String?
        }

        static let flickr = Target(id: "flickr", displayName: "Flickr (sandbox)", noRecent: nil, noPeople: nil)
        static let shutterstock = Target(
            id: "shutterstock", displayName: "Shutterstock (sandbox)", noRecent: nil,
            noPeople: "Shutterstock has no albums or photostreams")
        static let openverse = Target(
            id: "openverse", displayName: "Openverse at 127.0.0.1", noRecent: "Openverse has no recent photos",
            noPeople: "Openverse has no albums or photostreams")
        static let commons = Target(
            id: "commons", displayName: "Wikimedia Commons at 127.0.0.1", noRecent: "Wikimedia Commons has no recent photos",
            noPeople: "Wikimedia Commons has no albums or photostreams")

        /// From each launch, a walk that takes every ordered pair of the four
        /// once (twelve switches, an Euler circuit of the complete graph),
        /// rotated to start at the launch's provider.
        static let walks: [[Target]] = {
            let circuit = [flickr, shutterstock, openverse, commons, flickr, openverse, shutterstock, commons,
                           openverse, flickr, commons, shutterstock]
            return (0..<4).map { start in
                let first = circuit.firstIndex { $0.id == [flickr, shutterstock, openverse, commons][start].id } ?? 0
                let rotated = Array(circuit[first...] + circuit[..<first])
                return rotated + [rotated[0]]
            }
        }()

        /// The walks above cover every ordered pair: a table that forgot one
        /// would leave a switch untested.
        @Test func theWalksTakeEveryOrderedPair() {
            let all = [Self.flickr, Self.shutterstock, Self.openverse, Self.commons].map(\.id)
            for walk in Self.walks {
                let pairs = Set(zip(walk, walk.dropFirst()).map { "\($0.id)→\($1.id)" })
                let wanted = Set(all.flatMap { from in all.filter { $0 != from }.map { "\(from)→\($0)" } })
                #expect(pairs == wanted)
                #expect(walk.count == wanted.count + 1)
            }
        }

        @Test(arguments: walks)
        func everyProviderKeepsEveryCapabilityThroughEverySwitch(_ walk: [Target]) async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                // No key, no --api-url: Flickr and Shutterstock are the embedded sandbox.
                var environment = app.environment
                environment["OPENVERSE_API_URL"] = sandbox.baseURL.absoluteString
                environment["COMMONS_API_URL"] = sandbox.baseURL.appendingPathComponent("w/api.php").absoluteString
                let process = try PTYProcess(
                    executable: try Binaries.flickr,
                    arguments: ["--provider", walk[0].id, "--live-delay", "0", "--layout", "list", "--images", "none"],
                    environment: environment, columns: 120, rows: 40)
                try await process.waitFor(text: "/help")
                try await use(walk[0], in: process)
                for (from, target) in zip(walk, walk.dropFirst()) {
                    let mark = process.mark()
                    try await process.enter("/provider \(target.id)")
                    // A switch repeats what was shown (a search, recent photos) or says it
                    // cannot: wait for that to settle, or a search typed next races it.
                    try await process.waitFor("switching \(from.id) → \(target.id)") { bytes, _ in
                        let after = String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self)
                        return after.contains("Now searching \(target.displayName)")
                            && ["· page 1 of", "Type words to search", "has no recent photos"].contains { after.contains($0) }
                    }
                    try await use(target, in: process)
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        /// Search, recent, details, people and albums, and link reading,
        /// each where the target has it (its own sentence where not).
        /// Commons reads its own file links; the pty tests of Commons paste one.
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
                try await expect(
                    "https://www.flickr.com/photos/\(SandboxWellKnown.pathAlias)/albums/\(SandboxWellKnown.kittensAlbumID)",
                    shows: "album “")
                try await expect("https://www.flickr.com/photos/\(SandboxWellKnown.pathAlias)/", shows: person)
            }
        }
    }
}

extension EndToEnd.ProviderSwitch.Target: CustomTestStringConvertible {
    var testDescription: String { id }
}
