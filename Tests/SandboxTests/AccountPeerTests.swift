import Foundation
import Sandbox
import TestSupport
import Testing

/// Python flickrapi, unmodified, as the signed-in person: it signs in,
/// uploads a private photo and lists it signed, an unsigned search never
/// shows it, and it sees a photo the app's own signer uploaded. A missing
/// flickrapi is a visible skip.
@Suite(.timeLimit(.minutes(3))) struct AccountPeerTests {
    @Test(.enabled(if: Peers.python(importing: "flickrapi") != nil, "Python flickrapi is not installed (Scripts/lib/peers.sh installs it)"))
    func flickrapiUploadsAPrivatePhotoThatOnlyItsOwnerSees() async throws {
        let python = try #require(Peers.python(importing: "flickrapi"))
        let (key, secret) = ("flickrapi-key", "flickrapi secret")
        try await withSandbox({ configuration in
            configuration.requiredAPIKey = key
            configuration.flickrAPISecret = secret
        }) { server, _ in
            // First the app's signer uploads a private photo of its own.
            let app = try await SignedInUser.signIn(server, consumerKey: key, consumerSecret: secret)
            let form = UploadForm(fields: [("title", "sent by the app"), ("is_public", "0")], photo: try await sampleJPEG(server))
            let appPhoto = try #require(try await form.post(to: server, signer: app.signer).uploadResult.id)

            let run = try await ProcessRunner.run(
                python, arguments: [Peers.script("flickrapi_account_peer.py"), server.baseURL.absoluteString, key, secret, appPhoto],
                environment: Peers.environment)
            #expect(run.status == .exited(0), "\(run.transcript)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any])
            #expect(result["user_nsid"] as? String == server.catalog.wellKnownOwner.nsid)
            let photoID = try #require(result["photo_id"] as? String)
            #expect(photoID != appPhoto && result["first_listed"] as? String == photoID)
            let entry = try #require(result["listed"] as? [String: Any])
            #expect(entry["ispublic"] as? Int == 0 && entry["title"] as? String == "flickrapi private upload")
            let unsigned = result["unsigned_search_ids"] as? [String] ?? ["?"]
            #expect(!unsigned.contains(photoID) && !unsigned.contains(appPhoto))
            #expect(!unsigned.isEmpty, "the owner's public photos are still found")
            #expect(result["unsigned_info_refusal"] as? Int == 1)
            #expect(result["other_upload_listed"] as? Bool == true)

            // And the app's signer sees flickrapi's upload, with its tags.
            let mine = try await app.call("flickr.people.getPhotos", [("user_id", "me"), ("extras", "tags"), ("per_page", "2")])
            #expect(listed(mine).compactMap { $0["id"] as? String } == [photoID, appPhoto])
            #expect(listed(mine).first?["tags"] as? String == "peer bluehour")
        }
    }
}
