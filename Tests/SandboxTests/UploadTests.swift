import Foundation
import Networking
import Sandbox
import Testing

/// `POST /services/upload/` over real HTTP: signed over the form's fields
/// and not the photo, kept with its privacy and bytes, served at every
/// size, found where Flickr would show it, and refused with Flickr's codes.
@Suite(.timeLimit(.minutes(3))) struct UploadTests {
    private var uploadURL: (SandboxServer) -> URL { { $0.baseURL.appendingPathComponent("services/upload/", isDirectory: true) } }

    @Test func aPrivateUploadIsListedFirstForItsOwnerAndFoundByNobodyElse() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            let jpeg = try await sampleJPEG(server)
            var form = UploadForm(fields: [("title", "Quayside lanterns"), ("description", "Evening <b>walk</b>"),
                                           ("tags", "harbour \"blue hour\""), ("is_public", "0"), ("is_friend", "0"),
                                           ("is_family", "0")], photo: jpeg)
            let answer = try await form.post(to: server, signer: user.signer)
            #expect(answer.status == 200 && answer.text.contains("<rsp stat=\"ok\">"), "\(answer.text)")
            let id = try #require(answer.uploadResult.id)

            let mine = try await user.call("flickr.people.getPhotos", [("user_id", "me"), ("extras", "tags,url_q,url_o")])
            let first = try #require(listed(mine).first)
            #expect(first["id"] as? String == id && first["title"] as? String == "Quayside lanterns")
            #expect(first["ispublic"] as? Int == 0 && first["isfriend"] as? Int == 0 && first["isfamily"] as? Int == 0)
            #expect(first["tags"] as? String == "harbour bluehour")
            // Every size the sandbox names serves the bytes as sent.
            let sizes = try await user.call("flickr.photos.getSizes", [("photo_id", id)])
            let sources = ((sizes["sizes"] as? [String: Any])?["size"] as? [[String: Any]] ?? []).compactMap { $0["source"] as? String }
            #expect(sources.count == SandboxImageSize.allCases.count)
            for source in sources {
                let image = try await http(.GET, try #require(URL(string: source)))
                #expect(image.status == 200 && Array(image.body) == jpeg, "\(source)")
            }

            for signer in [nil, user.signer] as [OAuthSigner?] {
                let found = try await SignedInUser.call("flickr.photos.search", [("text", "quayside lanterns")], server: server,
                                                        signer: signer)
                #expect(listed(found).contains { $0["id"] as? String == id } == (signer != nil))
            }
            let unsigned = try await SignedInUser.call("flickr.photos.getInfo", [("photo_id", id)], server: server, signer: nil)
            #expect(failureCode(unsigned) == 1)

            // Friends-only: not public, and still only its owner's.
            form.fields = [("title", "For friends"), ("is_public", "0"), ("is_friend", "1"), ("is_family", "0")]
            let friends = try #require(try await form.post(to: server, signer: user.signer).uploadResult.id)
            let listing = listed(try await user.call("flickr.people.getPhotos", [("user_id", "me")]))
            #expect(listing.prefix(2).compactMap { $0["id"] as? String } == [friends, id])
            #expect(listing.first?["isfriend"] as? Int == 1 && listing.first?["ispublic"] as? Int == 0)
        }
    }

    @Test func anUploadWithoutPrivacyIsPublicAndTitledAfterItsFile() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            let form = UploadForm(fields: [], photo: try await sampleJPEG(server), fileName: "Lighthouse 2026.jpeg")
            let id = try #require(try await form.post(to: server, signer: user.signer).uploadResult.id)
            let stranger = try await SignedInUser.call("flickr.people.getPhotos", [("user_id", user.nsid)], server: server, signer: nil)
            let first = try #require(listed(stranger).first)
            #expect(first["id"] as? String == id && first["ispublic"] as? Int == 1)
            #expect(first["title"] as? String == "Lighthouse 2026")
            let found = try await SignedInUser.call("flickr.photos.search", [("text", "lighthouse")], server: server, signer: nil)
            #expect(listed(found).first?["id"] as? String == id)
            let recent = try await SignedInUser.call("flickr.photos.getRecent", [("per_page", "5")], server: server, signer: nil)
            #expect(listed(recent).first?["id"] as? String == id)
        }
    }

    @Test func theOAuthParametersMayComeInTheForm() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            var form = UploadForm(fields: [("title", "Form-signed")], photo: try await sampleJPEG(server))
            form.fields += user.signer.oauthParameters(method: "POST", url: uploadURL(server), form: form.fields)
            let answer = try await postBytes(form.body, to: uploadURL(server), headers: [("Content-Type", form.contentType)])
            #expect(answer.uploadResult.id != nil, "\(answer.text)")
        }
    }

    @Test func refusalsCarryFlickrsUploadCodes() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            let jpeg = try await sampleJPEG(server)
            func code(_ form: UploadForm, _ signer: OAuthSigner?) async throws -> Int? {
                let answer = try await form.post(to: server, signer: signer)
                #expect(answer.status == 200 && answer.text.contains("<rsp stat=\"fail\">"), "\(answer.text)")
                return answer.uploadResult.code
            }
            #expect(try await code(UploadForm(fields: [("title", "none")]), user.signer) == 2)
            #expect(try await code(UploadForm(photo: []), user.signer) == 4)
            #expect(try await code(UploadForm(photo: Array("just some text".utf8)), user.signer) == 5)
            #expect(try await code(UploadForm(photo: jpeg), nil) == 99)
            let reader = try await SignedInUser.signIn(server, perms: "read")
            #expect(try await code(UploadForm(photo: jpeg), reader.signer) == 99)
            // Signed over other fields than those sent: Flickr's 96.
            var tampered = UploadForm(fields: [("title", "signed")], photo: jpeg)
            let header = user.signer.authorizationHeader(method: "POST", url: uploadURL(server), form: tampered.fields)
            tampered.fields = [("title", "changed")]
            let answer = try await postBytes(tampered.body, to: uploadURL(server), headers: [("Content-Type", tampered.contentType), header])
            #expect(answer.uploadResult.code == 96, "\(answer.text)")
            // Nothing was kept by any of them.
            let mine = listed(try await user.call("flickr.people.getPhotos", [("user_id", "me"), ("per_page", "1")]))
            #expect(mine.first?["ispublic"] as? Int == 0 && mine.first?["title"] as? String != "changed")
        }
    }

    @Test func aBodyClaimedLargerThanTheLimitIsRefusedUnread() async throws {
        try await withSandbox { server, _ in
            let port = try #require(server.baseURL.port)
            let boundary = "b0undary"
            let head = "POST /services/upload/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
                + "Content-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(Int.max)\r\n\r\n"
            let reply = try await rawHTTP(port: port, head + "--\(boundary)\r\n")
            #expect(reply.contains("<err code=\"8\"") && reply.contains("64 MB"), "\(reply)")
            // Still serving.
            #expect(try await http(.GET, server.jsonCall("flickr.test.echo")).status == 200)
        }
    }

    /// Hostile bodies: each gets Flickr's failure answer, none a crash or a hang.
    @Test func hostileMultipartBodiesAreRefusedCleanly() async throws {
        try await withSandbox { server, _ in
            let user = try await SignedInUser.signIn(server)
            let url = uploadURL(server)
            let boundary = "xyz"
            let signed = user.signer.authorizationHeader(method: "POST", url: url)
            let part = "--xyz\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\r\n"
            var random = SystemRandomNumberGenerator()
            let bodies: [(String, [UInt8])] = [
                ("no boundary in the type", Array("--xyz\r\n".utf8)),
                ("empty", []),
                ("only a delimiter", Array("--xyz".utf8)),
                ("a part cut short", Array((part + "\u{FF}\u{D8}\u{FF}abc").utf8)),
                ("headers without end", Array(("--xyz\r\nContent-Disposition: form-data; name=\"photo\"" + String(repeating: "x", count: 100_000)).utf8)),
                ("no disposition", Array("--xyz\r\nContent-Type: image/jpeg\r\n\r\nabc\r\n--xyz--\r\n".utf8)),
                ("near-delimiters", Array((part + String(repeating: "\r\n--xy\r\n-", count: 50_000)).utf8)),
                ("too many parts", Array((String(repeating: "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n", count: 100) + "--xyz--\r\n").utf8)),
                ("random bytes", (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &random) }),
            ]
            for (name, body) in bodies {
                let type = name == "no boundary in the type" ? "multipart/form-data" : "multipart/form-data; boundary=\(boundary)"
                let answer = try await postBytes(body, to: url, headers: [("Content-Type", type), signed])
                let code = answer.uploadResult.code
                #expect(answer.status == 200 && (code == 2 || code == 3), "\(name): \(answer.text)")
            }
            #expect(try await http(.GET, server.jsonCall("flickr.test.echo")).status == 200)
        }
    }
}
