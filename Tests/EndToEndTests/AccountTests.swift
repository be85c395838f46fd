import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// Your account in the app: signed calls with the stored token, `me`,
    /// non-public photos marked, favourites, `/login` at the prompt; the
    /// real binary against a sandbox over loopback.
    @Suite("Your account", .timeLimit(.minutes(3)))
    struct YourAccount {
        static let key = "0123456789abcdef0123456789abcdef"
        static let secret = "account-secret/with+odd&chars"

        /// A sandbox that takes only this key and secret, and the app's
        /// environment for it (config folder in the app's temp home).
        private func withAccountSandbox(
            _ body: (FlickrApp, SandboxHarness, [String: String]) async throws -> Void
        ) async throws {
            try await withSignInSandbox(key: Self.key, secret: Self.secret) { app, sandbox, signIn in
                try await body(app, sandbox, app.environment.merging(signIn) { $1 })
            }
        }

        private func run(_ arguments: [String], _ app: FlickrApp, _ environment: [String: String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(try Binaries.flickr, arguments: arguments + app.providerArguments, environment: environment)
        }

        private func accountFile(_ environment: [String: String]) -> String {
            (environment["XDG_CONFIG_HOME"] ?? "") + "/flickr/flickr-account.json"
        }

        /// The verifier the sandbox's authorize page shows for `address`.
        private func verifier(_ address: URL, _ sandbox: SandboxHarness) async throws -> String {
            let page = try await sandbox.text(of: address)
            let start = try #require(page.range(of: "<span id=\"verifier\">"))
            return String(page[start.upperBound...].prefix { $0 != "<" })
        }

        /// Signs in with `flickr login --no-wait` and `--verifier`, as a script would.
        private func signIn(_ app: FlickrApp, _ sandbox: SandboxHarness, _ environment: [String: String]) async throws {
            let started = try await run(["login", "--no-wait"], app, environment)
            let address = try #require(URL(string: started.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
            let finished = try await run(["login", "--verifier", try await verifier(address, sandbox)], app, environment)
            #expect(finished.status == .exited(0), "\(finished.transcript)")
        }

        /// The JSON objects of `--json` output.
        private func jsonLines(_ result: ProcessRunner.Result) throws -> [[String: Any]] {
            try result.outputText.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        private func photos(_ result: ProcessRunner.Result) throws -> [[String: Any]] {
            try jsonLines(result).filter { $0["collection"] == nil }
        }

        @Test func signedListingsHoldTheOwnersNonPublicPhotosAndUnsignedOnesDoNot() async throws {
            try await withAccountSandbox { app, sandbox, environment in
                let owner = sandbox.catalog.wellKnownOwner
                let unsigned = try await run(["user", owner.username, "--json", "--per-page", "100"], app, environment)
                #expect(unsigned.status == .exited(0), "\(unsigned.transcript)")
                #expect(try photos(unsigned).allSatisfy { $0["visibility"] as? String == "public" }, "\(unsigned.transcript)")

                try await signIn(app, sandbox, environment)
                let mine = try await run(["user", "me", "--json", "--per-page", "100"], app, environment)
                #expect(mine.status == .exited(0), "\(mine.transcript)")
                let listed = try photos(mine)
                #expect(listed.allSatisfy { $0["owner"] as? String == owner.nsid })
                let hidden = listed.filter { $0["visibility"] as? String != "public" }
                #expect(hidden.count >= 6, "\(mine.transcript)")
                #expect(Set(hidden.compactMap { $0["visibility"] as? String }).isSubset(of: ["private", "friends", "family", "friends-family"]))
                let hiddenIDs = Set(hidden.compactMap { $0["id"] as? String })
                #expect(try photos(unsigned).allSatisfy { !hiddenIDs.contains($0["id"] as? String ?? "") })

                // The same person by name, signed: the same non-public photos.
                let byName = try await run(["user", owner.username, "--json", "--per-page", "100"], app, environment)
                #expect(hiddenIDs.isSubset(of: Set(try photos(byName).compactMap { $0["id"] as? String })), "\(byName.transcript)")
                // And the text listing says who may see each.
                let text = try await run(["user", "me", "--per-page", "100"], app, environment)
                #expect(text.outputText.contains(" (private) — "), "\(text.transcript)")
            }
        }

        @Test func meWithoutASignInSaysHowToSignIn() async throws {
            try await withAccountSandbox { app, _, environment in
                let result = try await run(["user", "me", "--json"], app, environment)
                #expect(result.status == .exited(1), "\(result.transcript)")
                #expect(result.errorText.contains("Nobody is signed in") && result.errorText.contains("flickr login"), "\(result.transcript)")
                #expect(result.outputText.isEmpty)
                let faves = try await run(["faves", "--json"], app, environment)
                #expect(faves.status == .exited(1))
                #expect(faves.errorText.contains("Nobody is signed in"), "\(faves.transcript)")
            }
        }

        @Test func aRevokedTokenSaysSoAndNeverFallsBackToUnsignedCalls() async throws {
            try await withAccountSandbox { app, sandbox, environment in
                try await signIn(app, sandbox, environment)
                let stored = try String(contentsOfFile: accountFile(environment), encoding: .utf8)
                let fields = try #require(try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: String])
                let revoked = stored.replacingOccurrences(of: fields["oauth_token"] ?? "?", with: "72157000000000-0000000000000000")
                try revoked.write(toFile: accountFile(environment), atomically: true, encoding: .utf8)
                // Private as the app writes it: a file others may read is refused before any call.
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: accountFile(environment))
                for arguments in [["user", "me", "--json"], ["search", "kittens", "--json"], ["faves", "--json"]] {
                    let result = try await run(arguments, app, environment)
                    #expect(result.status == .exited(1), "\(arguments): \(result.transcript)")
                    #expect(result.errorText.contains("expired or was revoked"), "\(arguments): \(result.transcript)")
                    #expect(result.errorText.contains("flickr login"), "\(arguments): \(result.transcript)")
                    #expect(!result.outputText.contains("\"index\":"), "\(arguments): printed photos unsigned")
                }
            }
        }

        @Test(arguments: ["shutterstock", "openverse", "commons"])
        func otherServicesSayTheyHaveNoFavourites(_ service: String) async throws {
            try await withAccountSandbox { app, sandbox, environment in
                let address = service == "commons" ? sandbox.baseURL.appendingPathComponent("w/api.php").absoluteString
                    : sandbox.baseURL.absoluteString
                // Shutterstock at a URL wants credentials; any will do, nothing is asked.
                let result = try await ProcessRunner.run(
                    try Binaries.flickr, arguments: ["faves", "--json", "--provider", service, "--api-url", address],
                    environment: environment.merging(["SHUTTERSTOCK_API_TOKEN": "test"]) { $1 })
                #expect(result.status == .exited(1), "\(result.transcript)")
                #expect(result.errorText.contains("has no accounts to sign in to here, so no favourites"), "\(result.transcript)")
            }
        }

        /// Python flickrapi, unmodified, pointed at the sandbox: signs in, uploads a private photo, prints its id.
        static let flickrapiUpload = """
            import re, sys, tempfile, os, urllib.request
            import flickrapi
            from flickrapi.auth import OAuthFlickrInterface
            base, key, secret = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
            flickrapi.FlickrAPI.REST_URL = base + "/services/rest/"
            flickrapi.FlickrAPI.UPLOAD_URL = base + "/services/upload/"
            OAuthFlickrInterface.REQUEST_TOKEN_URL = base + "/services/oauth/request_token"
            OAuthFlickrInterface.AUTHORIZE_URL = base + "/services/oauth/authorize"
            OAuthFlickrInterface.ACCESS_TOKEN_URL = base + "/services/oauth/access_token"
            api = flickrapi.FlickrAPI(key, secret, format="parsed-json", store_token=False, cache=False)
            api.get_request_token(oauth_callback="oob")
            page = urllib.request.urlopen(api.auth_url(perms="write")).read().decode()
            api.get_access_token(re.search(r'<span id="verifier">([0-9-]+)</span>', page).group(1))
            recent = api.photos.getRecent(per_page=1, extras="url_q")
            image = urllib.request.urlopen(recent["photos"]["photo"][0]["url_q"]).read()
            with tempfile.NamedTemporaryFile(suffix=".jpg", delete=False) as handle:
                handle.write(image)
            try:
                answer = api.upload(handle.name, title="uploaded by flickrapi", is_public="0", is_friend="0",
                                    is_family="0", format="etree")
            finally:
                os.unlink(handle.name)
            print(answer.find("photoid").text)
            """

        /// A Python 3 that imports flickrapi, or nil.
        static let flickrapiPython: String? = {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            guard let python = path.split(separator: ":").map({ "\($0)/python3" })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            else { return nil }
            let check = Process()
            check.executableURL = URL(fileURLWithPath: python)
            check.arguments = ["-c", "import flickrapi"]
            check.standardOutput = FileHandle.nullDevice
            check.standardError = FileHandle.nullDevice
            guard (try? check.run()) != nil else { return nil }
            check.waitUntilExit()
            return check.terminationStatus == 0 ? python : nil
        }()

        @Test(.enabled(if: flickrapiPython != nil, "Python flickrapi is not installed (Scripts/lib/peers.sh installs it)"))
        func aPrivatePhotoFlickrapiUploadsIsListedByUserMe() async throws {
            let python = try #require(Self.flickrapiPython)
            try await withAccountSandbox { app, sandbox, environment in
                let upload = try await ProcessRunner.run(
                    python, arguments: ["-c", Self.flickrapiUpload, sandbox.baseURL.absoluteString, Self.key, Self.secret],
                    environment: ProcessInfo.processInfo.environment)
                #expect(upload.status == .exited(0), "\(upload.transcript)")
                let photoID = upload.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(!photoID.isEmpty)

                let unsigned = try await run(["user", "me", "--json"], app, environment)
                #expect(!unsigned.outputText.contains(photoID))
                try await signIn(app, sandbox, environment)
                let mine = try await run(["user", "me", "--json", "--per-page", "100"], app, environment)
                #expect(mine.status == .exited(0), "\(mine.transcript)")
                let entry = try photos(mine).first { $0["id"] as? String == photoID }
                #expect(entry?["visibility"] as? String == "private", "\(mine.transcript)")
                #expect(entry?["title"] as? String == "uploaded by flickrapi")
            }
        }
    }
}
