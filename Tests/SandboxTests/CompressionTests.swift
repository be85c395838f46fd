import CZlib
import PhotoCore
import Foundation
import Sandbox
import Testing

/// API answers go out gzip-compressed to clients that accept it, as Flickr's
/// and Openverse's servers send them; images and other clients get plain bytes.
@Suite struct CompressionTests {
    static let allExtras = "description,license,date_upload,date_taken,owner_name,original_format,last_update,"
        + "o_dims,views,media,path_alias,tags,url_sq,url_q,url_t,url_s,url_n,url_w,url_m,url_z,url_c,url_l,url_o"

    /// GET over a raw socket: the head as sent and the body bytes as they came.
    private func rawGet(
        _ server: SandboxServer, _ url: URL, acceptEncoding: String?, authorization: String? = nil
    ) async throws -> (head: String, body: [UInt8]) {
        let path = url.path + (url.query.map { "?" + $0 } ?? "")
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
        if let authorization { request += "Authorization: \(authorization)\r\n" }
        if let acceptEncoding { request += "Accept-Encoding: \(acceptEncoding)\r\n" }
        let raw = try await rawHTTPBytes(port: server.port, request + "\r\n")
        let (head, body) = try #require(splitResponse(raw))
        return (head.lowercased(), Array(body))
    }

    private func header(_ name: String, in head: String) -> String? {
        head.split(separator: "\r\n").first { $0.hasPrefix(name + ":") }
            .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    @Test func aPageOf30WithAllExtrasIsSeveralTimesSmallerCompressed() async throws {
        try await withSandbox { server, _ in
            for format in ["json", "rest"] {
                let url = server.rest(["method": "flickr.photos.search", "api_key": "k", "text": "kittens", "per_page": "30",
                                       "format": format, "nojsoncallback": "1", "extras": Self.allExtras])
                let plain = try await rawGet(server, url, acceptEncoding: nil)
                let compressed = try await rawGet(server, url, acceptEncoding: "gzip, deflate, br")
                #expect(header("content-encoding", in: plain.head) == nil)
                #expect(header("content-encoding", in: compressed.head) == "gzip")
                #expect(header("vary", in: compressed.head) == "accept-encoding")
                #expect(header("vary", in: plain.head) == "accept-encoding")
                #expect(header("content-length", in: compressed.head) == String(compressed.body.count))
                #expect(header("content-length", in: plain.head) == String(plain.body.count))
                #expect(gunzip(compressed.body) == plain.body, "the same answer, compressed")
                let ratio = Double(plain.body.count) / Double(compressed.body.count)
                #expect(ratio > 4, "\(format): \(plain.body.count) bytes plain, \(compressed.body.count) compressed")
            }
        }
    }

    @Test func everyAPICompressesAndImagesNever() async throws {
        try await withSandbox { server, _ in
            let photo = server.catalog.photo(at: 0)
            var shutterstock = URLComponents(url: server.baseURL.appendingPathComponent("v2/images/search"), resolvingAgainstBaseURL: false)
            shutterstock?.queryItems = [URLQueryItem(name: "query", value: "beach")]
            let apis = [server.openverse([("q", "beach")]), server.jsonCall("flickr.photos.getInfo", ["photo_id": photo.id]),
                        try #require(shutterstock?.url)]
            for url in apis {
                let answer = try await rawGet(server, url, acceptEncoding: "gzip", authorization: ShutterstockTests.basic)
                #expect(header("content-encoding", in: answer.head) == "gzip", "\(url)")
                #expect(gunzip(answer.body).map { $0.first == UInt8(ascii: "{") } == true, "\(url)")
            }
            let item = try #require(results(try await http(.GET, server.openverse([("q", "beach")])).json()).first)
            let images = [server.imageURL(photo, .q), try #require((item["thumbnail"] as? String).flatMap(URL.init(string:)))]
            for url in images {
                let answer = try await rawGet(server, url, acceptEncoding: "gzip")
                #expect(header("content-encoding", in: answer.head) == nil, "\(url)")
                #expect(header("vary", in: answer.head) == nil, "\(url)")
            }
        }
    }

    @Test func aBodyThatWouldNotShrinkGoesOutPlain() async throws {
        try await withSandbox { server, _ in
            let answer = try await rawGet(server, server.rest(["method": "flickr.test.echo"]), acceptEncoding: "gzip")
            #expect(header("content-encoding", in: answer.head) == nil)
            #expect(header("vary", in: answer.head) == "accept-encoding")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("<err code=\"100\""))
        }
    }

    @Test func onlyAnAcceptedGzipCompresses() async throws {
        try await withSandbox { server, _ in
            let url = server.openverse([("q", "sunset")])
            for (accept, compressed) in [("gzip;q=0", false), ("identity", false), ("deflate, br", false), ("*", true),
                                         ("br;q=1.0, gzip;q=0.8", true), ("GZIP", true), ("*, gzip;q=0", false)] {
                let answer = try await rawGet(server, url, acceptEncoding: accept)
                #expect((header("content-encoding", in: answer.head) == "gzip") == compressed, "\(accept)")
            }
        }
    }

    @Test func faultsApplyToTheCompressedStream() async throws {
        try await withSandbox({ configuration in
            configuration.faults.rate = 1
            configuration.faults.scope = .rest
            configuration.faults.kind = .truncate
        }) { server, _ in
            let url = server.openverse([("q", "beach")])
            let cut = try await rawGet(server, url, acceptEncoding: "gzip")
            #expect(header("content-encoding", in: cut.head) == "gzip")
            #expect(header("content-length", in: cut.head) == String(cut.body.count))
            #expect(gunzip(cut.body) == nil, "half a gzip stream does not decode")
            let whole = try await rawGet(server, url, acceptEncoding: nil)
            #expect(String(decoding: whole.body, as: UTF8.self).hasPrefix("{\"result_count\""))
            #expect(!whole.body.isEmpty && (try? JSONSerialization.jsonObject(with: Data(whole.body))) == nil, "half the JSON")
        }
        try await withSandbox({ configuration in
            configuration.faults.rate = 1
            configuration.faults.scope = .rest
            configuration.faults.kind = .garbage
        }) { server, _ in
            let garbage = try await rawGet(server, server.openverse([("q", "beach")]), acceptEncoding: "gzip")
            #expect(header("content-encoding", in: garbage.head) == nil, "the filler goes out as it is")
            #expect(String(decoding: garbage.body, as: UTF8.self).hasPrefix("<html>"))
        }
    }
}

/// `stall` and `slow-headers` with a compressed answer: the head announces
/// the compressed length and encoding; the body, if it comes, is whole gzip.
@Suite(.timeLimit(.minutes(2))) struct CompressedStallTests {
    private func faulty(_ kind: FaultConfiguration.Kind) -> (inout SandboxConfiguration) -> Void {
        { configuration in
            configuration.faults.kind = kind
            configuration.faults.rate = 1
            configuration.faults.scope = .rest
            configuration.faults.slowHeadersDelay = .seconds(1)
        }
    }

    /// With `closing`, the server closes after the answer, so a reader can
    /// wait for the close rather than guess how long a gap ends the body.
    private func request(_ server: SandboxServer, closing: Bool = false) -> String {
        let url = server.openverse([("q", "beach")])
        let connection = closing ? "Connection: close\r\n" : ""
        return "GET \(url.path)?\(url.query ?? "") HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\(connection)\r\n"
    }

    @Test func stallAnnouncesTheCompressedLengthAndSendsNothing() async throws {
        // The length a healthy sandbox sends for the same call.
        let healthy = try await withSandbox { server, _ in
            try await rawExchange(port: server.port, request(server, closing: true), quiet: 90)
        }
        #expect(healthy.head.lowercased().contains("content-encoding: gzip"))
        #expect(healthy.contentLength == healthy.body.count)
        try await withSandbox(faulty(.stall)) { server, _ in
            let exchange = try await rawExchange(port: server.port, request(server), quiet: 0.3)
            #expect(exchange.statusLine == "HTTP/1.1 200 OK")
            #expect(exchange.head.lowercased().contains("content-encoding: gzip"))
            #expect(exchange.contentLength == healthy.contentLength)
            #expect(exchange.body.isEmpty)
        }
    }

    @Test func slowHeadersThenTheWholeCompressedAnswer() async throws {
        try await withSandbox(faulty(.slowHeaders)) { server, _ in
            let exchange = try await rawExchange(port: server.port, request(server, closing: true), quiet: 90)
            #expect(exchange.head.lowercased().contains("content-encoding: gzip"))
            #expect(exchange.contentLength == exchange.body.count)
            let json = try #require(gunzip(exchange.body))
            #expect(String(decoding: json, as: UTF8.self).hasPrefix("{\"result_count\""))
            #expect(server.stats().faultsInjected == 1)
        }
    }
}

/// The bytes of a gzip stream, or nil if it is not a whole one.
func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var input = bytes
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    var status: Int32 = Z_OK
    input.withUnsafeMutableBufferPointer { source in
        stream.next_in = source.baseAddress
        stream.avail_in = uInt(source.count)
        repeat {
            chunk.withUnsafeMutableBufferPointer { target in
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                status = inflate(&stream, Z_NO_FLUSH)
                output.append(contentsOf: target[0..<(target.count - Int(stream.avail_out))])
            }
        } while status == Z_OK && stream.avail_in > 0 || status == Z_OK && stream.avail_out == 0
    }
    return status == Z_STREAM_END ? output : nil
}
