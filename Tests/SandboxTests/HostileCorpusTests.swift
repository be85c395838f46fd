import Foundation
import Sandbox
import Testing

/// The fuzzer's hostile seeds, `Tests/HostileCorpus/<target>/<case>-<n>.<ext>`,
/// are made from the catalogue: what the hostile sandbox serves for each
/// target's input (API bodies, links, titles, queries, commands, images).
/// This test fails when they drift from it; `FLICKR_WRITE_HOSTILE_CORPUS=1`
/// rewrites them.
@Suite struct HostileCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("HostileCorpus", isDirectory: true)

    @Test func theCorpusIsTheCataloguesSeeds() async throws {
        let seeds = try await Self.seeds()
        if ProcessInfo.processInfo.environment["FLICKR_WRITE_HOSTILE_CORPUS"] == "1" {
            try? FileManager.default.removeItem(at: Self.folder)
            for (path, bytes) in seeds {
                let file = Self.folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: file)
            }
        }
        for (path, bytes) in seeds.sorted(by: { $0.key < $1.key }) {
            let stored = try? Data(contentsOf: Self.folder.appendingPathComponent(path))
            #expect(stored == Data(bytes), "Tests/HostileCorpus/\(path) differs from the catalogue (FLICKR_WRITE_HOSTILE_CORPUS=1 rewrites it)")
        }
        let targets = Set(seeds.keys.map { String($0.prefix { $0 != "/" }) })
        #expect(targets == ["flickr-json", "flickr-jsonp", "flickr-xml", "flickr-details", "shutterstock", "openverse",
                            "query", "link", "title", "command", "jpeg"])
    }

    /// Path under the corpus folder → bytes.
    static func seeds() async throws -> [String: [UInt8]] {
        var seeds: [String: [UInt8]] = [:]
        for hostileCase in HostileCase.allCases {
            let name = hostileCase.rawValue
            for (number, sample) in hostileCase.samples.enumerated() {
                seeds["title/\(name)-\(number).txt"] = Array(sample.utf8)
                seeds["query/\(name)-\(number).txt"] = Array("kittens \(sample) license:by".utf8)
                seeds["query/\(name)-user-\(number).txt"] = Array("user:\"\(sample)\" tags:all tag:\(sample)".utf8)
                seeds["command/\(name)-\(number).txt"] = Array("/filter \(sample)".utf8)
            }
            for salt in 0..<6 {
                if let link = hostileCase.photoLink(owner: "anasouza", id: "53399968355", salt: salt) {
                    seeds["link/\(name)-\(salt).txt"] = Array(link.utf8)
                }
            }
        }
        for (number, link) in HostileCase.pastedLinks.enumerated() {
            seeds["link/pasted-\(number).txt"] = Array(link.utf8)
            seeds["command/user-\(number).txt"] = Array("/user \(link)".utf8)
            seeds["command/album-\(number).txt"] = Array("/album \(link)".utf8)
        }
        for hostileCase in HostileCase.allCases {
            try await withSandbox({ configuration in
                configuration.faults.kind = .hostile
                configuration.faults.rate = 1
                configuration.faults.scope = .all
                configuration.faults.hostileCases = [hostileCase]
            }) { server, _ in
                let name = hostileCase.rawValue
                // Long fields ride on the text seeds: a page of them is half a
                // megabyte, too big for a seed libFuzzer mutates quickly.
                if hostileCase.applies(toImages: false), hostileCase != .longFields {
                    let photo = server.catalog.photo(at: server.catalog.search(text: "kittens")[0])
                    let search = ["method": "flickr.photos.search", "api_key": "fuzz", "text": "kittens", "per_page": "2",
                                  "extras": "url_q,url_z,owner_name,license,description"]
                    let info = ["method": "flickr.photos.getInfo", "api_key": "fuzz", "photo_id": photo.id]
                    seeds["flickr-json/\(name).json"] = try await body(server.rest(search.merging(["format": "json", "nojsoncallback": "1"]) { $1 }))
                    seeds["flickr-jsonp/\(name).jsonp"] = try await body(server.rest(search.merging(["format": "json"]) { $1 }))
                    seeds["flickr-xml/\(name).xml"] = try await body(server.rest(search))
                    seeds["flickr-details/\(name).jsonp"] = try await body(server.rest(info.merging(["format": "json"]) { $1 }))
                    seeds["flickr-details/\(name).xml"] = try await body(server.rest(info))
                    seeds["shutterstock/\(name).json"] = try await body(
                        server.baseURL.appendingPathComponent("v2/images/search").appending(queryItems: [
                            URLQueryItem(name: "query", value: "kittens"), URLQueryItem(name: "per_page", value: "2"),
                        ]), headers: [("Authorization", "Bearer fuzz")])
                    seeds["openverse/\(name).json"] = try await body(server.openverse([("q", "kittens"), ("page_size", "2")]))
                }
                if hostileCase.kind == .image {
                    let photo = server.catalog.photo(at: 0)
                    seeds["jpeg/\(name).jpg"] = try await body(server.imageURL(photo, .q))
                }
            }
        }
        return seeds
    }

    /// The body as the sandbox wrote it (no gzip asked), whatever the
    /// status; a fixed Host, so the links in it are the same on every run.
    private static func body(_ url: URL, headers: [(String, String)] = []) async throws -> [UInt8] {
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        let extra = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
        let raw = try await rawHTTPBytes(port: url.port ?? 80,
                                         "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\(extra)\r\n")
        guard let (_, body) = splitResponse(raw) else { throw TestFailure("no HTTP answer from \(target)") }
        return Array(body)
    }
}
