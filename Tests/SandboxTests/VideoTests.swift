@testable import FlickrService
import Foundation
import Sandbox
import Testing

/// Videos: `media="video"` in lists, their files in getSizes, and the files themselves.
@Suite struct VideoTests {
    @Test func aFewPhotosAreVideosAndListsSaySo() async throws {
        try await withSandbox { server, network in
            let catalog = server.catalog
            let videos = (0..<catalog.count).filter { catalog.photo(at: $0).isVideo }
            #expect((40...200).contains(videos.count), "about one in thirty of 3,000: \(videos.count)")
            #expect(catalog.photostream(of: catalog.wellKnownOwner.nsid).contains { catalog.photo(at: $0).isVideo })
            let video = catalog.photo(at: try #require(videos.first))
            let response = try await network.json(server.jsonCall("flickr.photos.getRecent", [
                "per_page": "500", "page": String(video.index / 500 + 1), "extras": "media",
            ]))
            let listed = photos(in: response)
            #expect(listed.first { $0["id"] as? String == video.id }?["media"] as? String == "video")
            #expect(listed.filter { $0["media"] as? String == "video" }.count == videos.filter { $0 < 500 }.count)

            let album = try #require(catalog.album(id: SandboxWellKnown.videosAlbumID))
            #expect(album.photoIndexes.allSatisfy { catalog.photo(at: $0).isVideo })
        }
    }

    @Test func getSizesListsThePosterThenTheVideoFiles() async throws {
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let video = try #require((0..<catalog.count).map(catalog.photo(at:)).first { $0.isVideo })
            let answers = try await server.answers("flickr.photos.getSizes", ["photo_id": video.id])
            let xmlSizes = answers.element("sizes")?.children(named: "size") ?? []
            let jsonSizes = (answers.json["sizes"] as? [String: Any])?["size"] as? [[String: Any]] ?? []
            #expect(xmlSizes.compactMap { $0.attributes["label"] } == video.sizeList.map(\.label))
            #expect(jsonSizes.compactMap { $0["label"] as? String } == video.sizeList.map(\.label))
            #expect(jsonSizes.compactMap { $0["media"] as? String } == video.sizeList.map(\.media))
            #expect(jsonSizes.compactMap { $0["width"] as? Int } == video.sizeList.map(\.width))
            let labels = video.sizeList.filter { $0.media == "video" }.map(\.label)
            #expect(labels.contains("Site MP4") && labels.contains("Video Original") && labels.contains("HD MP4"))
            let original = try #require(xmlSizes.first { $0.attributes["label"] == "Video Original" })
            #expect(original.attributes["source"] == server.baseURL.absoluteString + video.videoPath(.orig))
            #expect(original.attributes["url"] == "https://www.flickr.com/photos/\(video.owner)/\(video.id)/")
            #expect(original.attributes["media"] == "video")

            let info = try await server.answers("flickr.photos.getInfo", ["photo_id": video.id])
            #expect(info.element("photo")?.attributes["media"] == "video")
            #expect(info.element("photo")?.children(named: "video").first?.attributes["duration"] == String(video.videoDuration))
            #expect((info.json["photo"] as? [String: Any])?["media"] as? String == "video")

            let still = try #require((0..<catalog.count).map(catalog.photo(at:)).first { !$0.isVideo })
            let plain = try await server.answers("flickr.photos.getSizes", ["photo_id": still.id])
            #expect(plain.element("sizes")?.children(named: "size").allSatisfy { $0.attributes["media"] == "photo" } == true)
        }
    }

    @Test func videoFilesDownloadAsMP4() async throws {
        try await withSandbox { server, _ in
            let catalog = server.catalog
            let video = try #require((0..<catalog.count).map(catalog.photo(at:)).first { $0.isVideo })
            let answers = try await server.answers("flickr.photos.getSizes", ["photo_id": video.id])
            let sources = ((answers.json["sizes"] as? [String: Any])?["size"] as? [[String: Any]] ?? [])
                .filter { $0["media"] as? String == "video" }.compactMap { $0["source"] as? String }
            #expect(sources.count == SandboxVideoSize.allCases.count)
            var bodies = Set<Data>()
            for source in sources {
                let answer = try await http(.GET, try #require(URL(string: source)))
                #expect(answer.status == 200, "\(source)")
                #expect(answer.headers.first(name: "Content-Type") == "video/mp4")
                #expect(answer.body.count > 500 && answer.body.dropFirst(4).prefix(4) == Data("ftyp".utf8))
                bodies.insert(answer.body)
            }
            #expect(bodies.count == sources.count, "each file its own bytes")

            // A wrong secret, a photo that is no video, another owner: not found.
            let still = try #require((0..<catalog.count).map(catalog.photo(at:)).first { !$0.isVideo && $0.owner != video.owner })
            let base = server.baseURL.absoluteString
            for path in [video.videoPath(.site).replacingOccurrences(of: video.secret, with: "0000000000"),
                         still.videoPath(.site), video.videoPath(.orig).replacingOccurrences(of: video.owner, with: still.owner),
                         "/photos/\(video.owner)/\(video.id)/play/4k/\(video.secret)/"] {
                #expect(try await http(.GET, try #require(URL(string: base + path))).status == 404, "\(path)")
            }
        }
    }
}
