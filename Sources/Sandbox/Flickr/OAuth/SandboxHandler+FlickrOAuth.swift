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

    /// A REST call's answer: Flickr's error for a bad signature or token,
    /// else the REST API's answer to the person who signed the call (nobody,
    /// for an unsigned one: then only public photos are seen).
    func flickrRESTAnswer(request: Request, parameters: [(String, String)], imageBase: String)
        -> (body: [UInt8], contentType: String)
    {
        let signed = SignedRequest(
            method: request.method.rawValue, host: request.head.authority ?? "", path: request.uri.path,
            parameters: parameters, authorization: request.headers[.authorization])
        let caller: SignedCaller?
        switch flickrOAuth.checkREST(signed) {
        case .failure(let refusal)?:
            let format = RestAPI.format { name in parameters.first { $0.0 == name }?.1 } ?? .xml
            return (WireFormat.render(.failure(code: refusal.code, message: refusal.message), as: format), format.contentType)
        case .success(let person)?:
            caller = person
        case nil:
            caller = nil
        }
        let oauthKey = request.headers[.authorization].flatMap(QueryString.oauthConsumerKey)
        return rest.respond(to: parameters, oauthConsumerKey: oauthKey, imageBase: imageBase, caller: caller)
    }
}
