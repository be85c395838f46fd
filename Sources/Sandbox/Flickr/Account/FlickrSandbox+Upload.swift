import Foundation
import Hummingbird
import NIOCore

/// `POST /services/upload/`: a signed multipart form whose `photo` part is
/// the file. The signature covers the other fields, not the photo, and the
/// OAuth parameters may be in the header or the form. Answers are XML only,
/// as Flickr's upload answers are.
extension FlickrSandbox {
    /// The largest upload body accepted, in bytes.
    static let uploadLimit = 64 << 20

    func uploadAnswer(_ asked: SandboxRequest) async -> Content {
        switch await upload(asked.request) {
        case .success(let id): return Self.uploadReply("<photoid>\(id)</photoid>")
        case .failure(let refusal): return Self.uploadFailure(code: refusal.code, message: refusal.message)
        }
    }

    private func upload(_ request: Request) async -> Result<String, AccountStore.UploadRefusal> {
        typealias Refusal = AccountStore.UploadRefusal
        guard request.method == .post else { return .failure(.noPhoto) }
        // Refused on its word before a byte is read, and never read past the limit.
        if let claimed = request.headers[.contentLength].flatMap({ Int($0) }), claimed > Self.uploadLimit {
            return .failure(Self.tooLarge)
        }
        guard let boundary = request.headers[.contentType].flatMap(MultipartForm.boundary(of:)) else {
            return .failure(.noPhoto)
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.uploadLimit)
        } catch {
            return .failure(Self.tooLarge)
        }
        guard let form = MultipartForm(Array(body.readableBytesView), boundary: boundary) else {
            return .failure(.generalFailure)
        }
        let fields = form.parts.filter { $0.filename == nil && $0.name != "photo" }.map { ($0.name, $0.text) }
        let signed = SignedRequest(
            method: "POST", host: request.head.authority ?? "", path: request.uri.path,
            parameters: QueryString.parse(request.uri.query ?? "") + fields, authorization: request.headers[.authorization])
        let caller: SignedCaller
        switch oauth.checkREST(signed) {
        case .failure(let refusal)?: return .failure(Refusal(code: refusal.code, message: refusal.message))
        case .success(let signedCaller)? where signedCaller.permission >= .write: caller = signedCaller
        case .success(let signedCaller)?: return .failure(Self.insufficient(signedCaller.permission))
        case nil: return .failure(Self.insufficient(nil))
        }
        guard let photo = form.parts.first(where: { $0.name == "photo" }) else { return .failure(.noPhoto) }
        func field(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }
        let fileName = photo.filename.map { ($0 as NSString).lastPathComponent } ?? ""
        let details = AccountStore.UploadFields(
            title: field("title") ?? (fileName as NSString).deletingPathExtension,
            description: field("description") ?? "",
            tags: Self.tags(field("tags") ?? ""),
            visibility: Self.visibility(isPublic: field("is_public"), isFriend: field("is_friend"), isFamily: field("is_family")))
        return rest.account.addUpload(Array(photo.body), fields: details, by: caller.person)
    }

    private static let tooLarge = AccountStore.UploadRefusal(
        code: 8, message: "Filesize was too large (the sandbox takes uploads of up to \(uploadLimit >> 20) MB)")

    private static func insufficient(_ has: OAuthPermission?) -> AccountStore.UploadRefusal {
        AccountStore.UploadRefusal(code: 99, message: "Insufficient permissions. Method requires write privileges; \(has?.name ?? "none") granted.")
    }

    /// Public when none of the three is sent, as Flickr does; otherwise each as sent.
    static func visibility(isPublic: String?, isFriend: String?, isFamily: String?) -> PhotoVisibility {
        guard isPublic != nil || isFriend != nil || isFamily != nil else { return .everyone }
        if isPublic == "1" { return .everyone }
        return PhotoVisibility(isPublic: false, isFriend: isFriend == "1", isFamily: isFamily == "1")
    }

    /// `a "two words" b` → `a`, `twowords`, `b`: Flickr's clean tags,
    /// lowercase letters and digits only.
    static func tags(_ text: String) -> [String] {
        var tags: [String] = []
        var current = ""
        var quoted = false
        func flush() {
            let clean = String(current.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }
                .map(Character.init))
            if !clean.isEmpty, !tags.contains(clean) { tags.append(clean) }
            current = ""
        }
        for character in text {
            if character == "\"" {
                quoted.toggle()
                if !quoted { flush() }
            } else if character.isWhitespace, !quoted {
                flush()
            } else {
                current.append(character)
            }
        }
        flush()
        return Array(tags.prefix(75))
    }

    /// An uploaded photo's image: the bytes as sent, at every size, when the secret fits.
    func uploadedImage(_ path: ImagePath) -> Content? {
        guard let upload = rest.account.upload(id: path.id) else { return nil }
        guard let photo = rest.account.anyPhoto(id: path.id), photo.secret(for: path.size) == path.secret,
              photo.server == path.server
        else { return .notFound }
        var content = Content(status: 200, contentType: upload.format.mimeType, body: ByteBuffer(bytes: upload.bytes))
        content.photo = photo.id
        return content
    }

    private static func uploadReply(_ inner: String) -> Content {
        Content(status: 200, contentType: ResponseFormat.xml.contentType,
                body: ByteBuffer(string: "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<rsp stat=\"ok\">\n\(inner)\n</rsp>\n"))
    }

    static func uploadFailure(code: Int, message: String) -> Content {
        Content(status: 200, contentType: ResponseFormat.xml.contentType,
                body: ByteBuffer(bytes: WireFormat.render(.failure(code: code, message: message), as: .xml)))
    }
}
