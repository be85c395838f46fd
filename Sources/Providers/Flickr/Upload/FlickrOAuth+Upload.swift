import Foundation
import Networking
import NIOConcurrencyHelpers
import PhotoCore

/// Uploads and the write calls around them, made as the signed-in person:
/// the photo itself, its licence, and the album it goes into.
extension FlickrOAuth {
    /// `BASE/services/upload/` beside `BASE/services/rest/`, so `--api-url`
    /// moves it with the REST and OAuth endpoints; Flickr's own is on up.flickr.com.
    public var uploadEndpoint: URL { Self.uploadEndpoint(forREST: restEndpoint) }

    public static func uploadEndpoint(forREST rest: URL) -> URL {
        if rest.host?.lowercased() == FlickrProvider.defaultEndpoint.host {
            return URL(string: "https://up.flickr.com/services/upload/")!
        }
        return oauthBase(forREST: rest).deletingLastPathComponent().appendingPathComponent("upload", isDirectory: true)
    }

    /// Sends one photo and returns the id Flickr gave it. Signed over the
    /// form's text fields, not the photo; each try is signed afresh (a nonce
    /// is used once) and reads the file again.
    ///
    /// A try whose whole form went out but whose answer was no clear
    /// `stat="ok"` or `stat="fail"` may have left a photo on Flickr: the next
    /// try, and the end of trying, first look for it (`lostUpload`) and take
    /// it rather than send a second copy. `known` are the photos already
    /// recorded, never taken for this one.
    public func upload(
        _ form: FlickrUploadForm, account: FlickrAccount, known: Set<String> = [],
        progress: NetworkManager.SendProgress? = nil
    ) async throws(FlickrAccountError) -> String {
        guard account.issuer == issuer else { throw .signedInElsewhere(account.issuer) }
        let signer = signer.with(token: account.token, tokenSecret: account.tokenSecret)
        let url = uploadEndpoint
        /// When the first try whose answer was lost began.
        var lostSince: Date?
        do {
            return try await retryPolicy.run(
                classify: { (error: FlickrAccountError) in
                    if case .flickr(let failure) = error { return failure.retryDecision }
                    return .stop
                },
                cancelled: { .flickr(.network(.cancelled)) }
            ) { _ throws(FlickrAccountError) in
                if let lostSince, let found = try await lostUpload(of: form, since: lostSince, excluding: known, account: account) {
                    return found
                }
                let began = Date()
                let wentOut = NIOLockedValueBox(false)
                do throws(FlickrError) {
                    let response: NetworkManager.Response
                    do throws(NetworkError) {
                        response = try await network.post(
                            url, body: form.body, contentType: form.contentType,
                            headers: [signer.authorizationHeader(method: "POST", url: url, form: form.fields)],
                            maxBytes: 64 << 10) { sent, total in
                                if sent == total { wentOut.withLockedValue { $0 = true } }
                                progress?(sent, total)
                            }
                    } catch {
                        throw FlickrError.network(error)
                    }
                    let body = response.body
                    return try ResponseExcerpt.redacting(signer.secrets) { () throws(FlickrError) in try FlickrUploadAnswer.photoID(body) }
                } catch {
                    if wentOut.withLockedValue({ $0 }), Self.leavesItUnknown(error) { lostSince = lostSince ?? began }
                    throw .flickr(error)
                }
            }
        } catch {
            // Out of tries (or an answer not to try again on): the last look may still find it.
            if let lostSince, !Task.isCancelled,
               let found = try? await lostUpload(of: form, since: lostSince, excluding: known, account: account) {
                return found
            }
            guard case .flickr(let failure) = error else { throw error }
            throw Self.accountError(failure, redactor: redactor(account))
        }
    }

    /// Whether a try that failed so, after its whole form went out, may
    /// still have made a photo: anything but Flickr's own clear answer.
    static func leavesItUnknown(_ error: FlickrError) -> Bool {
        switch error {
        case .api: false
        case .network(.cancelled): false
        default: true
        }
    }

    /// `flickr.photos.licenses.setLicense` (the upload form has no licence field).
    public func setLicense(_ license: FlickrUploadLicense, photoID: String, account: FlickrAccount) async throws(FlickrAccountError) {
        _ = try await signedPost("flickr.photos.licenses.setLicense", [("photo_id", photoID), ("license_id", String(license.id))],
                                 account: account)
    }

    /// The licence id a photo of the person has now (`flickr.photos.getInfo`, signed); nil when the answer has none.
    public func licenseID(ofPhoto photoID: String, account: FlickrAccount) async throws(FlickrAccountError) -> Int? {
        let root = try await signedCall(method: "flickr.photos.getInfo", parameters: [("photo_id", photoID)], account: account)
        return FlickrResponseDecoder.first(root["photo"])?["license"]?.lenientInteger
    }

    // MARK: - Albums

    /// One of the person's albums: its id and title.
    public struct UploadAlbum: Sendable, Equatable {
        public var id: String
        public var title: String
    }

    /// The person's album whose id is `text`, else whose title is `text`
    /// (exactly, then ignoring case); nil when none is, so it can be made.
    /// Text that looks like an album id (ten digits or more) and matches no
    /// album is refused: it would otherwise become an album's title.
    public func album(named text: String, account: FlickrAccount) async throws(FlickrAccountError) -> UploadAlbum? {
        let wanted = text.trimmingCharacters(in: .whitespaces)
        let albums = try await albums(account: account)
        if let album = albums.first(where: { $0.id == wanted }) ?? albums.first(where: { $0.title == wanted })
            ?? albums.first(where: { $0.title.lowercased() == wanted.lowercased() }) {
            return album
        }
        if wanted.count >= 10, wanted.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw .flickr(.notFound("None of your albums has the id \(wanted). Give an album's id or title from your albums (a new title makes a new album)."))
        }
        return nil
    }

    /// `flickr.photosets.create` with `primaryPhotoID` as its first photo.
    public func createAlbum(title: String, primaryPhotoID: String, account: FlickrAccount) async throws(FlickrAccountError) -> UploadAlbum {
        // Not tried again once it may have been sent: a second try could make a second album.
        let root = try await signedPost("flickr.photosets.create", [("title", title), ("primary_photo_id", primaryPhotoID)],
                                        account: account, retrying: { RetryPolicy.decision(forUnsent: $0) })
        guard let set = FlickrResponseDecoder.first(root["photoset"]), let id = FlickrResponseDecoder.nonEmpty(set["id"]),
              FlickrProvider.isPathSafe(id)
        else { throw .flickr(.malformedResponse("flickr.photosets.create's answer has no album id.")) }
        return UploadAlbum(id: id, title: title)
    }

    /// `flickr.photosets.addPhoto`; a photo already in the album (code 3) is
    /// where it was asked to be. Whether it was added (false: it was in it).
    @discardableResult
    public func addPhoto(_ photoID: String, to album: UploadAlbum, account: FlickrAccount) async throws(FlickrAccountError) -> Bool {
        do {
            _ = try await signedPost("flickr.photosets.addPhoto", [("photoset_id", album.id), ("photo_id", photoID)], account: account)
            return true
        } catch .flickr(.api(code: 3, _)) {
            return false
        }
    }

    /// Every album of the person (`flickr.photosets.getList`, signed, 500 a page).
    private func albums(account: FlickrAccount) async throws(FlickrAccountError) -> [UploadAlbum] {
        var found: [UploadAlbum] = []
        var page = 1
        var pages = 1
        // Twenty pages are 10,000 albums, past any photographer's count; the bound keeps a server's `pages` from looping us.
        while page <= min(pages, 20) {
            let root = try await signedCall(method: "flickr.photosets.getList", parameters: [
                ("user_id", account.userNSID), ("page", String(page)), ("per_page", "500"),
            ], account: account)
            guard let list = FlickrResponseDecoder.first(root["photosets"]) else { break }
            let entries: [WireValue] = switch list["photoset"] {
            case .array(let values)?: values
            case let single?: [single]
            case nil: []
            }
            found += entries.compactMap { entry in
                FlickrResponseDecoder.nonEmpty(entry["id"]).map { UploadAlbum(id: $0, title: entry["title"]?.lenientString ?? "") }
            }
            pages = min(list["pages"]?.lenientInteger ?? 1, FlickrResponseDecoder.largestCount)
            page += 1
        }
        return found
    }

    // MARK: - Signed POST

    /// A write method as a signed POST (Flickr takes write calls only so),
    /// the parameters in the form and the OAuth ones in the header.
    func signedPost(
        _ method: String, _ parameters: [(String, String)], account: FlickrAccount,
        retrying classify: @escaping (NetworkError) -> RetryPolicy.Decision = { RetryPolicy.decision(for: $0) }
    ) async throws(FlickrAccountError) -> WireValue {
        guard account.issuer == issuer else { throw .signedInElsewhere(account.issuer) }
        let signer = signer.with(token: account.token, tokenSecret: account.tokenSecret)
        let form = [("method", method), ("format", "json"), ("nojsoncallback", "1")] + parameters
        let url = restEndpoint
        do {
            return try await retryPolicy.run(
                classify: { (error: FlickrError) in
                    if case .network(let failure) = error { return classify(failure) }
                    return error.retryDecision
                },
                cancelled: { .network(.cancelled) }
            ) { _ throws(FlickrError) in
                let data: Data
                do throws(NetworkError) {
                    data = try await network.post(url, form: form, headers: [signer.authorizationHeader(method: "POST", url: url, form: form)],
                                                  maxBytes: 4 << 20).body
                } catch {
                    throw FlickrError.network(error)
                }
                return try ResponseExcerpt.redacting(signer.secrets) { () throws(FlickrError) in
                    let root = try FlickrResponseDecoder.readTree(data)
                    try FlickrResponseDecoder.checkStatus(root)
                    return root
                }
            }
        } catch {
            throw Self.accountError(error, redactor: redactor(account))
        }
    }

    /// A call's failure with its secrets removed; Flickr's 98 says the sign-in no longer works.
    static func accountError(_ error: FlickrError, redactor: SecretRedactor) -> FlickrAccountError {
        let redacted = error.redacting(redactor)
        if case .api(98, let message) = redacted { return .tokenRejected("code 98: \(message)") }
        return .flickr(redacted)
    }
}

extension RetryPolicy {
    /// For a call that must not be made twice: tried again only when it
    /// surely never reached the server (refused, or no network).
    static func decision(forUnsent error: NetworkError) -> Decision {
        switch error {
        case .connectionRefused, .notConnected: .retry
        default: .stop
        }
    }
}

extension FlickrOAuth {
    /// The page of an uploaded photo, `https://www.flickr.com/photos/NSID/ID/`, as links to photos are made elsewhere.
    public static func photoPage(owner: String, photoID: String) -> URL? {
        FlickrProvider.photoPageURL(owner: owner, photoID: photoID)
    }
}
