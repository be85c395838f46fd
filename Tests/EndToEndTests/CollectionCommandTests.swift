import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// `flickr user`, `flickr album` and `flickr download --user | --album`,
    /// the real binary against the sandbox. A sandbox that stopped serving a
    /// method (error 112) fails them, saying which.
    @Suite("Photostreams and albums")
    struct CollectionCommands {
        // MARK: - Listing

        @Test func userPrintsThePersonsPhotosAfterTheCollectionLine() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                guard try await Self.serves("flickr.people.getPublicPhotos", sandbox) else { return }
                let app = try FlickrApp(sandbox: sandbox)
                let owner = try await Self.owners(app, count: 1)[0]
                let result = try await app.run(["user", owner, "--json", "--per-page", "5"])
                #expect(result.status == .exited(0), "\(result.transcript)")
                let lines = try Self.jsonLines(result.outputText)
                try #require(lines.count >= 2, "\(result.transcript)")
                let collection = try #require(lines[0]["collection"] as? [String: Any], "\(lines[0])")
                #expect(collection["kind"] as? String == "photostream")
                #expect(collection["owner"] as? String == owner)
                let photos = lines.dropFirst()
                #expect(photos.count <= 5)
                #expect(photos.allSatisfy { $0["owner"] as? String == owner && $0["id"] is String && $0["provider"] as? String == "flickr" },
                        "\(result.transcript)")
                #expect(photos.map { $0["index"] as? Int } == Array(1...photos.count))
            }
        }

        @Test func albumByIdAndByLinkListsTheSamePhotos() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                guard try await Self.serves("flickr.photosets.getPhotos", sandbox), let (owner, album) = try await Self.anAlbum(sandbox)
                else { return }
                let app = try FlickrApp(sandbox: sandbox)
                let byID = try await app.run(["album", album, "--json", "--per-page", "10"])
                #expect(byID.status == .exited(0), "\(byID.transcript)")
                let link = "https://www.flickr.com/photos/\(owner)/albums/\(album)/"
                let byLink = try await app.run(["album", link, "--json", "--per-page", "10"])
                #expect(byLink.status == .exited(0), "\(byLink.transcript)")

                let lines = try Self.jsonLines(byID.outputText)
                let collection = try #require(lines.first?["collection"] as? [String: Any], "\(byID.transcript)")
                #expect(collection["kind"] as? String == "album")
                #expect(collection["id"] as? String == album)
                #expect(lines.count > 1, "the album's photos follow")
                let linked = try Self.jsonLines(byLink.outputText)
                #expect((linked.first?["collection"] as? [String: Any])?["id"] as? String == album, "\(byLink.transcript)")
                #expect(linked.dropFirst().map { $0["id"] as? String } == lines.dropFirst().map { $0["id"] as? String })
            }
        }

        /// Any set of photos a link names is listed like an album; a link to
        /// one photo is refused before anything is fetched for it.
        @Test func aGalleryLinkIsListedAndAPhotoLinkIsRefused() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                guard try await Self.serves("flickr.galleries.getPhotos", sandbox) else { return }
                let gallery = try #require(sandbox.catalog.gallery(id: SandboxWellKnown.sunsetGalleryID))
                let curator = try #require(sandbox.catalog.person(nsid: gallery.owner))
                let app = try FlickrApp(sandbox: sandbox)
                let link = "https://www.flickr.com/photos/\(curator.urlName)/galleries/\(gallery.id)/"
                let listed = try await app.run(["album", link, "--json", "--per-page", "10"])
                #expect(listed.status == .exited(0), "\(listed.transcript)")
                let lines = try Self.jsonLines(listed.outputText)
                let collection = try #require(lines.first?["collection"] as? [String: Any], "\(listed.transcript)")
                #expect(collection["kind"] as? String == "gallery")
                #expect(lines.count - 1 == min(10, gallery.photoIndexes.count), "\(listed.transcript)")

                let photo = sandbox.catalog.photo(at: gallery.photoIndexes[0])
                let photoLink = "https://www.flickr.com/photos/\(curator.urlName)/\(photo.id)/"
                let before = try await sandbox.stats().restRequests
                let refused = try await app.run(["album", photoLink])
                #expect(refused.status == .exited(1), "\(refused.transcript)")
                #expect(refused.errorText.contains("is a link to one photo, not to an album."), "\(refused.transcript)")
                #expect(refused.outputText.isEmpty)
                #expect(try await sandbox.stats().restRequests == before, "nothing is asked for a photo link")
            }
        }

        @Test func anAlbumThatDoesNotExistIsASentenceAndAFailure() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                guard try await Self.serves("flickr.photosets.getPhotos", sandbox) else { return }
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await app.run(["album", "1"])
                #expect(result.status == .exited(1), "\(result.transcript)")
                #expect(!result.errorText.isEmpty && !result.errorText.contains("Something went wrong"), "\(result.transcript)")
                #expect(result.outputText.isEmpty)
            }
        }

        // MARK: - Downloading

        @Test func anAlbumDownloadInterruptedHalfwayIsCompletedByASecondRun() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                guard try await Self.serves("flickr.photosets.getPhotos", sandbox),
                      let (_, album) = try await Self.anAlbum(sandbox, photos: 12)
                else { return }
                let app = try FlickrApp(sandbox: sandbox)
                let out = app.home.url.appendingPathComponent("album", isDirectory: true)
                let arguments = ["download", "--album", album, "--per-page", "6", "--pages", "2", "--size", "q",
                                 "--name", "{index}_{title}", "--out", out.path]
                let first = try await app.run(arguments)
                #expect(first.status == .exited(0), "\(first.transcript)")
                let files = Self.images(in: out)
                try #require(files.count >= 3, "\(first.transcript)")

                // What an interrupted run leaves: some files missing, one cut short.
                try FileManager.default.removeItem(at: files[files.count - 1])
                try FileManager.default.removeItem(at: files[files.count - 2])
                let whole = try Data(contentsOf: files[0])
                try whole.prefix(whole.count / 2).write(to: files[0])

                let second = try await app.run(arguments + ["--json"])
                #expect(second.status == .exited(0), "\(second.transcript)")
                let report = try #require(try Self.jsonLines(second.outputText).last, "\(second.transcript)")
                #expect(report["downloaded"] as? Int == 3, "\(second.transcript)")
                #expect(report["already_there"] as? Int == files.count - 3, "\(second.transcript)")
                #expect(report["complete"] as? Bool == true)
                let collection = try #require(report["collection"] as? [String: Any])
                #expect(collection["kind"] as? String == "album" && collection["id"] as? String == album)
                #expect(Self.images(in: out).map(\.lastPathComponent) == files.map(\.lastPathComponent))
                #expect(try Data(contentsOf: files[0]) == whole, "the cut file is whole again")

                let third = try await app.run(arguments)
                #expect(third.outputText.contains("Downloaded 0, \(files.count) already there, failed 0"), "\(third.transcript)")
            }
        }

        @Test func downloadUserSavesThePersonsPhotos() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                guard try await Self.serves("flickr.people.getPublicPhotos", sandbox) else { return }
                let app = try FlickrApp(sandbox: sandbox)
                let owner = try await Self.owners(app, count: 1)[0]
                let out = app.home.url.appendingPathComponent("user", isDirectory: true)
                let result = try await app.run(["download", "--user", owner, "--per-page", "4", "--out", out.path, "--json"])
                #expect(result.status == .exited(0), "\(result.transcript)")
                let report = try #require(try Self.jsonLines(result.outputText).last)
                let saved = report["downloaded"] as? Int ?? 0
                #expect(saved + (report["videos_skipped"] as? Int ?? 0) >= 1, "\(result.transcript)")
                #expect(Self.images(in: out).count == saved)
                #expect((report["collection"] as? [String: Any])?["kind"] as? String == "photostream")
            }
        }

        // MARK: - What works today, whatever the sandbox serves

        @Test func aSecondSearchDownloadSaysEveryFileWasAlreadyThere() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let out = app.home.url.appendingPathComponent("search", isDirectory: true)
                let arguments = ["download", "kittens", "--per-page", "5", "--size", "q", "--name", "{id} {title}", "--out", out.path]
                let first = try await app.run(arguments + ["--json"])
                #expect(first.status == .exited(0), "\(first.transcript)")
                let report = try #require(try Self.jsonLines(first.outputText).last, "\(first.transcript)")
                #expect(report["downloaded"] as? Int == 5 && report["already_there"] as? Int == 0, "\(first.transcript)")
                #expect(report["collection"] == nil)
                let names = Self.images(in: out).map(\.lastPathComponent)
                #expect(names.count == 5)
                let catalog = sandbox.catalog.search(text: "kittens", sort: .relevance).prefix(5).map { sandbox.catalog.photo(at: $0) }
                for photo in catalog {
                    let name = try #require(names.first { $0.hasPrefix(photo.id + " ") }, "\(photo.id) in \(names)")
                    let sidecar = out.appendingPathComponent(name).deletingPathExtension().appendingPathExtension("json")
                    #expect(FileManager.default.fileExists(atPath: sidecar.path), "the sidecar follows the name: \(sidecar.lastPathComponent)")
                }

                let second = try await app.run(arguments)
                #expect(second.status == .exited(0), "\(second.transcript)")
                #expect(second.outputText.hasPrefix("Downloaded 0, 5 already there, failed 0"), "\(second.transcript)")
            }
        }

        @Test func aBadNameTemplateIsRefusedBeforeAnyRequest() async throws {
            try await SandboxHarness.with(sandboxConfiguration(latency: .zero)) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let out = app.home.url.appendingPathComponent("never", isDirectory: true)
                for (template, words) in [("{id}_{nope}", "unknown field {nope}"), ("{id", "never closed")] {
                    let result = try await app.run(["download", "kittens", "--name", template, "--out", out.path])
                    #expect(result.status != .exited(0), "\(result.transcript)")
                    #expect(result.errorText.contains(words), "\(result.transcript)")
                }
                #expect(try await sandbox.stats().restRequests == 0)
                #expect(!FileManager.default.fileExists(atPath: out.path))
            }
        }

        @Test(arguments: ["openverse", "shutterstock"])
        func aServiceWithoutPhotostreamsSaysSo(provider: String) async throws {
            let app = try FlickrApp(apiURL: URL(fileURLWithPath: "/"))
            let out = app.home.url.appendingPathComponent("none", isDirectory: true)
            for arguments in [["user", "ana"], ["album", "72157"], ["download", "--user", "ana", "--out", out.path]] {
                let result = try await app.run(arguments + ["--provider", provider], withProvider: false)
                #expect(result.status == .exited(1), "\(result.transcript)")
                #expect(result.errorText.lowercased().contains(provider), "the service's own sentence: \(result.transcript)")
                #expect(!result.errorText.contains("Something went wrong"), "\(result.transcript)")
                #expect(result.outputText.isEmpty, "\(result.transcript)")
            }
        }

        // MARK: - Helpers

        /// Whether the sandbox serves `method`; prints why not when it does not.
        static func serves(_ method: String, _ sandbox: SandboxHarness) async throws -> Bool {
            let body = try await sandbox.text(of: Self.rest(sandbox, ["method": method]))
            let unknown = body.contains("\"code\":112") || body.contains("\"code\": 112")
            if unknown { Issue.record("the sandbox does not serve \(method) (error 112)") }
            return !unknown
        }

        /// The owners of the first results for kittens, as `search --json` gives them.
        static func owners(_ app: FlickrApp, count: Int) async throws -> [String] {
            let result = try await app.run(["search", "kittens", "--json", "--per-page", "100"])
            var owners: [String] = []
            for line in try jsonLines(result.outputText) {
                if let owner = line["owner"] as? String, !owners.contains(owner) { owners.append(owner) }
            }
            try #require(owners.count >= count, "\(result.transcript)")
            return owners
        }

        /// An owner with an album of at least `photos` photos, and the
        /// album's id, asked of the sandbox with `flickr.photosets.getList`;
        /// nil (with a line saying so) when none of the first owners has one.
        static func anAlbum(_ sandbox: SandboxHarness, photos: Int = 1) async throws -> (owner: String, album: String)? {
            let app = try FlickrApp(sandbox: sandbox)
            for owner in try await owners(app, count: 1).prefix(40) {
                let body = try await sandbox.text(of: rest(sandbox, ["method": "flickr.photosets.getList", "user_id": owner]))
                guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                      let sets = (object["photosets"] as? [String: Any])?["photoset"] as? [[String: Any]]
                else { continue }
                // Flickr sends counts as numbers or as strings.
                let big = sets.first { set in (set["photos"] as? Int ?? Int("\(set["photos"] ?? "")") ?? 0) >= photos }
                if let id = big?["id"] { return (owner, "\(id)") }
            }
            Issue.record("no owner among the first results for kittens has an album of \(photos) or more photos in the sandbox")
            return nil
        }

        static func rest(_ sandbox: SandboxHarness, _ parameters: [String: String]) -> URL {
            var components = URLComponents(url: sandbox.restURL, resolvingAgainstBaseURL: false)
            components?.queryItems = (parameters.merging(["api_key": "test", "format": "json", "nojsoncallback": "1"]) { $1 })
                .sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            return components?.url ?? sandbox.restURL
        }

        static func jsonLines(_ text: String) throws -> [[String: Any]] {
            try text.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            }
        }

        /// The images in `folder`, by name.
        static func images(in folder: URL) -> [URL] {
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .filter { ["jpg", "png", "gif", "webp"].contains($0.pathExtension) }
                .sorted { $0.lastPathComponent.localizedStandardCompare($1.lastPathComponent) == .orderedAscending }
        }
    }
}
