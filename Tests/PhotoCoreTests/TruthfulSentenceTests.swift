import Foundation
import Testing
import TestSupport
@testable import PhotoCore
@testable import FlickrService
@testable import Networking

/// Sentences that said something untrue or unhelpful.
@Suite struct TruthfulSentenceTests {
    // MARK: - An album by its id alone

    @Test func anAlbumWhoseOwnerFlickrCannotFindNamesNoEmptyUser() async throws {
        try await LoopbackHTTPServer.with({ _ in
            .text(#"{"stat":"fail","code":2,"message":"User not found"}"#)
        }) { server in
            let network = NetworkManager()
            let provider = FlickrProvider(apiKey: "k", endpoint: server.restURL, network: network, retryPolicy: .never)
            do {
                _ = try await provider.resolve(.album(id: "1234", owner: nil))
                Issue.record("an album of nobody was found")
            } catch {
                let sentence = userMessage(for: error)
                #expect(!sentence.contains("“”"), "\(sentence)")
                #expect(sentence.contains("“1234”") && sentence.contains("link"), "\(sentence)")
            }
            await network.shutdown()
        }
    }

    @Test func anAlbumOwnerTheLinkNamedIsNamed() {
        let owner = Person(id: "anasouza", username: "", pathAlias: "anasouza")
        #expect(FlickrProvider.noSuchAlbumOwner(owner, album: "1234") == "Flickr has no user “anasouza” with the album “1234”.")
        let blank = Person(id: " ", username: "")
        #expect(!FlickrProvider.noSuchAlbumOwner(blank, album: "1234").contains("“ ”"))
    }

    // MARK: - Openverse's page size without credentials

    @Test func openversesPageLimitNamesTheCredentialsThatLiftIt() async throws {
        let home = try TemporaryDirectory()
        var environment = PTYProcess.baseEnvironment()
        environment["HOME"] = home.url.path
        environment["XDG_STATE_HOME"] = home.url.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = home.url.appendingPathComponent("cache").path
        environment.removeValue(forKey: "OPENVERSE_CLIENT_ID")
        environment.removeValue(forKey: "OPENVERSE_CLIENT_SECRET")
        let result = try await ProcessRunner.run(
            try Binaries.flickr,
            arguments: ["search", "pier", "--provider", "openverse", "--per-page", "50", "--api-url", "http://127.0.0.1:9"],
            environment: environment)
        #expect(result.status != .exited(0), "\(result.transcript)")
        #expect(result.transcript.contains("1–20"), "\(result.transcript)")
        #expect(result.transcript.contains("OPENVERSE_CLIENT_ID") && result.transcript.contains("OPENVERSE_CLIENT_SECRET"),
                "\(result.transcript)")
    }

    // MARK: - Redaction

    @Test func aShortSecretIsRedactedOnlyWhereItStandsWhole() {
        let redactor = SecretRedactor("id")
        #expect(redactor.redact("Invalid client") == "Invalid client")
        #expect(redactor.redact("client_id=id&x=1") == "client_id=[redacted]&x=1")
        #expect(redactor.redact("{\"client_id\": \"id\"}") == "{\"client_id\": \"[redacted]\"}")
        #expect(SecretRedactor("k").redact("Flickr key k is unknown; check the key") == "Flickr key [redacted] is unknown; check the key")
    }

    @Test func aRealKeyIsRedactedEvenInsideAWord() {
        let key = "0123456789abcdef0123456789abcdef"
        let redactor = SecretRedactor(key)
        for text in ["x\(key)y", "api_key=\(key)", "prefix_\(key)_suffix", "\(key.uppercased().lowercased())", "Bearer\(key)"] {
            #expect(!redactor.redact(text).contains(key), "\(text)")
        }
        #expect(!SecretRedactor("s3cretXY").redact("abcs3cretXYdef").contains("s3cretXY"))
    }
}
