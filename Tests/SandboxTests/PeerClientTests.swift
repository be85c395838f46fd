import Foundation
import Sandbox
import TestSupport
import Testing

/// Real third-party clients, unmodified, against a sandbox on loopback:
/// Python's flickrapi, the flickcurl C library and shutterstock-cli
/// (`Scripts/lib/peers.sh` installs them). A missing client is a visible
/// skip, not a failure.
@Suite(.timeLimit(.minutes(3))) struct PeerClientTests {
    @Test(.enabled(if: Peers.python(importing: "flickrapi") != nil, "Python flickrapi is not installed (Scripts/lib/peers.sh installs it)"),
          arguments: ["parsed-json", "etree"])
    func flickrapiSeesTheCatalog(format: String) async throws {
        let python = try #require(Peers.python(importing: "flickrapi"))
        try await withSandbox { server, _ in
            let run = try await ProcessRunner.run(
                python, arguments: [Peers.script("flickrapi_peer.py"), server.restURL.absoluteString, "peer-key", format, "kittens"],
                environment: Peers.environment)
            #expect(run.status == .exited(0), "\(run.transcript)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any])
            let catalog = server.catalog
            let expected = catalog.search(text: "kittens").prefix(10).map(catalog.photo(at:))
            let search = result["search"] as? [[String: Any]] ?? []
            #expect(search.compactMap { $0["id"] as? String } == expected.map(\.id))
            #expect(search.compactMap { $0["title"] as? String } == expected.map(\.title))
            let recent = (result["recent"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(recent == (0..<5).map { catalog.photo(at: $0).id })

            let first = try #require(expected.first)
            let info = result["info"] as? [String: Any] ?? [:]
            #expect(info["id"] as? String == first.id)
            #expect(info["title"] as? String == first.title)
            #expect(info["owner"] as? String == first.owner)
            #expect(info["username"] as? String == first.ownerName)
            #expect(info["taken"] as? String == first.dateTaken)
            let sizes = result["sizes"] as? [[String: Any]] ?? []
            #expect(sizes.compactMap { $0["label"] as? String } == first.sizeList.map(\.label))
            #expect(sizes.compactMap { $0["width"] as? Int } == first.sizeList.map(\.width))
            let fetched = result["fetched"] as? [String: Any] ?? [:]
            #expect(fetched["jpeg"] as? Bool == true)
            #expect(fetched["source"] as? String == server.baseURL.absoluteString + first.imagePath(.n))
            let missing = result["missing"] as? [String: Any]
            #expect(missing?["code"] as? Int == 1)
            // flickrapi POSTs every call with an OAuth header: the calls arrived as such.
            try await settled(server)
            #expect(server.requestLog().filter { $0.kind == "rest" }.count == 5)
        }
    }

    @Test(.enabled(if: Peers.flickcurlBuildCommand != nil, "flickcurl (libflickcurl-dev) or a C compiler is missing (Scripts/lib/peers.sh installs it)"))
    func flickcurlSeesTheCatalog() async throws {
        let directory = try TemporaryDirectory(prefix: "flickcurl-peer")
        let binary = try await Peers.buildFlickcurlProgram("flickcurl_peer", in: directory)
        try await withSandbox { server, _ in
            let run = try await ProcessRunner.run(
                binary, arguments: [server.restURL.absoluteString, "peer-key", "sunset beach"], environment: Peers.environment)
            #expect(run.status == .exited(0), "\(run.transcript)")
            let lines = run.outputText.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            func records(_ name: String) -> [[String]] { lines.filter { $0.first == name }.map { Array($0.dropFirst()) } }
            let catalog = server.catalog
            let expected = catalog.search(text: "sunset beach").prefix(10).map(catalog.photo(at:))
            #expect(records("search").map { $0[0] } == expected.map(\.id), "\(run.transcript)")
            #expect(records("search").map { Peers.unhex($0.count > 1 ? $0[1] : "") } == expected.map(\.title))
            #expect(records("recent").map { $0[0] } == (0..<5).map { catalog.photo(at: $0).id })
            let first = try #require(expected.first)
            let info = try #require(records("info").first)
            #expect(info.count == 5)
            #expect(info.first == first.id)
            #expect(info.count == 5 && Peers.unhex(info[1]) == first.title)
            #expect(info.count == 5 && info[2] == first.owner && Peers.unhex(info[3]) == first.ownerName)
            #expect(info.count == 5 && Peers.unhex(info[4]) == first.dateTaken)
            let sizes = records("size")
            #expect(sizes.map { Peers.unhex($0[0]) } == first.sizeList.map(\.label))
            #expect(sizes.compactMap { $0.count == 4 ? Int($0[1]) : nil } == first.sizeList.map(\.width))
            #expect(sizes.contains { $0.last == server.baseURL.absoluteString + first.imagePath(.o) })
            #expect(records("echo").first == ["0"])
        }
    }

    @Test(.enabled(if: Peers.executable("shutterstock") != nil, "shutterstock-cli is not installed (Scripts/lib/peers.sh installs it)"))
    func shutterstockCLISearchesAndIsRefusedWithoutCredentials() async throws {
        let cli = try #require(Peers.executable("shutterstock"))
        try await withSandbox { $0.shutterstockCredentials = ShutterstockClientCredentials(clientID: "peer", clientSecret: "peer-secret") } _: { server, _ in
            var environment = Peers.environment
            environment["SHUTTERSTOCK_CUSTOM_URL"] = server.baseURL.absoluteString
            for name in ["SHUTTERSTOCK_API_TOKEN", "SHUTTERSTOCK_KEY", "SHUTTERSTOCK_SECRET", "SHUTTERSTOCK_SANDBOX",
                         "SHUTTERSTOCK_CLI_COLORIZE_OUTPUT"] {
                environment[name] = nil
            }
            let arguments = ["images", "search-images", "--query", "kittens", "--per-page", "7", "--page", "2"]
            var authorized = environment
            authorized["SHUTTERSTOCK_KEY"] = "peer"
            authorized["SHUTTERSTOCK_SECRET"] = "peer-secret"
            let run = try await ProcessRunner.run(cli, arguments: arguments, environment: authorized)
            #expect(run.status == .exited(0), "\(run.transcript)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any])
            let items = body["data"] as? [[String: Any]] ?? []
            let expected = server.catalog.search(text: "kittens")[7..<14].map(server.catalog.photo(at:))
            #expect(items.compactMap { $0["id"] as? String } == expected.map(\.id))
            #expect(items.compactMap { $0["description"] as? String } == expected.map(\.title))
            #expect(body["total_count"] as? Int == server.catalog.search(text: "kittens").count)

            let refused = try await ProcessRunner.run(cli, arguments: arguments, environment: environment)
            let message = try #require(try JSONSerialization.jsonObject(with: Data(refused.standardOutput)) as? [String: Any])
            #expect(message["message"] as? String == "Missing access token")
            try await settled(server)
            #expect(server.requestLog().map(\.status) == [200, 401])
        }
    }
}

/// Finding the peer clients and their scripts.
enum Peers {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/\(name)").path
    }

    /// An executable on PATH.
    static func executable(_ name: String) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A Python 3 that can import `module`.
    static func python(importing module: String) -> String? {
        guard let python = executable("python3") else { return nil }
        return succeeds(python, ["-c", "import \(module)"]) ? python : nil
    }

    /// `cc` when flickcurl's headers and library are there.
    static var flickcurlBuildCommand: String? {
        guard let compiler = executable("cc"), flickcurlFlags != nil else { return nil }
        return "'\(compiler)'"
    }

    /// Compiler and linker flags for flickcurl. Its pkg-config file leaves
    /// out libxml2's include directory, which its header needs.
    static let flickcurlFlags: String? = {
        guard let pkgConfig = executable("pkg-config"), succeeds(pkgConfig, ["--exists", "flickcurl", "libxml-2.0"]) else {
            return nil
        }
        return output(pkgConfig, ["--cflags", "--libs", "flickcurl", "libxml-2.0"])
    }()

    /// Compiles `Peers/NAME.c` against flickcurl into `directory`; the binary's path.
    static func buildFlickcurlProgram(_ name: String, in directory: TemporaryDirectory) async throws -> String {
        let binary = directory.url.appendingPathComponent(name).path
        let compile = try #require(flickcurlBuildCommand)
        let build = try await ProcessRunner.run(
            "/bin/sh", arguments: ["-c", compile + " -o '\(binary)' '\(script(name + ".c"))' $FLAGS"],
            environment: environment.merging(["FLAGS": flickcurlFlags ?? ""]) { $1 })
        #expect(build.status == .exited(0), "\(build.transcript)")
        return binary
    }

    static func unhex(_ text: String) -> String {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex),
              let byte = UInt8(text[index..<next], radix: 16) {
            bytes.append(byte)
            index = next
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func succeeds(_ executable: String, _ arguments: [String]) -> Bool {
        run(executable, arguments)?.status == .exited(0)
    }

    private static func output(_ executable: String, _ arguments: [String]) -> String? {
        guard let result = run(executable, arguments), result.status == .exited(0) else { return nil }
        return result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Synchronous, for test traits (which cannot await); these probes take milliseconds.
    private static func run(_ executable: String, _ arguments: [String]) -> ProcessRunner.Result? {
        try? ProcessRunner.runBlocking(executable, arguments: arguments, environment: environment)
    }
}
