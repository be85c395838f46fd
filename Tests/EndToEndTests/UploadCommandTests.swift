import Foundation
import Networking
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// `flickr upload`: the real binary, signed in to a sandbox over loopback,
    /// with real folders; what arrived is checked with signed calls of our own.
    @Suite("Uploading", .timeLimit(.minutes(4)))
    struct Uploading {
        static let key = "0123456789abcdef0123456789abcdef"
        static let secret = "upload-secret/with+odd&chars"

        /// The app, its environment and its provider flags, signed in as the sandbox's test user.
        struct SignedIn {
            var app: FlickrApp
            var sandbox: SandboxHarness
            var environment: [String: String]
            var provider: [String]

            func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ProcessRunner.Result {
                try await ProcessRunner.run(try Binaries.flickr, arguments: ["upload"] + arguments + provider,
                                            environment: environment.merging(extra) { $1 })
            }

            var accountFile: String { (environment["XDG_CONFIG_HOME"] ?? "") + "/flickr/flickr-account.json" }
            var recordFile: URL { app.stateDirectory.appendingPathComponent("flickr/uploads.json") }

            func storedToken() throws -> (token: String, secret: String) {
                let data = try Data(contentsOf: URL(fileURLWithPath: accountFile))
                let fields = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
                return (fields["oauth_token"] ?? "", fields["oauth_token_secret"] ?? "")
            }

            /// A REST call signed with the stored token, its JSON answer (tried
            /// again past a sandbox fault, which meets each call once).
            func signedCall(_ method: String, _ parameters: [(String, String)] = []) async throws -> [String: Any] {
                let (token, tokenSecret) = try storedToken()
                let signer = OAuthSigner(consumerKey: Uploading.key, consumerSecret: Uploading.secret, token: token,
                                         tokenSecret: tokenSecret)
                let form = [("method", method), ("format", "json"), ("nojsoncallback", "1")] + parameters
                let network = NetworkManager()
                defer { Task { await network.shutdown() } }
                var answer: NetworkManager.Response?
                for _ in 0..<3 where answer == nil {
                    answer = try? await network.post(
                        sandbox.restURL, form: form, headers: [signer.authorizationHeader(method: "POST", url: sandbox.restURL, form: form)])
                }
                let body = try #require(answer, "the sandbox answered \(method)").body
                return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            }

            func myPhotos() async throws -> [[String: Any]] {
                let answer = try await signedCall("flickr.people.getPhotos", [("user_id", "me"), ("per_page", "50")])
                return (answer["photos"] as? [String: Any])?["photo"] as? [[String: Any]] ?? []
            }
        }

        /// `faults`: every call to the sandbox meets it once (sign-in is then begun again until it got through).
        private func withApp(signIn: Bool = true, faults: FaultConfiguration.Kind? = nil,
                             _ body: (SignedIn) async throws -> Void) async throws {
            var configuration = sandboxConfiguration(latency: .zero, requiredAPIKey: Self.key)
            configuration.flickrAPISecret = Self.secret
            if let faults {
                configuration.faults.kind = faults
                configuration.faults.status = 503
                configuration.faults.rate = 1
                configuration.faults.times = 1
                configuration.faults.scope = .rest
            }
            try await SandboxHarness.with(configuration) { sandbox in
                let app = try FlickrApp(sandbox: sandbox, apiKey: Self.key)
                var environment = app.environment
                environment["XDG_CONFIG_HOME"] = app.home.url.appendingPathComponent("config").path
                environment["FLICKR_API_SECRET"] = Self.secret
                let provider = ["--api-url", sandbox.restURL.absoluteString, "--api-key", Self.key]
                if signIn {
                    var transcripts: [String] = []
                    var signedIn = false
                    for _ in 0..<(faults == nil ? 1 : 5) where !signedIn {
                        let started = try await ProcessRunner.run(try Binaries.flickr, arguments: ["login", "--no-wait"] + provider,
                                                                  environment: environment)
                        transcripts.append(started.transcript)
                        guard started.status == .exited(0),
                              let address = URL(string: started.outputText.trimmingCharacters(in: .whitespacesAndNewlines)),
                              let page = try? await sandbox.text(of: address),
                              let start = page.range(of: "<span id=\"verifier\">")
                        else { continue }
                        let code = String(page[start.upperBound...].prefix { $0 != "<" })
                        let finished = try await ProcessRunner.run(try Binaries.flickr, arguments: ["login", "--verifier", code] + provider,
                                                                   environment: environment)
                        transcripts.append(finished.transcript)
                        signedIn = finished.status == .exited(0)
                    }
                    #expect(signedIn, "\(transcripts.joined(separator: "\n"))")
                }
                try await body(SignedIn(app: app, sandbox: sandbox, environment: environment, provider: provider))
            }
        }

        private func jsonLines(_ text: String) throws -> [[String: Any]] {
            try text.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
        }

        @Test func aFolderGoesUpPrivatelyWithItsLicenceAndAlbumAndASecondRunSendsNothing() async throws {
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-folder")
                try TinyJPEG.make(size: 3_000, fill: 1).write(to: folder.url.appendingPathComponent("harbour.jpg"))
                // A photo without an extension is found by its bytes; a name that would drive a terminal is made safe.
                try TinyJPEG.make(size: 3_000, fill: 2).write(to: folder.url.appendingPathComponent("quay\u{1B}[31m"))
                try Data("not a photo".utf8).write(to: folder.url.appendingPathComponent("notes.jpg"))
                _ = try folder.subdirectory("raw")

                let first = try await signedIn.run([folder.path, "--json", "--license", "by-nc", "--album", "Harbour walks",
                                                    "--tags", "quay night"])
                #expect(first.status == .exited(0), "\(first.transcript)")
                let lines = try jsonLines(first.outputText)
                #expect(lines.compactMap { ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } }
                        == ["harbour.jpg", "notes.jpg", "quay\u{1B}[31m", "raw"])
                let uploaded = lines.filter { $0["id"] != nil }
                #expect(uploaded.count == 2 && lines.filter { $0["skipped"] != nil }.count == 2)
                let nsid = signedIn.sandbox.catalog.wellKnownOwner.nsid
                for line in uploaded {
                    let id = try #require(line["id"] as? String)
                    #expect(line["url"] as? String == "https://www.flickr.com/photos/\(nsid)/\(id)/")
                }
                #expect(!first.outputText.contains("\u{1B}"), "the escape is written as \\u001b in JSON")
                #expect(!first.errorText.contains("\r"), "no progress line when standard error is not a terminal")
                #expect(first.errorText.contains("Uploaded 2; skipped 2"), "\(first.errorText)")

                let ids = uploaded.compactMap { $0["id"] as? String }
                let mine = try await signedIn.myPhotos()
                for id in ids {
                    let entry = try #require(mine.first { $0["id"] as? String == id })
                    #expect(entry["ispublic"] as? Int == 0 && entry["isfriend"] as? Int == 0 && entry["isfamily"] as? Int == 0)
                    let info = try await signedIn.signedCall("flickr.photos.getInfo", [("photo_id", id)])
                    #expect((info["photo"] as? [String: Any])?["license"] as? String == "14")
                }
                #expect(mine.first { $0["id"] as? String == ids[0] }?["title"] as? String == "harbour")
                let sets = try await signedIn.signedCall("flickr.photosets.getList", [("user_id", nsid)])
                let album = try #require(((sets["photosets"] as? [String: Any])?["photoset"] as? [[String: Any]])?.first)
                #expect((album["title"] as? [String: Any])?["_content"] as? String == "Harbour walks")
                let inside = try await signedIn.signedCall("flickr.photosets.getPhotos", [("photoset_id", album["id"] as? String ?? "")])
                #expect(((inside["photoset"] as? [String: Any])?["photo"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ids)

                // The record is in the state folder, holds no secret, and a second run sends nothing.
                let record = try String(contentsOf: signedIn.recordFile, encoding: .utf8)
                let (token, tokenSecret) = try signedIn.storedToken()
                #expect(!record.contains(token) && !record.contains(tokenSecret) && !record.contains(Self.secret))
                #expect(ids.allSatisfy(record.contains))
                let again = try await signedIn.run([folder.path])
                #expect(again.status == .exited(0), "\(again.transcript)")
                #expect(again.outputText.contains("Uploaded 0; 2 already uploaded; skipped 2"), "\(again.transcript)")
                #expect(again.outputText.contains("/quay: already uploaded as"), "\(again.transcript)")
                #expect(!again.outputText.contains("\u{1B}"), "\(again.transcript)")
                #expect(try await signedIn.myPhotos().count == mine.count)
                for transcript in [first.transcript, again.transcript] {
                    #expect(!transcript.contains(token) && !transcript.contains(tokenSecret) && !transcript.contains(Self.secret))
                }
            }
        }

        /// The sandbox keeps the photo, then the answer is lost (a 503, or cut
        /// off halfway): the retry finds the photo instead of sending it again,
        /// and the record and the JSON line name that one copy.
        @Test(arguments: [FaultConfiguration.Kind.status, .reset])
        func aLostAnswerLeavesOneCopyAndTheRecordPointsAtIt(_ fault: FaultConfiguration.Kind) async throws {
            try await withApp(faults: fault) { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-lost-answer")
                try TinyJPEG.make(size: 5_000, fill: 7).write(to: folder.url.appendingPathComponent("breakwater.jpg"))
                let before = signedIn.sandbox.server.stats().faultsInjected
                let run = try await signedIn.run([folder.path, "--json"])
                #expect(run.status == .exited(0), "\(run.transcript)")
                #expect(signedIn.sandbox.server.stats().faultsInjected > before, "the upload met the fault")
                let id = try #require(try jsonLines(run.outputText).first?["id"] as? String, "\(run.transcript)")
                let copies = try await signedIn.myPhotos().filter { $0["title"] as? String == "breakwater" }
                #expect(copies.compactMap { $0["id"] as? String } == [id], "\(fault): exactly one copy, the one reported")
                let record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: signedIn.recordFile)) as? [String: Any])
                let kept = (record["accounts"] as? [String: [String: String]])?.values.flatMap(\.values)
                #expect(kept == [id], "the record points at that copy")
            }
        }

        /// A second run with --album and --license over photos sent before
        /// puts them in the album and gives them the licence, and says so; a
        /// third finds nothing left to do.
        @Test func aRerunWithAnAlbumAndLicenceMakesItSo() async throws {
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-make-it-so")
                try TinyJPEG.make(size: 3_000, fill: 8).write(to: folder.url.appendingPathComponent("pier.jpg"))
                try TinyJPEG.make(size: 3_000, fill: 9).write(to: folder.url.appendingPathComponent("tide.jpg"))
                let first = try await signedIn.run([folder.path, "--json"])
                #expect(first.status == .exited(0), "\(first.transcript)")
                let ids = try jsonLines(first.outputText).compactMap { $0["id"] as? String }
                #expect(ids.count == 2)

                let second = try await signedIn.run([folder.path, "--album", "Harbour walks", "--license", "by-sa"])
                #expect(second.status == .exited(0), "\(second.transcript)")
                #expect(second.outputText.contains("Uploaded 0; 2 already uploaded; added 2 to the album “Harbour walks”; set the licence of 2."),
                        "\(second.transcript)")
                #expect(second.outputText.contains("pier.jpg: already uploaded as \(ids[0])"), "\(second.transcript)")
                let nsid = signedIn.sandbox.catalog.wellKnownOwner.nsid
                let sets = try await signedIn.signedCall("flickr.photosets.getList", [("user_id", nsid)])
                let album = try #require(((sets["photosets"] as? [String: Any])?["photoset"] as? [[String: Any]])?.first)
                #expect((album["title"] as? [String: Any])?["_content"] as? String == "Harbour walks")
                let inside = try await signedIn.signedCall("flickr.photosets.getPhotos", [("photoset_id", album["id"] as? String ?? "")])
                #expect(((inside["photoset"] as? [String: Any])?["photo"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ids)
                for id in ids {
                    let info = try await signedIn.signedCall("flickr.photos.getInfo", [("photo_id", id)])
                    #expect((info["photo"] as? [String: Any])?["license"] as? String == "12")
                }

                let third = try await signedIn.run([folder.path, "--album", "Harbour walks", "--license", "by-sa", "--json"])
                #expect(third.status == .exited(0), "\(third.transcript)")
                #expect(third.errorText.contains("Uploaded 0; 2 already uploaded."), "\(third.transcript)")
                #expect(try jsonLines(third.outputText).allSatisfy { $0["album"] == nil && $0["license"] == nil }, "\(third.transcript)")
            }
        }

        @Test func aFileThatFailsIsReportedWhileTheOthersGoOn() async throws {
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-failing")
                let text = folder.url.appendingPathComponent("not really.jpg")
                try Data("just some text".utf8).write(to: text)
                let photo = folder.url.appendingPathComponent("lighthouse.jpg")
                try TinyJPEG.make(size: 2_000, fill: 3).write(to: photo)
                let missing = folder.url.appendingPathComponent("gone.jpg").path
                let run = try await signedIn.run([text.path, missing, photo.path, "--json", "--privacy", "public"])
                #expect(run.status == .exited(1), "\(run.transcript)")
                let lines = try jsonLines(run.outputText)
                #expect(lines.count == 3)
                #expect((lines[0]["error"] as? String)?.contains("error 5: Filetype was not recognised") == true, "\(lines[0])")
                #expect((lines[1]["error"] as? String)?.contains("no such file") == true, "\(lines[1])")
                let id = try #require(lines[2]["id"] as? String)
                let entry = try #require(try await signedIn.myPhotos().first)
                #expect(entry["id"] as? String == id && entry["ispublic"] as? Int == 1)
                #expect(run.errorText.contains("Uploaded 1; 2 failed"), "\(run.errorText)")
            }
        }

        @Test func aSettingThatCannotBeUsedExitsTwoBeforeAnythingIsSent() async throws {
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-settings")
                try TinyJPEG.make(size: 2_000).write(to: folder.url.appendingPathComponent("a.jpg"))
                let before = try await signedIn.sandbox.stats().restRequests
                let licence = try await signedIn.run([folder.path, "--license", "cc"])
                #expect(licence.status == .exited(2), "\(licence.transcript)")
                #expect(licence.errorText.contains("--license") && licence.errorText.contains("by-nc-nd"), "\(licence.transcript)")
                let privacy = try await signedIn.run([folder.path, "--privacy", "everyone"])
                #expect(privacy.status == .exited(2), "\(privacy.transcript)")
                #expect(privacy.errorText.contains("friends-family"), "\(privacy.transcript)")
                #expect(try await signedIn.sandbox.stats().restRequests == before)
                #expect(!FileManager.default.fileExists(atPath: signedIn.recordFile.path))
            }
        }

        @Test func withoutASignInOrWithARevokedOneItSaysHowToSignIn() async throws {
            try await withApp(signIn: false) { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-nobody")
                try TinyJPEG.make(size: 2_000).write(to: folder.url.appendingPathComponent("a.jpg"))
                let nobody = try await signedIn.run([folder.path])
                #expect(nobody.status == .exited(1), "\(nobody.transcript)")
                #expect(nobody.errorText.contains("flickr login"), "\(nobody.transcript)")
            }
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-revoked")
                try TinyJPEG.make(size: 2_000).write(to: folder.url.appendingPathComponent("a.jpg"))
                let stored = try String(contentsOfFile: signedIn.accountFile, encoding: .utf8)
                try stored.replacingOccurrences(of: try signedIn.storedToken().token, with: "72157000000000-0000000000000000")
                    .write(toFile: signedIn.accountFile, atomically: true, encoding: .utf8)
                // Private, as the app writes it: a file others may read is refused before any call.
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: signedIn.accountFile)
                let revoked = try await signedIn.run([folder.path])
                #expect(revoked.status == .exited(1), "\(revoked.transcript)")
                #expect(revoked.errorText.contains("expired or was revoked") && revoked.errorText.contains("flickr login"),
                        "\(revoked.transcript)")
                #expect(!FileManager.default.fileExists(atPath: signedIn.recordFile.path))
            }
        }

        @Test func aDamagedRecordIsKeptAsideAndNothingIsSent() async throws {
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-damaged")
                try TinyJPEG.make(size: 2_000).write(to: folder.url.appendingPathComponent("a.jpg"))
                try FileManager.default.createDirectory(at: signedIn.recordFile.deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                try Data("{\"format\": 1, \"accounts\": {".utf8).write(to: signedIn.recordFile)
                let before = try await signedIn.myPhotos().count
                let run = try await signedIn.run([folder.path])
                #expect(run.status == .exited(1), "\(run.transcript)")
                #expect(run.errorText.contains("damaged") && run.errorText.contains("uploads.json.broken-"), "\(run.transcript)")
                let kept = try FileManager.default.contentsOfDirectory(atPath: signedIn.recordFile.deletingLastPathComponent().path)
                    .filter { $0.hasPrefix("uploads.json.broken-") }
                #expect(kept.count == 1)
                let aside = signedIn.recordFile.deletingLastPathComponent().appendingPathComponent(kept.first ?? "?")
                #expect(try String(contentsOf: aside, encoding: .utf8) == "{\"format\": 1, \"accounts\": {")
                #expect(try await signedIn.myPhotos().count == before)
            }
        }

        @Test func aRecordFromANewerVersionIsLeftAsItIsAndNothingIsSent() async throws {
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-newer")
                try TinyJPEG.make(size: 2_000).write(to: folder.url.appendingPathComponent("a.jpg"))
                try FileManager.default.createDirectory(at: signedIn.recordFile.deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                let newer = Data("{\"format\": 99, \"accounts\": [\"a shape this version does not know\"]}".utf8)
                try newer.write(to: signedIn.recordFile)
                let before = try await signedIn.myPhotos().count
                let run = try await signedIn.run([folder.path])
                #expect(run.status == .exited(1), "\(run.transcript)")
                #expect(run.errorText.contains("newer version"), "\(run.transcript)")
                #expect(try Data(contentsOf: signedIn.recordFile) == newer)
                #expect(try await signedIn.myPhotos().count == before)
            }
        }

        @Test func idsThatAreNotFlickrsMakeTheRecordDamagedAndEachDamagedRecordIsKept() async throws {
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-hostile-record")
                try TinyJPEG.make(size: 2_000).write(to: folder.url.appendingPathComponent("a.jpg"))
                let state = signedIn.recordFile.deletingLastPathComponent()
                try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
                // An id that would print an escape, then plain garbage: two damaged records in one second.
                let hostile = "{\"format\": 1, \"accounts\": {\"x y\": {\"ab\": \"1\\u001b]0;PWN\\u0007\"}}}"
                for text in [hostile, "not json"] {
                    try Data(text.utf8).write(to: signedIn.recordFile)
                    let run = try await signedIn.run([folder.path])
                    #expect(run.status == .exited(1), "\(run.transcript)")
                    #expect(run.errorText.contains("damaged"), "\(run.transcript)")
                    #expect(!run.outputText.contains("\u{1B}") && !run.errorText.contains("\u{1B}"))
                }
                let kept = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix("uploads.json.broken-") }
                let texts = try Set(kept.map { try String(contentsOf: state.appendingPathComponent($0), encoding: .utf8) })
                #expect(texts == [hostile, "not json"], "\(kept)")
            }
        }

        @Test func twoRunsAtOnceLoseNoEntryOfTheRecord() async throws {
            try await withApp { signedIn in
                let first = try TemporaryDirectory(prefix: "upload-together-a")
                let second = try TemporaryDirectory(prefix: "upload-together-b")
                for index in 0..<5 {
                    try TinyJPEG.make(size: 1_000 + index).write(to: first.url.appendingPathComponent("a\(index).jpg"))
                    try TinyJPEG.make(size: 2_000 + index).write(to: second.url.appendingPathComponent("b\(index).jpg"))
                }
                async let one = signedIn.run([first.path])
                async let two = signedIn.run([second.path])
                let runs = try await [one, two]
                for run in runs { #expect(run.status == .exited(0), "\(run.transcript)") }
                let data = try Data(contentsOf: signedIn.recordFile)
                let stored = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                let accounts = try #require(stored["accounts"] as? [String: [String: String]])
                #expect(accounts.values.map(\.count).reduce(0, +) == 10, "\(accounts)")
            }
        }

        @Test func aTitleTakenFromTheFileNameCarriesNoControls() async throws {
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-title")
                let name = "esc\u{1B}]0;PWN\u{07}red\nline\u{202E}gnp.jpg"
                try TinyJPEG.make(size: 2_000).write(to: folder.url.appendingPathComponent(name))
                let run = try await signedIn.run([folder.path, "--json"])
                #expect(run.status == .exited(0), "\(run.transcript)")
                let titles = try await signedIn.myPhotos().compactMap { $0["title"] as? String }
                #expect(titles.contains("esc ]0;PWN red line gnp"), "\(titles)")
                #expect(!titles.contains { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E } })
            }
        }

        @Test func aTerminalSeesAProgressLineReplacedByThePhotosLink() async throws {
            try await withApp { signedIn in
                let folder = try TemporaryDirectory(prefix: "upload-pty")
                let photo = folder.url.appendingPathComponent("big harbour.jpg")
                try TinyJPEG.make(size: 3 << 20, fill: 4).write(to: photo)
                let process = try PTYProcess(executable: try Binaries.flickr, arguments: ["upload", photo.path] + signedIn.provider,
                                             environment: signedIn.environment, columns: 220, rows: 20)
                #expect(try await process.waitForExit() == .exited(0), "\(process.transcript())")
                let output = process.outputText
                #expect(output.contains("\r\u{1B}[Kbig harbour.jpg: 0 B of 3.0 MB"), "\(process.transcript())")
                #expect(output.contains("big harbour.jpg: 3.0 MB of 3.0 MB"), "the last line counts every byte")
                let screen = process.screen.text
                #expect(screen.contains("big harbour.jpg: uploaded as") && screen.contains("https://www.flickr.com/photos/"),
                        "\(screen)")
                #expect(!screen.contains(" of 3.0 MB"), "the progress line is gone from the screen: \(screen)")
            }
        }

        @Test func helpListsEveryFlag() async throws {
            let help = try await ProcessRunner.run(try Binaries.flickr, arguments: ["upload", "--help"])
            #expect(help.status == .exited(0))
            for flag in ["--title", "--description", "--tags", "--license", "--privacy", "--album", "--json", "--api-key",
                         "--api-secret", "--api-url", "file|folder"] {
                #expect(help.outputText.contains(flag), "\(flag)")
            }
        }
    }
}
