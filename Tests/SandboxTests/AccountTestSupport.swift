import AsyncHTTPClient
import FlickrService
import Foundation
import Networking
import NIOCore
import Sandbox

/// The sandbox's test user signed in as a person would: a request token,
/// the authorize page (its verifier read from the page), the exchange.
struct SignedInUser {
    var signer: OAuthSigner
    var nsid: String
    var server: SandboxServer

    static let consumerKey = "sandbox"
    static let consumerSecret = FlickrOAuthServer.defaultConsumerSecret

    static func signIn(
        _ server: SandboxServer, perms: String = "write", consumerKey: String = consumerKey, consumerSecret: String = consumerSecret
    ) async throws -> SignedInUser {
        let network = NetworkManager()
        defer { Task { await network.shutdown() } }
        let oauth = FlickrOAuth(consumerKey: consumerKey, consumerSecret: consumerSecret, restEndpoint: server.restURL,
                                network: network, retryPolicy: .never)
        let pending = try await oauth.requestToken()
        let page = try await http(.GET, oauth.authorizeURL(for: pending, perms: perms)).text
        guard let start = page.range(of: "<span id=\"verifier\">"),
              let end = page.range(of: "</span>", range: start.upperBound..<page.endIndex)
        else { throw TestFailure("no verifier on the authorize page: \(page)") }
        let account = try await oauth.exchange(pending, verifier: String(page[start.upperBound..<end.lowerBound]))
        let signer = OAuthSigner(consumerKey: consumerKey, consumerSecret: consumerSecret, token: account.token,
                                 tokenSecret: account.tokenSecret)
        return SignedInUser(signer: signer, nsid: account.userNSID, server: server)
    }

    /// A REST call in plain JSON, signed (POST, the OAuth parameters in the header).
    func call(_ method: String, _ parameters: [(String, String)] = []) async throws -> [String: Any] {
        try await Self.call(method, parameters, server: server, signer: signer)
    }

    /// Unsigned when `signer` is nil (the key as `api_key`).
    static func call(
        _ method: String, _ parameters: [(String, String)] = [], server: SandboxServer, signer: OAuthSigner?,
        format: [(String, String)] = [("format", "json"), ("nojsoncallback", "1")]
    ) async throws -> [String: Any] {
        let answer = try await raw(method, parameters, server: server, signer: signer, format: format)
        return try answer.json()
    }

    static func raw(
        _ method: String, _ parameters: [(String, String)], server: SandboxServer, signer: OAuthSigner?,
        format: [(String, String)]
    ) async throws -> HTTPAnswer {
        var form = [("method", method)] + format + parameters
        guard let signer else {
            form.append(("api_key", consumerKey))
            return try await http(.POST, server.restURL, form: form)
        }
        let header = signer.authorizationHeader(method: "POST", url: server.restURL, form: form)
        return try await http(.POST, server.restURL, headers: [header], form: form)
    }
}

/// A multipart upload body: text fields, then the photo (when given).
struct UploadForm {
    var boundary = "sandbox-test-" + UUID().uuidString
    var fields: [(String, String)] = []
    var photo: [UInt8]?
    var fileName = "harbour at dusk.jpg"

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    var body: [UInt8] {
        var out: [UInt8] = []
        for (name, value) in fields {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let photo {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(fileName)\"\r\n".utf8)
            out += Array("Content-Type: application/octet-stream\r\n\r\n".utf8) + photo + Array("\r\n".utf8)
        }
        return out + Array("--\(boundary)--\r\n".utf8)
    }

    /// POSTs the form to `/services/upload/`, signed over its fields (not the photo) in the header.
    func post(to server: SandboxServer, signer: OAuthSigner?) async throws -> HTTPAnswer {
        let url = server.baseURL.appendingPathComponent("services/upload/", isDirectory: true)
        var headers = [("Content-Type", contentType)]
        if let signer { headers.append(signer.authorizationHeader(method: "POST", url: url, form: fields)) }
        return try await postBytes(body, to: url, headers: headers)
    }
}

func postBytes(_ body: [UInt8], to url: URL, headers: [(String, String)]) async throws -> HTTPAnswer {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.method = .POST
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    request.body = .bytes(ByteBuffer(bytes: body))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(90))
    let answer = try await response.body.collect(upTo: 64 << 20)
    return HTTPAnswer(status: Int(response.status.code), headers: response.headers, body: Data(answer.readableBytesView))
}

extension HTTPAnswer {
    /// An upload answer's photo id, or its `err` code and message.
    var uploadResult: (id: String?, code: Int?, message: String?) {
        func between(_ open: String, _ close: String) -> String? {
            guard let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex)
            else { return nil }
            return String(text[start.upperBound..<end.lowerBound])
        }
        return (between("<photoid>", "</photoid>"), between("<err code=\"", "\"").flatMap { Int($0) }, between("msg=\"", "\""))
    }
}

/// A small real JPEG (the sandbox's own 75 px image of a catalog photo).
func sampleJPEG(_ server: SandboxServer) async throws -> [UInt8] {
    let photo = server.catalog.photo(at: 0)
    return Array(try await http(.GET, server.imageURL(photo, .sq)).body)
}

/// `photos.photo` of a JSON listing.
func listed(_ response: [String: Any]) -> [[String: Any]] { photos(in: response) }

/// `code` of a JSON failure, nil for a success.
func failureCode(_ response: [String: Any]) -> Int? {
    response["stat"] as? String == "fail" ? response["code"] as? Int : nil
}
