import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Everything a request got back, whatever its status (`NetworkManager`
/// throws on non-2xx, and these tests look at error bodies too).
struct HTTPAnswer {
    var status: Int
    var headers: HTTPHeaders
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw TestFailure("not a JSON object: \(text)")
        }
        return object
    }
}

/// One request through AsyncHTTPClient's shared client; `form` becomes an
/// `application/x-www-form-urlencoded` body.
func http(
    _ method: HTTPMethod = .GET, _ url: URL, headers: [(String, String)] = [], form: [(String, String)]? = nil
) async throws -> HTTPAnswer {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let form {
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: formEncoded(form)))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(90))
    let body = try await response.body.collect(upTo: 64 << 20)
    return HTTPAnswer(status: Int(response.status.code), headers: response.headers, body: Data(body.readableBytesView))
}

/// `a=1&b=two%20words`.
func formEncoded(_ pairs: [(String, String)]) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
    return pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
}
