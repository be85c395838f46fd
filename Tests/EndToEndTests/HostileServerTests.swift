import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// The real binary against `flickr sandbox --fault hostile`, both real
    /// processes: whatever a server answers, the app does not crash, its
    /// `--json` and sidecars parse, no control character of the server's
    /// reaches the terminal, credits name the photo in their file, and
    /// memory stays bounded. Failures name the issue-29 item they belong to.
    @Suite("Hostile server")
    struct HostileServer {
        static let apiCases = HostileCase.allCases.filter { $0.applies(toImages: false) }
        /// Everything but refusals: the listings go through, so files get written.
        static let answeringCases = HostileCase.allCases.filter { $0.kind != .refusal }

        /// Which issue-29 item a case's failure belongs to.
        static func item(_ hostileCase: HostileCase) -> String {
            switch hostileCase.kind {
            case .refusal: "item 1 (Retry-After, \(hostileCase.rawValue))"
            case .link: "item 2 (links, \(hostileCase.rawValue))"
            case .image: "item 3 (image sizes, \(hostileCase.rawValue))"
            case .license: "item 8 (licence fields, \(hostileCase.rawValue))"
            case .numbers: "item 9/17 (numbers, \(hostileCase.rawValue))"
            case .list: "item 17 (duplicate ids, \(hostileCase.rawValue))"
            case .text: "terminal injection / item 17 (text, \(hostileCase.rawValue))"
            }
        }

        // MARK: - search --json, several pages, every API case, every provider

        @Test(arguments: apiCases)
        func searchJSONSurvivesEveryAPICase(_ hostileCase: HostileCase) async throws {
            try await HostileSandbox.with([hostileCase]) { sandbox in
                let app = try FlickrApp(apiURL: sandbox.baseURL)
                for provider in HostileProvider.allCases {
                    let result = try await app.run(["search", "kittens", "--json", "--pages", "2", "--per-page", "3"],
                                                   on: provider, sandbox)
                    let what = "\(provider.rawValue) search --json"
                    expectNoCrash(result.status, what, item: Self.item(hostileCase), transcript: result.transcript)
                    expectJSONLines(result, what, item: Self.item(hostileCase))
                    let stderr = forbiddenScalars(in: result.errorText)
                    #expect(stderr.isEmpty, "\(Self.item(hostileCase)): \(what) printed \(stderr) on stderr: \(result.errorText.prefix(300))")
                    let ids = result.outputText.split(separator: "\n").compactMap {
                        ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["id"] as? String
                    }
                    #expect(Set(ids).count == ids.count, "item 17: \(what) printed an id twice: \(ids)")
                    if hostileCase == .emptyNumbers {
                        #expect(!ids.isEmpty, "item 9: \(what) listed nothing when total was \"\": \(result.transcript)")
                    }
                    if hostileCase.kind == .refusal {
                        #expect(result.status == .exited(1), "item 1: \(what) refused with \(hostileCase.retryAfter ?? "a throttle sentence") exits 1: \(result.transcript)")
                    }
                }
            }
        }

        // MARK: - download with sidecars, then again (resume)

        @Test(arguments: HostileProvider.allCases)
        func downloadAndResumeKeepCreditsTrue(_ provider: HostileProvider) async throws {
            try await HostileSandbox.with(Self.answeringCases) { sandbox in
                let app = try FlickrApp(apiURL: sandbox.baseURL)
                let out = app.home.url.appendingPathComponent("hostile-\(provider.rawValue)", isDirectory: true)
                // Another search into the same names must not keep the first
                // one's files under its credits (item 4's steps); the same
                // search again resumes.
                for (query, sidecars, run) in [("kittens", false, "download without sidecars"),
                                               ("sunset", true, "download of another search into the same names"),
                                               ("sunset", true, "resumed download")] {
                    let result = try await app.run(["download", query, "--per-page", "4", "--pages", "2", "--size", "q",
                                                    "--name", "{index}", "--out", out.path] + (sidecars ? [] : ["--no-sidecars"]),
                                                   on: provider, sandbox)
                    let what = "\(provider.rawValue) \(run)"
                    expectNoCrash(result.status, what, item: "item 1/3 (download)", transcript: result.transcript)
                    let printed = forbiddenScalars(in: result.outputText + result.errorText)
                    #expect(printed.isEmpty, "terminal injection: \(what) printed \(printed)")
                    try await Self.expectFolderIsTrue(out, sandbox: sandbox, what: what)
                    let images = ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [])
                        .filter { [".jpg", ".png", ".gif", ".webp"].contains(where: $0.hasSuffix) }
                    #expect(!images.isEmpty, "item 9: \(what) saved no image although every hostile page listed photos\n\(result.transcript)")
                }
            }
        }

        /// Every sidecar parses (XMP strictly), CREDITS.md is inert, and each
        /// file holds the photo its sidecar names.
        static func expectFolderIsTrue(_ out: URL, sandbox: HostileSandbox, what: String) async throws {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
            let log = try await sandbox.log()
            var photosByFingerprint: [String: Set<String>] = [:]
            for record in log {
                if let fingerprint = record.fingerprint, let photo = record.photo { photosByFingerprint[fingerprint, default: []].insert(photo) }
            }
            // The folder's manifest (kept with or without sidecars) says which
            // photo each file is: it must be as true as the sidecars.
            let manifestName = ".flickr-manifest.json"
            if names.contains(manifestName) {
                let data = try Data(contentsOf: out.appendingPathComponent(manifestName))
                let files = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["files"] as? [String: Any]
                #expect(files != nil, "item 4: \(what): \(manifestName) does not parse as JSON with files")
                for case let record as [String: Any] in (files ?? [:]).values {
                    guard let file = record["file"] as? String, let id = record["id"] as? String else {
                        Issue.record("item 4: \(what): a manifest record names no file or id: \(record)")
                        continue
                    }
                    guard let bytes = try? Data(contentsOf: out.appendingPathComponent(file)) else { continue }
                    let served = photosByFingerprint[SandboxFingerprint.of(bytes)] ?? []
                    #expect(served.contains(id), "item 4: \(what): the manifest credits \(file) to \(id), but it holds \(served.sorted())")
                }
            }
            let sidecars = names.filter { $0.hasSuffix(".json") && $0 != manifestName }
            for name in sidecars {
                let data = try Data(contentsOf: out.appendingPathComponent(name))
                guard let sidecar = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
                    Issue.record("item 5/6: \(what): \(name) does not parse as JSON")
                    continue
                }
                guard let file = sidecar["file"] as? String, let id = sidecar["id"] as? String else {
                    Issue.record("item 4: \(what): \(name) names no file or id: \(String(decoding: data.prefix(300), as: UTF8.self))")
                    continue
                }
                let bytes = (try? Data(contentsOf: out.appendingPathComponent(file))) ?? Data()
                let served = photosByFingerprint[SandboxFingerprint.of(bytes)] ?? []
                #expect(served.contains(id), """
                    item 4: \(what): \(file) holds bytes the sandbox served for \(served.isEmpty ? "no photo" : served.sorted().joined(separator: ", ")), \
                    but its sidecar credits \(id)
                    """)
            }
            for name in names where name.hasSuffix(".xmp") {
                let data = try Data(contentsOf: out.appendingPathComponent(name))
                #expect(isWellFormedXML(data), "item 5: \(what): \(name) is not well-formed XML")
            }
            guard let credits = try? String(contentsOf: out.appendingPathComponent("CREDITS.md"), encoding: .utf8) else {
                if !sidecars.isEmpty { Issue.record("item 6: \(what): sidecars but no CREDITS.md") }
                return
            }
            let invisible = forbiddenScalars(in: credits)
            #expect(invisible.isEmpty, "item 6: \(what): CREDITS.md carries \(invisible)")
            for live in ["](javascript:", "<img", "<script", "<a href", "![x](", "onerror="] {
                #expect(!credits.contains(live), "item 6: \(what): CREDITS.md has live Markdown or HTML from server text: \(live)")
            }
            let longest = credits.split(separator: "\n").map(\.count).max() ?? 0
            #expect(longest < 2_000, "item 6: \(what): a CREDITS.md line of \(longest) characters (long fields are cut with …)")
        }

        // MARK: - user and album: hostile links and hostile answers

        @Test func userAndAlbumNeverReadALookAlikeLink() async throws {
            try await HostileSandbox.with(Self.answeringCases) { sandbox in
                let app = try FlickrApp(apiURL: sandbox.baseURL)
                for link in HostileCase.pastedLinks {
                    for command in ["user", "album"] {
                        let result = try await app.run([command, link, "--json", "--per-page", "3"], on: .flickr, sandbox)
                        expectNoCrash(result.status, "flickr \(command) \(link)", item: "item 2", transcript: result.transcript)
                        #expect(result.status != .exited(0) || result.outputText.isEmpty,
                                "item 2: flickr \(command) read \(link) as a Flickr link: \(result.transcript)")
                    }
                }
                let asked = try await sandbox.log().filter { $0.path.contains("anasouza") }
                #expect(asked.isEmpty, "item 2: look-alike links were asked of the service: \(asked.map(\.path).prefix(3))")
            }
        }

        @Test(arguments: HostileProvider.allCases)
        func userAndAlbumListingsSurviveHostileAnswers(_ provider: HostileProvider) async throws {
            try await HostileSandbox.with(HostileCase.all(.text) + HostileCase.all(.numbers) + [.duplicateIDs]) { sandbox in
                let app = try FlickrApp(apiURL: sandbox.baseURL)
                let owners = try await app.run(["search", "kittens", "--json", "--per-page", "5"], on: .flickr, sandbox)
                let owner = owners.outputText.split(separator: "\n").lazy.compactMap {
                    ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["owner"] as? String
                }.first ?? "12345678@N00"
                for arguments in [["user", owner], ["album", "72157600000000001"],
                                  ["album", "https://www.flickr.com/photos/\(owner)/albums/72157600000000001/"]] {
                    let result = try await app.run(arguments + ["--json", "--per-page", "3"], on: provider, sandbox)
                    let what = "\(provider.rawValue) \(arguments.joined(separator: " "))"
                    expectNoCrash(result.status, what, item: "item 17 (collections)", transcript: result.transcript)
                    expectJSONLines(result, what, item: "item 17 (collections)")
                    let printed = forbiddenScalars(in: result.errorText)
                    #expect(printed.isEmpty, "terminal injection: \(what) printed \(printed) on stderr")
                }
            }
        }

        // MARK: - the interactive app in a pty

        @Test(arguments: HostileProvider.allCases)
        func interactiveAppSurvivesEverything(_ provider: HostileProvider) async throws {
            try await HostileSandbox.with(HostileCase.allCases) { sandbox in
                let app = try FlickrApp(apiURL: sandbox.baseURL)
                let process = try PTYProcess(
                    executable: try Binaries.flickr, arguments: provider.arguments(sandbox) + ["--per-page", "6", "--live-delay", "150"],
                    environment: app.environment.merging(provider.environment) { $1 }, columns: 120, rows: 40)
                defer { process.terminate() }

                /// Types, then waits until the app has asked the server something
                /// new (`path` picks what) and the server has answered it, or
                /// has answered on screen with nothing in flight.
                func step(_ what: String, typing text: String, enter: Bool = true, until path: @escaping (String) -> Bool = { _ in true }) async throws {
                    // After a crash (recorded once, where it happened) there is nothing left to drive.
                    guard process.exitStatus == nil else { return }
                    let before = try await sandbox.log().count
                    let mark = process.mark()
                    try process.write(text + (enter ? "\r" : ""))
                    // Wait on what the app asked of the server, then on the server having answered it.
                    let clock = ContinuousClock()
                    let deadline = clock.now.advanced(by: PTYProcess.defaultTimeout)
                    while clock.now < deadline {
                        if process.exitStatus != nil { break }
                        let log = try await sandbox.log()
                        if log.dropFirst(before).contains(where: { path($0.path) && $0.endedAt != nil }) { break }
                        // An app honouring a refusal's Retry-After asks nothing: then
                        // it has answered on screen, and nothing is in flight.
                        let answered = process.output(since: mark).count > text.utf8.count + 40
                        if answered, !log.contains(where: { $0.endedAt == nil }) { break }
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    expectNoCrash(process.exitStatus, "the interactive app (\(provider.rawValue)) on \(what)", item: "item 1/3",
                                  transcript: process.transcript())
                    #expect(process.exitStatus == nil, "item 1/3: the interactive app (\(provider.rawValue)) ended on \(what)\n\(process.transcript())")
                }

                func isSearch(_ text: String) -> (String) -> Bool {
                    { $0.contains("text=\(text)") || $0.contains("q=\(text)") || $0.contains("query=\(text)") || $0.contains("search=\(text)") }
                }
                // A hostile answer may make the app ask something else than the
                // step names (page 1 again after a refusal), so any new request counts.
                try await step("the first listing", typing: "", enter: false)
                try await step("a search", typing: "kittens", until: isSearch("kittens"))
                try await step("Enter for the next page", typing: "")
                try await step("/open 1", typing: "/open 1")
                try await step("live search typing", typing: "sunset", enter: false)
                if process.exitStatus == nil { try process.write("\r") }
                if provider == .flickr {
                    try await step("/user", typing: "/user anasouza")
                    try await step("/album", typing: "/album 72157600000000001")
                    for link in HostileCase.pastedLinks.prefix(2) where process.exitStatus == nil {
                        try process.write(link + "\r")
                    }
                }
                try await step("a last search", typing: "beach")

                if process.exitStatus == nil {
                    if let peak = peakResidentBytes(of: process.pid) {
                        #expect(peak < 150 << 20, "item 3: the interactive app (\(provider.rawValue)) peaked at \(peak >> 20) MB resident (bound 150 MB)")
                    }
                    let status = try await process.quit()
                    expectNoCrash(status, "the interactive app (\(provider.rawValue)) on /quit", item: "item 1/3", transcript: process.transcript())
                }
                let injected = hostileTerminalSequences(in: process.outputBytes)
                #expect(injected.isEmpty, "terminal injection: the server's \(injected.prefix(12)) reached the terminal (\(provider.rawValue))\n\(process.transcript())")
            }
        }
    }
}
