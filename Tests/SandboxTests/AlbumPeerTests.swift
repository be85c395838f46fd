import Foundation
import Sandbox
import TestSupport
import Testing

/// Python's flickrapi and the flickcurl C library, unmodified, through the
/// well-known owner's photostream and albums: they must get exactly the ids
/// the catalog says. A missing client is a visible skip.
@Suite(.timeLimit(.minutes(3))) struct AlbumPeerTests {
    @Test(.enabled(if: Peers.python(importing: "flickrapi") != nil, "Python flickrapi is not installed (Scripts/lib/peers.sh installs it)"),
          arguments: ["parsed-json", "etree"])
    func flickrapiWalksThePhotostreamAndAnAlbum(format: String) async throws {
        let python = try #require(Peers.python(importing: "flickrapi"))
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let ana = catalog.wellKnownOwner
            let album = try #require(catalog.album(id: SandboxWellKnown.archiveAlbumID))
            let run = try await ProcessRunner.run(
                python, arguments: [Peers.script("flickrapi_albums_peer.py"), server.restURL.absoluteString, "peer-key", format,
                                    "https://www.flickr.com/photos/anasouza/", album.id],
                environment: Peers.environment)
            #expect(run.status == .exited(0), "\(run.transcript)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any])
            #expect(result["user"] as? String == ana.nsid)
            #expect(result["public"] as? [String] == catalog.ids(catalog.photostream(of: ana.nsid)))
            let sets = result["sets"] as? [[String: Any]] ?? []
            let albums = catalog.albums(of: ana.nsid)
            #expect(sets.compactMap { $0["id"] as? String } == albums.map(\.id))
            #expect(sets.compactMap { $0["title"] as? String } == albums.map(\.title))
            #expect(sets.compactMap { total($0) } == albums.map(\.photoIndexes.count))
            #expect(album.photoIndexes.count > 70, "the album takes several pages")
            #expect(result["album"] as? [String] == catalog.ids(album.photoIndexes))
            #expect(result["album_owner"] as? String == ana.nsid)
            let missing = result["missing"] as? [String: Any]
            #expect(missing?["code"] as? Int == 1 && (missing?["message"] as? String)?.contains("Photoset not found") == true)
        }
    }

    @Test(.enabled(if: Peers.flickcurlBuildCommand != nil, "flickcurl (libflickcurl-dev) or a C compiler is missing (Scripts/lib/peers.sh installs it)"))
    func flickcurlReadsThePhotostreamAndAlbums() async throws {
        let directory = try TemporaryDirectory(prefix: "flickcurl-albums-peer")
        let binary = try await Peers.buildFlickcurlProgram("flickcurl_albums_peer", in: directory)
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let ana = catalog.wellKnownOwner
            let album = try #require(catalog.album(id: SandboxWellKnown.favouritesAlbumID))
            let run = try await ProcessRunner.run(
                binary, arguments: [server.restURL.absoluteString, "peer-key", "https://www.flickr.com/people/anasouza/", album.id],
                environment: Peers.environment)
            #expect(run.status == .exited(0), "\(run.transcript)")
            let lines = run.outputText.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            func records(_ name: String) -> [[String]] { lines.filter { $0.first == name }.map { Array($0.dropFirst()) } }
            #expect(records("user") == [[ana.nsid]])
            let stream = catalog.photostream(of: ana.nsid)
            #expect(records("public").map { $0[0] } == catalog.ids(stream.prefix(120)), "\(run.transcript)")
            let albums = catalog.albums(of: ana.nsid)
            let sets = records("set")
            #expect(sets.map { $0[0] } == albums.map(\.id))
            #expect(sets.map { $0.count > 1 ? $0[1] : "" } == albums.map { catalog.photo(at: $0.primaryIndex).id })
            #expect(sets.map { $0.count > 2 ? Int($0[2]) : nil } == albums.map { photoCount($0, catalog) })
            #expect(sets.map { Peers.unhex($0.count > 3 ? $0[3] : "") } == albums.map(\.title))
            #expect(album.photoIndexes.count > 50, "the album takes several pages")
            #expect(records("album").map { $0[0] } == catalog.ids(album.photoIndexes))
        }
    }

    /// The app and flickrapi, against one sandbox, list the same photos of
    /// a person and of an album, in the same order.
    @Test(.enabled(if: Peers.python(importing: "flickrapi") != nil, "Python flickrapi is not installed (Scripts/lib/peers.sh installs it)"))
    func flickrapiAndTheAppGetTheSameIds() async throws {
        let python = try #require(Peers.python(importing: "flickrapi"))
        let home = try TemporaryDirectory(prefix: "flickr-app-peer")
        var environment = PTYProcess.baseEnvironment()
        environment["HOME"] = home.path
        environment["XDG_STATE_HOME"] = home.path + "/state"
        environment["XDG_CACHE_HOME"] = home.path + "/cache"
        try await withSandbox { server, _ in
            let album = try #require(server.catalog.album(id: SandboxWellKnown.favouritesAlbumID))
            let peer = try await ProcessRunner.run(
                python, arguments: [Peers.script("flickrapi_albums_peer.py"), server.restURL.absoluteString, "peer-key", "parsed-json",
                                    "https://www.flickr.com/photos/anasouza/", album.id],
                environment: Peers.environment)
            #expect(peer.status == .exited(0), "\(peer.transcript)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(peer.standardOutput)) as? [String: Any])
            let peerStream = try #require(result["public"] as? [String])
            let peerAlbum = try #require(result["album"] as? [String])

            func appIDs(_ arguments: [String]) async throws -> [String] {
                let run = try await ProcessRunner.run(
                    try Binaries.flickr,
                    arguments: arguments + ["--json", "--per-page", "100", "--pages", "50",
                                            "--api-url", server.restURL.absoluteString, "--api-key", "peer-key"],
                    environment: environment)
                #expect(run.status == .exited(0), "\(run.transcript)")
                return run.outputText.split(separator: "\n").compactMap { line in
                    let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                    return object?["id"] as? String
                }
            }
            #expect(try await appIDs(["user", SandboxWellKnown.pathAlias]) == peerStream)
            #expect(try await appIDs(["album", album.id]) == peerAlbum)
            #expect(!peerAlbum.isEmpty && !peerStream.isEmpty)
        }
    }

    /// `photos` plus `videos` of a getList entry.
    private func total(_ entry: [String: Any]) -> Int? {
        guard let photos = entry["photos"] as? Int, let videos = entry["videos"] as? Int else { return nil }
        return photos + videos
    }

    /// getList's `photos`: the album's photos that are not videos.
    private func photoCount(_ album: CatalogAlbum, _ catalog: Catalog) -> Int {
        album.photoIndexes.filter { !catalog.photo(at: $0).isVideo }.count
    }
}
