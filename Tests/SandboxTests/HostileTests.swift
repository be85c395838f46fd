import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NIOHTTP1
import Sandbox
import Testing

/// `--fault hostile`: every case of the catalogue goes out valid on the wire
/// (JSON parses, XML is well-formed, the status line and headers are HTTP),
/// and really is what its name says.
@Suite struct HostileTests {
    static let apiCases = HostileCase.allCases.filter { $0.applies(toImages: false) }
    static let imageCases = HostileCase.allCases.filter { $0.applies(toImages: true) }

    private func hostile(_ cases: [HostileCase], seed: UInt64 = 1) -> (inout SandboxConfiguration) -> Void {
        { configuration in
            configuration.faults.kind = .hostile
            configuration.faults.rate = 1
            configuration.faults.scope = .all
            configuration.faults.seed = seed
            configuration.faults.hostileCases = cases
        }
    }

    // MARK: - API answers

    @Test(arguments: apiCases)
    func everyAPIAnswerIsValidOnTheWire(_ hostileCase: HostileCase) async throws {
        try await withSandbox(hostile([hostileCase])) { server, _ in
            let extras = "url_q,url_z,owner_name,realname,license,description,tags,path_alias"
            let search = ["method": "flickr.photos.search", "api_key": "test", "text": "kittens", "per_page": "4",
                          "page": "2", "extras": extras]
            let photo = server.catalog.photo(at: server.catalog.search(text: "kittens")[0])
            let calls: [(String, [String: String])] = [
                ("search", search),
                ("getInfo", ["method": "flickr.photos.getInfo", "api_key": "test", "photo_id": photo.id]),
                ("getSizes", ["method": "flickr.photos.getSizes", "api_key": "test", "photo_id": photo.id]),
                ("licenses", ["method": "flickr.photos.licenses.getInfo", "api_key": "test"]),
                ("people.getInfo", ["method": "flickr.people.getInfo", "api_key": "test", "user_id": photo.owner]),
                ("photostream", ["method": "flickr.people.getPublicPhotos", "api_key": "test", "user_id": photo.owner,
                                 "per_page": "3", "extras": extras]),
            ]
            for (name, parameters) in calls {
                let xml = try await plainHTTP(server.rest(parameters))
                try expectValid(xml, hostileCase, what: "Flickr \(name) (XML)") { body in
                    #expect(isWellFormedXML(body), "\(hostileCase.rawValue): Flickr \(name) XML is not well-formed:\n\(String(decoding: body.prefix(600), as: UTF8.self))")
                }
                let json = try await plainHTTP(server.rest(parameters.merging(["format": "json", "nojsoncallback": "1"]) { $1 }))
                try expectValid(json, hostileCase, what: "Flickr \(name) (JSON)") { body in
                    #expect(parsesAsJSON(body), "\(hostileCase.rawValue): Flickr \(name) JSON does not parse")
                }
                let jsonp = try await plainHTTP(server.rest(parameters.merging(["format": "json"]) { $1 }))
                try expectValid(jsonp, hostileCase, what: "Flickr \(name) (JSONP)") { body in
                    let text = String(decoding: body, as: UTF8.self)
                    #expect(text.hasPrefix("jsonFlickrApi(") && text.hasSuffix(")"), "\(hostileCase.rawValue): \(text.prefix(80))")
                    #expect(parsesAsJSON(Data(text.dropFirst("jsonFlickrApi(".count).dropLast().utf8)),
                            "\(hostileCase.rawValue): Flickr \(name) JSONP's object does not parse")
                }
            }
            let shutterstock = try await plainHTTP(
                server.baseURL.appendingPathComponent("v2/images/search").appending(queryItems: [
                    URLQueryItem(name: "query", value: "kittens"), URLQueryItem(name: "per_page", value: "4"),
                    URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "view", value: "full"),
                ]), headers: [("Authorization", "Bearer t")])
            try expectValid(shutterstock, hostileCase, what: "Shutterstock search") { body in
                #expect(parsesAsJSON(body), "\(hostileCase.rawValue): Shutterstock JSON does not parse")
            }
            let openverse = try await plainHTTP(server.openverse([("q", "kittens"), ("page_size", "4"), ("page", "2")]))
            try expectValid(openverse, hostileCase, what: "Openverse search") { body in
                #expect(parsesAsJSON(body), "\(hostileCase.rawValue): Openverse JSON does not parse")
            }
        }
    }

    /// A refusal carries its status and `Retry-After`; any other answer is a
    /// 200 whose body `check` looks at.
    private func expectValid(_ answer: HTTPAnswer, _ hostileCase: HostileCase, what: String, check: (Data) throws -> Void) throws {
        if hostileCase.kind == .refusal, !(hostileCase == .errorMessage && what.hasPrefix("Flickr")) {
            #expect([429, 503].contains(answer.status), "\(hostileCase.rawValue): \(what) answered \(answer.status)")
            #expect(answer.headers.first(name: "Retry-After") == hostileCase.retryAfter,
                    "\(hostileCase.rawValue): \(what) Retry-After \(answer.headers.first(name: "Retry-After") ?? "none")")
            if what.hasPrefix("Shutterstock") || what.hasPrefix("Openverse") {
                #expect(parsesAsJSON(answer.body), "\(hostileCase.rawValue): \(what)'s refusal is not JSON: \(answer.text)")
            }
            return
        }
        #expect(answer.status == 200, "\(hostileCase.rawValue): \(what) answered \(answer.status): \(answer.text.prefix(300))")
        try check(answer.body)
    }

    // MARK: - What each kind really changes

    @Test(arguments: HostileCase.all(.text))
    func aTextCaseReachesEveryTextField(_ hostileCase: HostileCase) async throws {
        try await withSandbox(hostile([hostileCase])) { server, network in
            let page = try await plainHTTP(server.jsonCall("flickr.photos.search", [
                "text": "kittens", "per_page": "5", "extras": "owner_name,description,tags",
            ])).json()
            let samples = hostileCase.samples
            for photo in photos(in: page) {
                let title = photo["title"] as? String ?? "no title"
                let owner = photo["ownername"] as? String ?? "no owner"
                let description = content(photo["description"]) ?? "no description"
                for (field, value) in [("title", title), ("ownername", owner), ("description", description)] {
                    #expect(samples.contains { !$0.isEmpty && value.contains($0) } || (hostileCase.samples.contains(value)),
                            "\(hostileCase.rawValue): \(field) \(value.debugDescription.prefix(120)) holds none of the case's samples")
                }
            }
            let openverse = try await plainHTTP(server.openverse([("q", "kittens"), ("page_size", "3")])).json()
            for result in results(openverse) {
                let title = result["title"] as? String ?? ""
                let attribution = result["attribution"] as? String ?? ""
                if hostileCase == .emptyFields {
                    #expect(title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "empty-fields: Openverse title \(title)")
                } else {
                    #expect(samples.contains { title.contains($0) } && samples.contains { attribution.contains($0) },
                            "\(hostileCase.rawValue): Openverse title and attribution carry the case: \(title.prefix(80))")
                }
            }
        }
    }

    @Test func numbersCasesWriteHugeNegativeAndEmptyCounts() async throws {
        let expected: [(HostileCase, String, String)] = [
            (.hugeNumbers, "\"total\":99999999999999999999", "\"width_q\":9223372036854775807"),
            (.negativeNumbers, "\"total\":-5", "\"width_q\":-1"),
            (.emptyNumbers, "\"total\":\"\"", "\"width_q\":\"\""),
        ]
        for (hostileCase, total, width) in expected {
            try await withSandbox(hostile([hostileCase])) { server, network in
                let text = try await network.text(server.jsonCall("flickr.photos.search", ["text": "kittens", "extras": "url_q"]))
                #expect(text.contains(total) && text.contains(width), "\(hostileCase.rawValue): \(text.prefix(300))")
                let openverse = try await network.json(server.openverse([("q", "kittens")]))
                #expect("\(openverse["result_count"] ?? "none")" != "\(openverseExpected(server.catalog, text: "kittens").count)",
                        "\(hostileCase.rawValue): Openverse's result_count is hostile")
            }
        }
    }

    @Test func duplicateIDsRepeatTheFirstPageAndItsFirstPhoto() async throws {
        try await withSandbox(hostile([.duplicateIDs])) { server, network in
            func ids(_ page: Int) async throws -> [String] {
                photos(in: try await network.json(server.jsonCall("flickr.photos.search", [
                    "text": "kittens", "per_page": "3", "page": "\(page)",
                ]))).compactMap { $0["id"] as? String }
            }
            let first = try await ids(1)
            let second = try await ids(2)
            #expect(first.count == 4 && first[3] == first[0], "\(first)")
            #expect(second == first, "page 2 repeats page 1: \(second) vs \(first)")
        }
    }

    @Test(arguments: HostileCase.all(.link))
    func linkCasesLeadElsewhere(_ hostileCase: HostileCase) async throws {
        try await withSandbox(hostile([hostileCase])) { server, network in
            let photo = server.catalog.photo(at: 0)
            let info = try await network.json(server.jsonCall("flickr.photos.getInfo", ["photo_id": photo.id]))
            let urls = ((info["photo"] as? [String: Any])?["urls"] as? [String: Any])?["url"] as? [[String: Any]]
            let link = try #require(urls?.first?["_content"] as? String)
            #expect(URLComponents(string: link)?.host != "www.flickr.com", "\(hostileCase.rawValue): \(link)")
            #expect(link.contains("flickr"), "it still looks like Flickr's: \(link)")
            let openverse = try await network.json(server.openverse([("q", "kittens"), ("page_size", "2")]))
            for result in results(openverse) {
                let landing = result["foreign_landing_url"] as? String ?? ""
                #expect(URLComponents(string: landing)?.host != "www.flickr.com", "\(hostileCase.rawValue): \(landing)")
            }
        }
    }

    @Test func licenceCasesBendOpenversesLicenceFields() async throws {
        for (hostileCase, version) in [(HostileCase.paddedLicenseVersion, " 4.0 "), (.pathLicenseVersion, "../../evil")] {
            try await withSandbox(hostile([hostileCase])) { server, network in
                let openverse = try await network.json(server.openverse([("q", "kittens"), ("page_size", "2")]))
                #expect(results(openverse).allSatisfy { $0["license_version"] as? String == version }, "\(openverse)")
            }
        }
        try await withSandbox(hostile([.contradictoryAttribution])) { server, network in
            let openverse = try await network.json(server.openverse([("q", "kittens"), ("page_size", "2")]))
            for result in results(openverse) {
                #expect(result["license"] as? String == "by-nc-nd")
                #expect((result["attribution"] as? String)?.contains("CC BY 2.0") == true, "\(result)")
            }
        }
    }

    // MARK: - Images

    @Test(arguments: imageCases)
    func everyImageAnswerIsValidHTTPAndWhatItsNameSays(_ hostileCase: HostileCase) async throws {
        try await withSandbox(hostile([hostileCase])) { server, _ in
            let photo = server.catalog.photo(at: server.catalog.search(text: "kittens")[0])
            var urls = [server.imageURL(photo, .q), server.imageURL(photo, .z)]
            // A refusal refuses the search too; the other image cases leave API answers alone.
            var thumbnail: URL?
            if hostileCase.kind != .refusal {
                let search = try await plainHTTP(server.openverse([("q", "kittens"), ("page_size", "1")]))
                let address = try #require(results(try search.json()).first?["thumbnail"] as? String)
                thumbnail = URL(string: address)
                urls += thumbnail.map { [$0] } ?? []
            }
            for url in urls {
                let answer = try await plainHTTP(url)
                if hostileCase.kind == .refusal {
                    #expect([429, 503].contains(answer.status), "\(hostileCase.rawValue): \(url.path) answered \(answer.status)")
                    #expect(answer.headers.first(name: "Retry-After") == hostileCase.retryAfter)
                    continue
                }
                #expect(answer.status == 200, "\(hostileCase.rawValue): \(url.path) answered \(answer.status)")
                let type = answer.headers.first(name: "Content-Type") ?? ""
                #expect(type.hasPrefix("image/"), "\(hostileCase.rawValue): \(type)")
                #expect(answer.headers.first(name: "Content-Length") == "\(answer.body.count)")
                let body = [UInt8](answer.body)
                switch hostileCase {
                case .pngHugeHeader:
                    #expect(body.count < 100 && pngSize(body).map { [$0.0, $0.1] } == [8_000, 8_000], "\(body.count) bytes")
                case .pngHugeValid:
                    #expect(body.count < 64 << 10 && pngSize(body).map { [$0.0, $0.1] } == [8_192, 8_192], "\(body.count) bytes")
                case .webpHugeHeader:
                    #expect(body.count < 40 && body.starts(with: Array("RIFF".utf8)) && body.count > 29
                            && Int(body[26]) | Int(body[27]) << 8 == 8_000, "\(body)")
                case .jpegHugeHeader:
                    #expect(body.starts(with: [0xFF, 0xD8]) && jpegDimensions(answer.body).map { [$0.width, $0.height] } == [65_535, 65_535])
                case .truncatedImage:
                    #expect(!body.isEmpty && Array(body.suffix(2)) != [0xFF, 0xD9] || !type.contains("jpeg"), "no end marker")
                case .mislabelledImage:
                    let isPNG = body.starts(with: [0x89, 0x50, 0x4E, 0x47])
                    #expect(type.contains("jpeg") ? isPNG : body.starts(with: [0xFF, 0xD8]), "\(type) holds other bytes")
                case .emptyImage:
                    #expect(body.isEmpty)
                default:
                    Issue.record("\(hostileCase.rawValue) is no image case")
                }
                let record = try #require(server.requestLog().last { $0.path.hasPrefix(url.path) })
                #expect(record.fingerprint == SandboxFingerprint.of(body), "the log names the bytes sent")
                #expect(record.photo == photo.id || url == thumbnail, "the log names the photo")
            }
        }
    }

    // MARK: - Choosing cases

    @Test func aURLKeepsItsCaseAndManyURLsMeetManyCases() async throws {
        try await withSandbox(hostile(HostileCase.allCases)) { server, _ in
            var statuses: Set<Int> = []
            var bodies: Set<Data> = []
            for page in 1...24 {
                let url = server.jsonCall("flickr.photos.search", ["text": "kittens", "per_page": "2", "page": "\(page)"])
                let first = try await plainHTTP(url)
                let again = try await plainHTTP(url)
                #expect(first.status == again.status && first.body == again.body, "page \(page) answers the same twice")
                statuses.insert(first.status)
                bodies.insert(first.body)
            }
            #expect(statuses.count >= 2 && bodies.count >= 12, "cases vary across URLs: statuses \(statuses)")
        }
    }
}

/// A GET that asks for the body as it is (no gzip): these tests read what
/// the sandbox wrote, and a 10,000-character field compresses beyond what a
/// careful client's decompression-ratio guard accepts.
/// Spoken over a plain socket: HTTP clients ask for gzip on their own.
/// Checks the status line is HTTP's and the body as long as announced.
private func plainHTTP(_ url: URL, headers: [(String, String)] = []) async throws -> HTTPAnswer {
    let target = url.path + (url.query.map { "?" + $0 } ?? "")
    let authority = "\(url.host ?? "127.0.0.1"):\(url.port ?? 80)"
    let extra = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
    let raw = try await rawHTTPBytes(port: url.port ?? 80,
                                     "GET \(target) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n\(extra)\r\n")
    guard let (head, body) = splitResponse(raw) else { throw TestFailure("no HTTP head from \(target)") }
    let lines = head.components(separatedBy: "\r\n")
    let statusLine = lines.first ?? ""
    guard statusLine.wholeMatch(of: #/HTTP/1\.1 [1-5]\d\d [ -~]*/#) != nil, let status = Int(statusLine.split(separator: " ")[1])
    else { throw TestFailure("not an HTTP status line: \(statusLine.debugDescription)") }
    var fields = HTTPHeaders()
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":"), line.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F })
        else { throw TestFailure("not an HTTP header line: \(line.debugDescription)") }
        fields.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    if let length = fields.first(name: "Content-Length").flatMap(Int.init), length != body.count {
        throw TestFailure("\(target): Content-Length \(length) but \(body.count) bytes")
    }
    return HTTPAnswer(status: status, headers: fields, body: Data(body))
}

private func parsesAsJSON(_ data: Data) -> Bool { (try? JSONSerialization.jsonObject(with: data)) != nil }

/// A strict XML 1.0 parse (libxml2 through Foundation's XMLParser).
func isWellFormedXML(_ data: Data) -> Bool {
    let parser = XMLParser(data: data)
    return parser.parse()
}

private func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
    guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
    func int(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (int(16), int(20))
}
