import Foundation
import NIOCore

extension FlickrSandbox {
    /// `/services/oauth/request_token|authorize|access_token`.
    func oauthAnswer(_ request: SandboxRequest) async -> Content {
        let endpoint = String(request.path.dropFirst(Self.oauthPrefix.count))
        let parameters = await SandboxRequest.parameters(of: request.request)
        return oauth.respond(endpoint: endpoint, request: signed(request, parameters: parameters)) ?? .notFound
    }

    /// A signed REST call's own answer: Flickr's error for a bad signature
    /// or token, or `flickr.test.login`'s; nil to let the REST API answer
    /// (an unsigned call, or a well-signed call of another method).
    func signedAnswer(_ request: SandboxRequest) -> (body: [UInt8], contentType: String)? {
        let signed = signed(request, parameters: request.parameters)
        let method = signed.value("method")
        let format = RestAPI.format(request.value) ?? .xml
        let payload: RestPayload
        switch oauth.checkREST(signed) {
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

    private func signed(_ request: SandboxRequest, parameters: [(String, String)]) -> SignedRequest {
        SignedRequest(
            method: request.method, host: request.host ?? "", path: request.path,
            parameters: parameters, authorization: request.authorization)
    }
}
