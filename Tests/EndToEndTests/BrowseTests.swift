import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// A person's photos, their albums and pasted links, in the real binary
    /// in a pty against the sandbox's people, albums and pools.
    @Suite("Browsing people and albums")
    struct Browse {
        @Test func userShowsTheirPhotosNewestFirstAndEnterPagesOn() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let person = sandbox.catalog.wellKnownOwner
                let stream = sandbox.catalog.photostream(of: person.nsid)
                let title = { (number: Int) in sandbox.catalog.photo(at: stream[number - 1]).title }
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list", "--images", "none"])
                try await process.waitForFirstListing()

                var mark = process.mark()
                try await process.enter("/user \(SandboxWellKnown.pathAlias)")
                let header = try await process.waitForHeader(page: 1, total: stream.count, after: mark)
                #expect(process.text(since: mark).contains("photos of \(person.realName) · page 1 of"))
                for number in [1, 2, 30] {
                    try await process.waitFor("result \(number) labelled \(title(number).debugDescription)") { _, screen in
                        screenShowsLabel(screen, number: number, title: title(number), below: header)
                    }
                }
                mark = process.mark()
                try await process.enter("")
                let second = try await process.waitForHeader(page: 2, total: stream.count, after: mark)
                try await process.waitFor("result 31 on page 2") { _, screen in
                    screenShowsLabel(screen, number: 31, title: title(31), below: second)
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func albumsListsThemAndAlbumNOpensOne() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let person = sandbox.catalog.wellKnownOwner
                let albums = sandbox.catalog.albums(of: person.nsid)
                let first = try #require(albums.first)
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "grid", "--images", "symbols"])
                try await process.waitForFirstListing()

                var mark = process.mark()
                try await process.enter("/albums \(SandboxWellKnown.username.replacingOccurrences(of: " ", with: ""))x")
                try await process.waitFor("a sentence for a person who does not exist") { bytes, _ in
                    String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self).contains("no user")
                }

                mark = process.mark()
                try await process.enter("/albums \(person.nsid)")
                try await process.waitFor("the albums header and row 1 with its counts") { bytes, screen in
                    let text = String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self)
                    return text.contains("albums of \(person.realName) · \(albums.count) albums")
                        && (screen.scrollback + screen.lines).contains { $0.contains("1 \(first.title) · ") && $0.contains(" photos") }
                }

                mark = process.mark()
                try await process.enter("/album 1")
                let header = try await process.waitForHeader(page: 1, total: first.photoIndexes.count, after: mark)
                #expect(process.text(since: mark).contains("album “\(first.title)” by \(person.realName)"))
                let firstPhoto = sandbox.catalog.photo(at: first.photoIndexes[0])
                try await process.waitFor("the album's first photo") { _, screen in
                    screenShowsLabel(screen, number: 1, title: firstPhoto.title, below: header)
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func pastedLinksOpenWhatTheyPointAt() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let person = sandbox.catalog.wellKnownOwner
                let album = try #require(sandbox.catalog.album(id: SandboxWellKnown.kittensAlbumID))
                let group = try #require(sandbox.catalog.wellKnownGroup)
                let photo = sandbox.catalog.photo(at: sandbox.catalog.photostream(of: person.nsid)[2])
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list", "--images", "none"])
                try await process.waitForFirstListing()

                // An album link, with www., a trailing slash and a query string.
                var mark = process.mark()
                try await process.enter("https://www.flickr.com/photos/\(person.urlName)/albums/\(album.id)/?utm_source=x")
                try await process.waitForHeader(page: 1, total: album.photoIndexes.count, after: mark)
                #expect(process.text(since: mark).contains("album “\(album.title)”"))

                // A group's pool.
                mark = process.mark()
                try await process.enter("flickr.com/groups/\(group.pathAlias)/pool/")
                try await process.waitForHeader(page: 1, total: group.photoIndexes.count, after: mark)
                #expect(process.text(since: mark).contains("pool of \(group.name)"))

                // A gallery (its owner's alias in the link).
                let gallery = try #require(sandbox.catalog.gallery(id: SandboxWellKnown.sunsetGalleryID))
                let curator = try #require(sandbox.catalog.person(nsid: gallery.owner))
                mark = process.mark()
                try await process.enter("https://www.flickr.com/photos/\(curator.urlName)/galleries/\(gallery.id)")
                try await process.waitForHeader(page: 1, total: gallery.photoIndexes.count, after: mark)
                #expect(process.text(since: mark).contains("gallery “\(gallery.title)”"))

                // A photo page opens the photo, unnumbered, with its page.
                mark = process.mark()
                try await process.enter("https://m.flickr.com/photos/\(person.urlName)/\(photo.id)/in/photostream/")
                try await process.waitFor("the photo's details and its page") { bytes, _ in
                    let text = String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self)
                    return text.contains(photo.title) && text.contains("page: https://www.flickr.com/photos/")
                }

                // A Flickr page the app cannot show says which links it reads.
                mark = process.mark()
                try await process.enter("https://www.flickr.com/help/terms")
                try await process.waitFor("the sentence listing the links understood") { bytes, _ in
                    String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self).contains("Flickr links")
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func theSessionBringsAPersonsPhotosBack() async throws {
            let home = try TemporaryDirectory(prefix: "flickr-e2e-browse-session")
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let person = sandbox.catalog.wellKnownOwner
                let stream = sandbox.catalog.photostream(of: person.nsid)
                let app = try FlickrApp(apiURL: sandbox.restURL, home: home)
                var process = try app.launch(["--layout", "list", "--images", "none"])
                try await process.waitForFirstListing()
                let mark = process.mark()
                try await process.enter("/user \(person.nsid)")
                try await process.waitForHeader(page: 1, total: stream.count, after: mark)
                #expect(try await process.quit() == .exited(0))

                process = try app.launch(["--layout", "list", "--images", "none"])
                try await process.waitFor("the photostream restored") { _, screen in
                    screen.text.contains("photos of \(person.realName) · page 1 of") && screen.text.contains("from last time")
                }
                // Another service has no photostreams: /provider says so.
                let switched = process.mark()
                try await process.enter("/provider openverse")
                try await process.waitFor("the sentence about photostreams") { bytes, _ in
                    let text = String(decoding: bytes[min(switched, bytes.count)...], as: UTF8.self)
                    return text.contains("no albums or photostreams")
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func titlesAreHyperlinksWhereTheTerminalFollowsThemAndNotWithNoLinks() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let person = sandbox.catalog.wellKnownOwner
                let stream = sandbox.catalog.photostream(of: person.nsid)
                let photo = sandbox.catalog.photo(at: stream[0])
                for noLinks in [false, true] {
                    // A home of its own: no session from the run before.
                    let app = try FlickrApp(sandbox: sandbox)
                    let process = try app.launch(
                        ["--layout", "list", "--images", "none"] + (noLinks ? ["--no-links"] : []),
                        extraEnvironment: ["KITTY_WINDOW_ID": "1"])
                    try await process.waitForFirstListing()
                    let mark = process.mark()
                    try await process.enter("/user \(person.nsid)")
                    let header = try await process.waitForHeader(page: 1, total: stream.count, after: mark)
                    try await process.waitFor("result 1") { _, screen in
                        screenShowsLabel(screen, number: 1, title: photo.title, below: header)
                    }
                    let text = process.text(since: mark)
                    // Pages are named by path alias or NSID: Flickr serves both.
                    let names = [person.urlName, person.nsid]
                    let links = names.map { "\u{1B}]8;;https://www.flickr.com/photos/\($0)/\(photo.id)/\u{1B}\\" + photo.title }
                    let ownerLinks = names.map { "\u{1B}]8;;https://www.flickr.com/photos/\($0)/\u{1B}\\" }
                    if noLinks {
                        #expect(!text.contains("\u{1B}]8;;"), "--no-links printed a hyperlink")
                    } else {
                        #expect(links.contains { text.contains($0) }, "the title links to its page")
                        #expect(ownerLinks.contains { text.contains($0) }, "the owner links to their photostream")
                    }
                    #expect(try await process.quit() == .exited(0))
                }
            }
        }
    }
}
