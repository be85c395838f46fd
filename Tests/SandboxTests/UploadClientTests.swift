import FlickrService
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Networking
import NIOConcurrencyHelpers
import Sandbox
import TestSupport
import Testing

/// The app's upload client (`FlickrOAuth.upload` and the write calls after
/// it) against the sandbox over real HTTP: the photo arrives with the privacy
/// asked, its licence and album are set, Flickr's 98 is told apart, a
/// transient failure is retried, and Python flickrapi sees what it sent.
@Suite(.timeLimit(.minutes(3))) struct UploadClientTests {
    /// Signed in as the sandbox's test user, with the app's own client.
    struct Client {
        var oauth: FlickrOAuth
        var account: FlickrAccount
        var user: SignedInUser
    }

    private func signIn(_ server: SandboxServer, _ network: NetworkManager, key: String = SignedInUser.consumerKey,
                        secret: String = SignedInUser.consumerSecret) async throws -> Client {
        let quick = RetryPolicy(maxAttempts: 4, sleep: { _ in })
        let oauth = FlickrOAuth(consumerKey: key, consumerSecret: secret, restEndpoint: server.restURL, network: network,
                                retryPolicy: quick)
        let pending = try await oauth.requestToken()
        // Through `network`, whose time-outs also end an authorize page the sandbox stalls.
        let page = String(decoding: try await network.get(oauth.authorizeURL(for: pending)).body, as: UTF8.self)
        guard let start = page.range(of: "<span id=\"verifier\">") else { throw TestFailure("no verifier on the authorize page: \(page)") }
        let account = try await oauth.exchange(pending, verifier: String(page[start.upperBound...].prefix { $0 != "<" }))
        let signer = OAuthSigner(consumerKey: key, consumerSecret: secret, token: account.token, tokenSecret: account.tokenSecret)
        return Client(oauth: oauth, account: account, user: SignedInUser(signer: signer, nsid: account.userNSID, server: server))
    }

    /// A real JPEG on disk, and a form for it as `flickr upload` builds one.
    private func photoFile(_ server: SandboxServer, in folder: TemporaryDirectory, name: String, title: String,
                           privacy: FlickrUploadPrivacy) async throws -> FlickrUploadForm {
        let bytes = try await sampleJPEG(server)
        let file = folder.url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return FlickrUploadForm(fields: [("title", title)] + privacy.fields, filePath: file.path, fileLength: bytes.count,
                                fileName: name)
    }

    @Test func aPrivateUploadIsTheOwnersAloneWithProgressToTheLastByte() async throws {
        try await withSandbox { server, network in
            let client = try await signIn(server, network)
            let folder = try TemporaryDirectory(prefix: "upload-client")
            let form = try await photoFile(server, in: folder, name: "quay \"night\".jpg", title: "Quay at night", privacy: .private)
            let sent = NIOLockedValueBox<[Int]>([])
            let id = try await client.oauth.upload(form, account: client.account) { bytes, total in
                sent.withLockedValue { $0.append(bytes) }
                #expect(total == form.body.length)
            }
            #expect(sent.withLockedValue { $0.last } == form.body.length)
            #expect(sent.withLockedValue { $0.count } >= 3, "head, photo and tail each reported")

            let mine = listed(try await client.user.call("flickr.people.getPhotos", [("user_id", "me")]))
            let first = try #require(mine.first)
            #expect(first["id"] as? String == id && first["title"] as? String == "Quay at night")
            #expect(first["ispublic"] as? Int == 0 && first["isfriend"] as? Int == 0 && first["isfamily"] as? Int == 0)
            let unsigned = try await SignedInUser.call("flickr.photos.search", [("text", "quay night")], server: server, signer: nil)
            #expect(!listed(unsigned).contains { $0["id"] as? String == id })
            #expect(FlickrOAuth.photoPage(owner: client.account.userNSID, photoID: id)?.absoluteString
                    == "https://www.flickr.com/photos/\(client.account.userNSID)/\(id)/")
        }
    }

    @Test func eachPrivacySettingSendsFlickrsThreeFlags() async throws {
        try await withSandbox { server, network in
            let client = try await signIn(server, network)
            let folder = try TemporaryDirectory(prefix: "upload-privacy")
            for privacy in FlickrUploadPrivacy.allCases {
                let form = try await photoFile(server, in: folder, name: "\(privacy.rawValue).jpg", title: privacy.rawValue,
                                               privacy: privacy)
                let id = try await client.oauth.upload(form, account: client.account)
                let entry = try #require(listed(try await client.user.call("flickr.people.getPhotos", [("user_id", "me")])).first)
                #expect(entry["id"] as? String == id)
                let flags = [entry["ispublic"], entry["isfriend"], entry["isfamily"]].map { $0 as? Int ?? -1 }
                let expected: [FlickrUploadPrivacy: [Int]] = [
                    .public: [1, 0, 0], .friends: [0, 1, 0], .family: [0, 0, 1], .friendsFamily: [0, 1, 1], .private: [0, 0, 0],
                ]
                #expect(flags == expected[privacy], "\(privacy)")
            }
        }
    }

    @Test func theLicenceAndAlbumAreSetAsAsked() async throws {
        try await withSandbox { server, network in
            let client = try await signIn(server, network)
            let folder = try TemporaryDirectory(prefix: "upload-album")
            var ids: [String] = []
            for name in ["one.jpg", "two.jpg"] {
                let form = try await photoFile(server, in: folder, name: name, title: name, privacy: .private)
                ids.append(try await client.oauth.upload(form, account: client.account))
            }
            try await client.oauth.setLicense(try FlickrUploadLicense("by-sa"), photoID: ids[0], account: client.account)
            let info = try await client.user.call("flickr.photos.getInfo", [("photo_id", ids[0])])
            #expect((info["photo"] as? [String: Any])?["license"] as? String == "12")

            #expect(try await client.oauth.album(named: "Harbour walks", account: client.account) == nil)
            let made = try await client.oauth.createAlbum(title: "Harbour walks", primaryPhotoID: ids[0], account: client.account)
            try await client.oauth.addPhoto(ids[1], to: made, account: client.account)
            // Already in it: where it was asked to be, not a failure.
            try await client.oauth.addPhoto(ids[1], to: made, account: client.account)
            #expect(try await client.oauth.album(named: "Harbour walks", account: client.account) == made)
            #expect(try await client.oauth.album(named: "harbour WALKS", account: client.account) == made)
            #expect(try await client.oauth.album(named: made.id, account: client.account) == made)
            let inside = try await client.user.call("flickr.photosets.getPhotos", [("photoset_id", made.id)])
            #expect(((inside["photoset"] as? [String: Any])?["photo"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ids)
            await #expect(throws: FlickrAccountError.self) {
                _ = try await client.oauth.album(named: "72157000000000001", account: client.account)
            }
        }
    }

    @Test func aRevokedSignInIsFlickrs98AndNothingIsKept() async throws {
        try await withSandbox { server, network in
            var client = try await signIn(server, network)
            let folder = try TemporaryDirectory(prefix: "upload-revoked")
            let form = try await photoFile(server, in: folder, name: "a.jpg", title: "never kept", privacy: .private)
            client.account.token = "72157000000000-0000000000000000"
            await #expect {
                _ = try await client.oauth.upload(form, account: client.account)
            } throws: { error in
                guard case FlickrAccountError.tokenRejected? = error as? FlickrAccountError else { return false }
                return "\(error)".contains("flickr login") && !"\(error)".contains(client.account.tokenSecret)
            }
        }
    }

    /// Signed in while every call meets its one fault: sign-in does not try
    /// a step again, so it is simply begun again until each step had its fault.
    private func signInThroughFaults(_ server: SandboxServer, _ network: NetworkManager) async throws -> Client {
        var signedIn: Client?
        // Four tries when nothing else is slow; the rest are for a busy machine.
        for _ in 0..<8 where signedIn == nil { signedIn = try? await signIn(server, network) }
        return try #require(signedIn)
    }

    /// The ids of the signed-in person's photos titled `title`, listed
    /// through `network` (whose time-outs end a stalled answer) and tried
    /// again past the listing's own fault.
    private func copies(titled title: String, _ client: Client, _ network: NetworkManager) async throws -> [String] {
        let url = client.user.server.restURL
        let form = [("method", "flickr.people.getPhotos"), ("format", "json"), ("nojsoncallback", "1"), ("user_id", "me")]
        var mine: [[String: Any]]?
        for _ in 0..<3 where mine == nil {
            let header = client.user.signer.authorizationHeader(method: "POST", url: url, form: form)
            if let answer = try? await network.post(url, form: form, headers: [header]) {
                mine = listed(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any] ?? [:])
            }
        }
        let listing = try #require(mine, "the photostream could be listed")
        return listing.filter { $0["title"] as? String == title }.compactMap { $0["id"] as? String }
    }

    /// The sandbox injects its fault after it kept the upload (the answer,
    /// not the photo, is lost): the retry finds the photo instead of sending
    /// a second copy, and returns its id.
    private func oneCopyAfterALost(_ kind: FaultConfiguration.Kind, network: NetworkManager.Configuration = .testing) async throws {
        try await withSandboxSession(network: network, configure: { configuration in
            configuration.faults.kind = kind
            configuration.faults.status = 503
            configuration.faults.rate = 1
            configuration.faults.times = 1
            configuration.faults.scope = .rest
        }) { server, network in
            let client = try await signInThroughFaults(server, network)
            let before = server.stats().faultsInjected
            let folder = try TemporaryDirectory(prefix: "upload-lost")
            let form = try await photoFile(server, in: folder, name: "retried.jpg", title: "kept once", privacy: .friends)
            let id = try await client.oauth.upload(form, account: client.account)
            #expect(server.stats().faultsInjected > before, "the upload met the fault")
            #expect(try await copies(titled: "kept once", client, network) == [id], "\(kind): one copy, the one returned")
        }
    }

    @Test func aServerErrorAfterThePhotoWasKeptLeavesOneCopy() async throws {
        try await oneCopyAfterALost(.status)
    }

    @Test func anAnswerCutOffAfterThePhotoWasKeptLeavesOneCopy() async throws {
        try await oneCopyAfterALost(.reset)
    }

    @Test func aStalledAnswerAfterThePhotoWasKeptLeavesOneCopy() async throws {
        var network = NetworkManager.Configuration.testing
        network.idleTimeout = .seconds(2)
        network.answerTimeout = .seconds(2)
        try await oneCopyAfterALost(.stall, network: network)
    }

    /// A client whose silence limit is short, for the upload alone; the
    /// sign-in and checks go through the patient test client.
    @discardableResult
    private func withImpatientUploads<T>(
        _ server: SandboxServer, _ client: Client, restEndpoint: URL? = nil, _ body: (FlickrOAuth) async throws -> T
    ) async throws -> T {
        var configuration = NetworkManager.Configuration.testing
        configuration.idleTimeout = .milliseconds(500)
        // Short, so a send that never stalls (the code before idle limits on sending) ends soon as `.timedOut`.
        configuration.requestTimeout = .seconds(5)
        let network = NetworkManager(configuration: configuration)
        let oauth = FlickrOAuth(consumerKey: SignedInUser.consumerKey, consumerSecret: SignedInUser.consumerSecret,
                                restEndpoint: restEndpoint ?? server.restURL, network: network,
                                retryPolicy: RetryPolicy(maxAttempts: 2, sleep: { _ in }))
        do {
            let result = try await body(oauth)
            await network.shutdown()
            return result
        } catch {
            await network.shutdown()
            throw error
        }
    }

    /// A server that takes a while after the last byte (Flickr processing a
    /// large photo) is waited for past the silence that stalls other calls.
    @Test func theAnswerIsAwaitedWhileTheServerWorksOnThePhoto() async throws {
        try await withSandbox({ $0.latency = .seconds(2) }) { server, network in
            let client = try await signIn(server, network)
            let folder = try TemporaryDirectory(prefix: "upload-slow-answer")
            let file = folder.url.appendingPathComponent("slow.jpg")
            let bytes = TinyJPEG.make(size: 40_000, fill: 5)
            try bytes.write(to: file)
            let form = FlickrUploadForm(fields: [("title", "slow answer")] + FlickrUploadPrivacy.private.fields, filePath: file.path,
                                        fileLength: bytes.count, fileName: "slow.jpg")
            let id = try await withImpatientUploads(server, client) { oauth in
                try await oauth.upload(form, account: client.account)
            }
            #expect(try await copies(titled: "slow answer", client, network) == [id])
        }
    }

    /// A server that stops reading the photo (here one that never even
    /// accepts the connection: the kernel takes what its buffers hold) fails
    /// the send after the silence limit, long before the deadline of a large body.
    @Test func aSendTheServerStopsReadingFailsAsAStall() async throws {
        try await withSandbox { server, network in
            let client = try await signIn(server, network)
            let silent = try SilentListener()
            defer { silent.close() }
            let folder = try TemporaryDirectory(prefix: "upload-stalled-send")
            let file = folder.url.appendingPathComponent("large.jpg")
            // Far more than the socket buffers on both sides hold, so the send must wait for the server.
            let bytes = TinyJPEG.make(size: 24 << 20, fill: 6)
            try bytes.write(to: file)
            let form = FlickrUploadForm(fields: [("title", "never whole")] + FlickrUploadPrivacy.private.fields, filePath: file.path,
                                        fileLength: bytes.count, fileName: "large.jpg")
            let rest = try #require(URL(string: "http://127.0.0.1:\(silent.port)/services/rest/"))
            try await withImpatientUploads(server, client, restEndpoint: rest) { oauth in
                var account = client.account
                account.issuer = oauth.issuer
                await #expect {
                    _ = try await oauth.upload(form, account: account)
                } throws: { error in
                    guard case .flickr(.network(.stalled))? = error as? FlickrAccountError else { return false }
                    return true
                }
            }
        }
    }

    @Test func theUploadEndpointSitsBesideTheRESTOne() throws {
        let flickr = FlickrOAuth.uploadEndpoint(forREST: try #require(URL(string: "https://api.flickr.com/services/rest/")))
        #expect(flickr.absoluteString == "https://up.flickr.com/services/upload/")
        let local = FlickrOAuth.uploadEndpoint(forREST: try #require(URL(string: "http://127.0.0.1:8080/base/services/rest/?x=1")))
        #expect(local.absoluteString == "http://127.0.0.1:8080/base/services/upload/")
    }

    @Test(.enabled(if: Peers.python(importing: "flickrapi") != nil, "Python flickrapi is not installed (Scripts/lib/peers.sh installs it)"))
    func flickrapiSeesAPhotoTheAppUploaded() async throws {
        let python = try #require(Peers.python(importing: "flickrapi"))
        let (key, secret) = ("flickrapi-key", "flickrapi secret")
        try await withSandbox({ configuration in
            configuration.requiredAPIKey = key
            configuration.flickrAPISecret = secret
        }) { server, network in
            let client = try await signIn(server, network, key: key, secret: secret)
            let folder = try TemporaryDirectory(prefix: "upload-peer")
            let form = try await photoFile(server, in: folder, name: "for the peer.jpg", title: "sent by flickr upload",
                                           privacy: .private)
            let id = try await client.oauth.upload(form, account: client.account)
            let run = try await ProcessRunner.run(
                python, arguments: [Peers.script("flickrapi_account_peer.py"), server.baseURL.absoluteString, key, secret, id],
                environment: Peers.environment)
            #expect(run.status == .exited(0), "\(run.transcript)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any])
            #expect(result["other_upload_listed"] as? Bool == true, "flickrapi's signed people.getPhotos lists the app's upload")
            #expect(!(result["unsigned_search_ids"] as? [String] ?? [id]).contains(id))
        }
    }
}

/// Licence names and privacy words, read as `--license` and `--privacy` take them.
@Suite struct UploadSettingTests {
    @Test func licenceNamesWithoutAVersionAreFlickrs2025Licences() throws {
        let expected = ["by": 11, "by-sa": 12, "by-nd": 13, "by-nc": 14, "by-nc-sa": 15, "by-nc-nd": 16, "cc0": 9, "pdm": 10,
                        "BY-SA": 12, " by ": 11, "all-rights-reserved": 0]
        for (name, id) in expected {
            #expect(try FlickrUploadLicense(name).id == id, "\(name)")
        }
    }

    @Test func aVersionOrAnIDPicksAnOlderLicence() throws {
        let expected = ["by-2.0": 4, "by-sa-2.0": 5, "by-nd-2": 6, "by-nc-2.0": 2, "by-nc-sa-2.0": 1, "by-nc-nd-2.0": 3,
                        "by-4.0": 11, "cc0-1.0": 9, "pdm-1.0": 10, "4": 4, "0": 0, "16": 16]
        for (name, id) in expected {
            #expect(try FlickrUploadLicense(name).id == id, "\(name)")
        }
    }

    @Test func anUnknownLicenceIsASentenceListingTheNames() {
        for name in ["cc", "commercial", "by-3.0", "cc0-2.0", "7", "8", "17", "-1", "", "by-sa-x", "١١"] {
            #expect {
                _ = try FlickrUploadLicense(name)
            } throws: { error in
                let text = "\(error)"
                return text.contains("--license") && text.contains("by-nc-nd") && text.contains("cc0") && text.contains("pdm")
            }
        }
    }

    @Test func privacyWordsAndTheirRefusal() throws {
        #expect(try FlickrUploadPrivacy("Friends-Family") == .friendsFamily)
        #expect(try FlickrUploadPrivacy("private").fields.map(\.1) == ["0", "0", "0"])
        #expect {
            _ = try FlickrUploadPrivacy("everyone")
        } throws: { error in
            "\(error)".contains("public, friends, family, friends-family, private")
        }
    }
}

/// A loopback port that is listened on and never served: connections wait
/// in the kernel's backlog, which takes their first bytes and then no more
/// (a test that wants to answer accepts on `socket` itself).
struct SilentListener {
    let socket: Int32
    let port: Int

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("no socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(socket, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard bound == 0, named == 0, listen(socket, 8) == 0 else {
            Glibc.close(socket)
            throw TestFailure("the silent listener could not listen")
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(socket) }
}
