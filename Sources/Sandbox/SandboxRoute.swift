import Foundation
import Hummingbird

/// One kind of request a service answers: an API (counted as `rest`,
/// gzip-compressed for clients that accept it, open to the `api-error`
/// fault) or its image files.
struct SandboxRoute: Sendable {
    typealias Answer = @Sendable (SandboxRequest) async -> Content

    /// How the request log counts it.
    let kind: StatsRecorder.Kind
    /// Whether a request path is this route's.
    let claims: @Sendable (_ path: String) -> Bool
    /// Whether the parameters (query, then a form body) are read before it answers.
    let readsParameters: Bool
    /// What faults are chosen by: the same key fails the same way every time.
    let faultKey: @Sendable (SandboxRequest) -> String
    /// The shape a hostile refusal takes on this route.
    let refusal: @Sendable (SandboxRequest) -> HostileCase.Service
    /// The API's own outage answer (the `api-error` fault); nil for images.
    let outage: (@Sendable (SandboxRequest) -> Content)?
    let answer: Answer

    /// An API route. Its faults are chosen by the logged path (credentials
    /// left out) unless `faultKey` says otherwise.
    static func api(
        claims: @escaping @Sendable (String) -> Bool,
        readsParameters: Bool = true,
        faultKey: (@Sendable (SandboxRequest) -> String)? = nil,
        refusal: @escaping @Sendable (SandboxRequest) -> HostileCase.Service,
        outage: @escaping @Sendable (SandboxRequest) -> Content,
        answer: @escaping Answer
    ) -> SandboxRoute {
        SandboxRoute(
            kind: .rest, claims: claims, readsParameters: readsParameters,
            faultKey: faultKey ?? { $0.loggedPath }, refusal: refusal, outage: outage, answer: answer)
    }

    /// Image files whose paths `parse` takes apart; faults are chosen by the
    /// bare path, and a refusal is plain text.
    static func images<Path>(
        _ parse: @escaping @Sendable (String) -> Path?,
        answer: @escaping @Sendable (Path) -> Content
    ) -> SandboxRoute {
        SandboxRoute(
            kind: .image, claims: { parse($0) != nil }, readsParameters: false, faultKey: { $0.path },
            refusal: { _ in .image }, outage: nil,
            answer: { request in parse(request.path).map(answer) ?? .notFound })
    }
}

/// A request as a route sees it.
struct SandboxRequest: Sendable {
    let request: Request
    /// The path and the query without credentials, as the request log shows it.
    let loggedPath: String
    /// Query and form parameters, when the route reads them.
    let parameters: [(String, String)]
    /// `http://HOST:PORT` as the client reached the sandbox, for URLs in answers.
    let base: String

    var path: String { request.uri.path }
    var method: String { request.method.rawValue }
    /// The `Authorization` header.
    var authorization: String? { request.headers[.authorization] }
    /// The Host the client addressed.
    var host: String? { request.head.authority }

    func value(_ name: String) -> String? { parameters.first { $0.0 == name }?.1 }

    /// Query parameters, then those of an `application/x-www-form-urlencoded` body.
    static func parameters(of request: Request) async -> [(String, String)] {
        var request = request
        var parameters = QueryString.parse(request.uri.query ?? "")
        let isForm = request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        if request.method == .post, isForm, let body = try? await request.collectBody(upTo: 1 << 20) {
            parameters += QueryString.parse(String(buffer: body))
        }
        return parameters
    }
}
