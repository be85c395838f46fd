import Foundation
import Hummingbird
import NIOCore

extension SandboxHandler {
    /// `/services/oauth/request_token|authorize|access_token`.
    func flickrOAuthAnswer(endpoint: String, request: Request) async -> Content {
        let parameters = await Self.parameters(of: request)
        let signed = SignedRequest(
            method: request.method.rawValue, host: request.head.authority ?? "", path: request.uri.path,
            parameters: parameters, authorization: request.headers[.authorization])
        return flickrOAuth.respond(endpoint: endpoint, request: signed) ?? .notFound
    }

    /// A signed REST call's own answer: Flickr's error for a bad signature
    /// or token, or `flickr.test.login`'s; nil to let the REST API answer
    /// (an unsigned call, or a well-signed call of another method).
    func flickrSignedAnswer(request: Request, parameters: [(String, String)]) -> (body: [UInt8], contentType: String)? {
        let signed = SignedRequest(
            method: request.method.rawValue, host: request.head.authority ?? "", path: request.uri.path,
            parameters: parameters, authorization: request.headers[.authorization])
        let method = signed.value("method")
        let format = RestAPI.format { name in parameters.first { $0.0 == name }?.1 } ?? .xml
        let payload: RestPayload
        switch flickrOAuth.checkREST(signed) {
        case .failure(let refusal)?:
            payload = .failure(code: refusal.code, message: refusal.message)
        case .success(let person)? where method == "flickr.test.login":
            payload = .user(nsid: person.nsid, username: person.username, method: "flickr.test.login")
        case nil where method == "flickr.test.login":
            payload = .failure(code: 99, message: "Insufficient permissions. Method requires read privileges; none granted.")
        default:
            return nil
        }
        return (WireFormat.render(payload, as: format), format.contentType)
    }
}
