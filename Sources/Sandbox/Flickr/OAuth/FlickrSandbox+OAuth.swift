import Foundation
import NIOCore

extension FlickrSandbox {
    /// `/services/oauth/request_token|authorize|access_token`.
    func oauthAnswer(_ request: SandboxRequest) async -> Content {
        let endpoint = String(request.path.dropFirst(Self.oauthPrefix.count))
        let parameters = await SandboxRequest.parameters(of: request.request)
        return oauth.respond(endpoint: endpoint, request: signed(request, parameters: parameters)) ?? .notFound
    }

    /// A REST call's answer: Flickr's error for a bad signature or token,
    /// else the REST API's answer to the person who signed the call (nobody,
    /// for an unsigned one: then only public photos are seen).
    func restAnswer(_ request: SandboxRequest) -> (body: [UInt8], contentType: String) {
        let caller: SignedCaller?
        switch oauth.checkREST(signed(request, parameters: request.parameters)) {
        case .failure(let refusal)?:
            let format = RestAPI.format(request.value) ?? .xml
            return (WireFormat.render(.failure(code: refusal.code, message: refusal.message), as: format), format.contentType)
        case .success(let person)?:
            caller = person
        case nil:
            caller = nil
        }
        let oauthKey = request.authorization.flatMap(QueryString.oauthConsumerKey)
        return rest.respond(to: request.parameters, oauthConsumerKey: oauthKey, imageBase: request.base, caller: caller)
    }

    private func signed(_ request: SandboxRequest, parameters: [(String, String)]) -> SignedRequest {
        SignedRequest(
            method: request.method, host: request.host ?? "", path: request.path,
            parameters: parameters, authorization: request.authorization)
    }
}
