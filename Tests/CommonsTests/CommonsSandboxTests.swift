import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import CommonsService
@testable import Networking
@testable import PhotoCore
import Sandbox
import TestSupport

/// `CommonsProvider` against the sandbox's `/w/api.php` over real loopback
/// HTTP: paging across `continue`, both format versions, the 10,000 cap,
/// `maxlag`, errors as HTTP 200, cancellation.
@Suite(.timeLimit(.minutes(3))) struct CommonsSandboxTests {
    /// Waits a retry policy was asked for, recorded instead of slept.
    final class Waits: Sendable {
        private let storage = NIOLockedValueBox<[Duration]>([])
        var all: [Duration] { storage.withLockedValue { $0 } }

        func policy() -> RetryPolicy {
            RetryPolicy(maxRetryAfter: .seconds(30), sleep: { [storage] wait in storage.withLockedValue { $0.append(wait) } })
        }
    }

    static func endpoint(_ server: SandboxServer) -> URL { server.baseURL.appendingPathComponent("w/api.php") }

    private func withCommons<T>(
        photoCount: Int = 5_000, retry: RetryPolicy = RetryPolicy(baseDelay: .milliseconds(2), maxDelay: .milliseconds(10)),
        notices: ServiceNotices? = nil,
        configure: (inout SandboxConfiguration) -> Void = { _ in },
        _ body: (SandboxServer, CommonsProvider, NetworkManager) async throws -> T
    ) async throws -> T {
        try await withSandboxSession(photoCount: photoCount, configure: configure) { server, network in
            let provider = CommonsProvider(endpoint: Self.endpoint(server), network: network, retryPolicy: retry, notices: notices)
            return try await body(server, provider, network)
        }
    }

    /// What Commons would hold of the catalog's matches, in relevance order:
    /// the freely licensed photos (Commons takes no NC or ND licences).
    static func expectedIDs(_ catalog: Catalog, _ text: String) -> [String] {
        catalog.search(text: text, sort: .relevance).map(catalog.photo(at:))
            .filter { [4, 5, 7, 8, 9, 10, 11, 12].contains($0.license) }.map(\.id)
    }

    /// Parameters of the logged requests to api.php, in arrival order.
    static func apiQueries(_ server: SandboxServer) -> [[String: String]] {
        server.requestLog().filter { $0.path.hasPrefix("/w/api.php") }.map { record in
            let query = record.path.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            return Dictionary(URLComponents(string: "?" + query)?.queryItems?.map { ($0.name, $0.value ?? "") } ?? [],
                              uniquingKeysWith: { $1 })
        }
    }

    @Test func pagesFollowOneAnotherAcrossTheContinueObject() async throws {
        try await withCommons { server, provider, _ in
            let expected = Self.expectedIDs(server.catalog, "kittens")
            #expect(expected.count > 90)
            let first = try await provider.search(.typed("kittens"), page: 1, perPage: 30)
            let second = try await provider.search(.typed("kittens"), page: 2, perPage: 30)
            let third = try await provider.search(.typed("kittens"), page: 3, perPage: 30)
            #expect((first.photos + second.photos + third.photos).map(\.id) == Array(expected.prefix(90)))
            #expect(first.total == expected.count && first.pages == (expected.count + 29) / 30)
            #expect(second.page == 2 && second.perPage == 30)

            let queries = Self.apiQueries(server)
            #expect(queries.count == 3)
            #expect(queries[0]["continue"] == "" && queries[0]["gsroffset"] == nil)
            // Each later page sends back what the page before ended with.
            #expect(queries[1]["continue"] == "gsroffset||" && queries[1]["gsroffset"] == "30")
            #expect(queries[2]["continue"] == "gsroffset||" && queries[2]["gsroffset"] == "60")
            #expect(queries.allSatisfy { $0["formatversion"] == "2" && $0["gsrlimit"] == "30" && $0["iiurlwidth"] == "500" })

            let photo = try #require(first.photos.first)
            let file = try #require(server.catalog.photo(id: photo.id))
            #expect(photo.title == (file.title.isEmpty ? "Untitled (\(file.id))" : file.title))
            #expect(photo.credit?.license != nil && photo.credit?.creator?.isEmpty == false)
            // Its thumbnail is served, and is a JPEG.
            let thumbnail = try #require(provider.imageURL(for: photo, covering: PixelSize(width: 300, height: 200)))
            let bytes = try await providerNetwork(provider).get(thumbnail).body
            #expect(bytes.starts(with: [0xFF, 0xD8]))
        }
    }

    private func providerNetwork(_ provider: CommonsProvider) -> NetworkManager { provider.network }

    @Test func bothFormatVersionsDecodeToTheSameFilesInTheSameOrder() async throws {
        try await withCommons { server, _, network in
            var versions: [[CommonsFile]] = []
            for version in ["1", "2"] {
                var components = try #require(URLComponents(url: Self.endpoint(server), resolvingAgainstBaseURL: false))
                components.queryItems = [
                    ("action", "query"), ("format", "json"), ("formatversion", version), ("generator", "search"),
                    ("gsrsearch", "sunset"), ("gsrnamespace", "6"), ("gsrlimit", "20"), ("prop", "imageinfo"),
                    ("iiprop", "url|size|mime|extmetadata"), ("iiurlwidth", "320"),
                ].map { URLQueryItem(name: $0.0, value: $0.1) }
                let body = try await network.get(try #require(components.url)).body
                if version == "1" {
                    #expect(String(decoding: body, as: UTF8.self).contains("\"batchcomplete\":\"\""))
                    #expect(body.allSatisfy { $0 < 0x80 }, "formatversion 1 escapes every non-ASCII character")
                }
                guard case .answer(let answer) = try CommonsResponseDecoder.decode(body) else {
                    Issue.record("formatversion \(version) was not an answer")
                    return
                }
                #expect(answer.formatVersion == Int(version))
                #expect(answer.files.compactMap(\.index) == Array(1...20))
                versions.append(answer.files)
            }
            #expect(versions[0] == versions[1])
            #expect(versions[0].map(\.pageID) == Array(Self.expectedIDs(server.catalog, "sunset").prefix(20)))
        }
    }

    /// Search reaches 10,000 results: the page that ends there is the last,
    /// one past it is refused without asking, and the server's refusal of a
    /// deeper offset is the same sentence.
    @Test func theTenThousandthResultEndsTheLastPage() async throws {
        try await withCommons(photoCount: 30_000) { server, provider, _ in
            // Only an exclusion: everything else matches, more than 10,000 files.
            let everything = Self.expectedIDs(server.catalog, "-xyzzy")
            #expect(everything.count > 10_000)
            let last = try await provider.search(.typed("-xyzzy"), page: 400, perPage: 25)
            #expect(last.photos.map(\.id) == Array(everything[9_975..<10_000]))
            #expect(last.total == everything.count)
            #expect(provider.lastServedPage(pages: last.pages, perPage: 25) == 400)
            #expect(last.pages > 400, "the total says more exist, past what search serves")

            let requests = Self.apiQueries(server).count
            await #expect(throws: CommonsError.pastLastPage(page: 401)) {
                try await provider.search(.typed("-xyzzy"), page: 401, perPage: 25)
            }
            #expect(Self.apiQueries(server).count == requests, "no request past the cap")

            let deeper = CommonsSearchRequest(search: "-xyzzy", page: 201, limit: 50)
            await #expect(throws: CommonsError.pastLastPage(page: 201)) { try await provider.files(deeper) }
            #expect(CommonsError.pastLastPage(page: 401).description.contains("10,000"))
        }
    }

    /// `maxlag` comes as HTTP 200 with `Retry-After`: waited out (and said),
    /// then the same request succeeds.
    @Test func maxlagIsWaitedOutAndRetried() async throws {
        let waits = Waits()
        let notices = ServiceNotices()
        let said = NIOLockedValueBox<[String]>([])
        let listening = notices.listen { text in said.withLockedValue { $0.append(text) } }
        defer { listening.cancel() }
        try await withCommons(retry: waits.policy(), notices: notices, configure: { configuration in
            configuration.faults.kind = .apiError
            configuration.faults.rate = 1
            configuration.faults.times = 1
            configuration.faults.scope = .rest
        }) { server, provider, _ in
            let page = try await provider.search(.typed("kittens"), page: 1, perPage: 10)
            #expect(page.photos.map(\.id) == Array(Self.expectedIDs(server.catalog, "kittens").prefix(10)))
            #expect(waits.all == [.seconds(5)], "the sandbox's Retry-After")
            #expect(Self.apiQueries(server).count == 2)
            #expect(said.withLockedValue { $0 }.contains { $0.contains("asked to wait 5 seconds") }, "\(said.withLockedValue { $0 })")
        }
    }

    @Test func aLagThatOutlastsTheRetriesIsASentence() async throws {
        try await withCommons(retry: RetryPolicy(maxAttempts: 2, sleep: { _ in }), configure: { configuration in
            configuration.faults.kind = .apiError
            configuration.faults.rate = 1
            configuration.faults.scope = .rest
        }) { _, provider, _ in
            do throws(CommonsError) {
                _ = try await provider.search(.typed("kittens"), page: 1, perPage: 10)
                Issue.record("a lagged server gave a page")
            } catch {
                #expect(error == .lagged(retryAfter: .seconds(5), info: "Waiting for 10.64.48.35: 2 seconds lagged."))
                #expect(error.description.contains("try again in 5 seconds"), "\(error.description)")
            }
        }
    }

    @Test func errorsInHTTP200AreSentencesNotPages() async throws {
        try await withCommons { server, provider, network in
            // An empty search: the server's missingparam, worded.
            await #expect {
                try await provider.files(CommonsSearchRequest(search: "", page: 1, limit: 10))
            } throws: { error in
                (error as? CommonsError)?.description.hasPrefix("Commons needs words to search for") == true
            }
            // A sort Commons does not have: its code and info quoted.
            await #expect {
                try await provider.files(CommonsSearchRequest(search: "cat", page: 1, limit: 10, sort: "sideways"))
            } throws: { error in
                guard case .refused("badvalue", let info)? = error as? CommonsError else { return false }
                return info.contains("gsrsort")
            }
            // The raw answer carries the error header api.php adds, with status 200.
            let url = try #require(URL(string: Self.endpoint(server).absoluteString + "?action=oscillate&format=json"))
            let response = try await network.get(url)
            #expect(response.status == 200)
            guard case .failure(let failure) = try CommonsResponseDecoder.decode(response.body) else {
                Issue.record("an unknown action was answered")
                return
            }
            #expect(failure.code == "badvalue" && failure.info.contains("oscillate"))
        }
    }

    @Test func aFileIsFoundByItsIdAndByItsLink() async throws {
        try await withCommons { server, provider, _ in
            let photo = try #require(try await provider.search(.typed("beach"), page: 1, perPage: 5).photos.first)
            let details = try await provider.photoDetails(id: photo.id)
            #expect(details.id == photo.id && details.title == photo.title)
            #expect(details.license == photo.credit?.license)

            // The file page the sandbox names, as the same page on Commons.
            let page = try #require(photo.credit?.pageURL)
            let link = "https://commons.wikimedia.org" + page.path
            guard case .link(let target) = provider.readLink(link) else {
                Issue.record("\(link) was not read as a file link")
                return
            }
            guard case .photo(let linked) = try await provider.resolve(target) else {
                Issue.record("the link did not open a photo")
                return
            }
            #expect(linked.id == photo.id)
            await #expect(throws: CommonsError.self) { try await provider.photoDetails(id: "12ab") }
        }
    }

    /// Cancelling a search mid-answer closes the connection: the sandbox
    /// sees the client go away, and the search ends as cancelled.
    @Test func cancellingASearchAbortsTheTransfer() async throws {
        try await withCommons(configure: { $0.throttleKBps = 1 }) { server, provider, _ in
            server.resetStats()
            let search = Task { () -> Result<Int, CommonsError> in
                do throws(CommonsError) {
                    return .success(try await provider.search(.typed("kittens"), page: 1, perPage: 50).photos.count)
                } catch {
                    return .failure(error)
                }
            }
            #expect(await poll { server.stats().inFlight >= 1 }, "the search never reached the sandbox")
            search.cancel()
            #expect(await search.value == .failure(.network(.cancelled)))
            #expect(await poll { server.stats().abortedResponses >= 1 }, "the sandbox saw no aborted response")
        }
    }

    /// Every request names the app, its version and the project, as
    /// Wikimedia requires; a client that names no contact is refused with
    /// a sentence that says why.
    @Test func requestsCarryAUserAgentThatWikimediaAccepts() async throws {
        #expect(AppIdentity.userAgent.hasPrefix("flickr/\(AppIdentity.version) (+http"))
        try await withCommons { server, provider, _ in
            let page = try await provider.search(.typed("kittens"), page: 1, perPage: 5)
            #expect(page.photos.count == 5)

            var anonymous = NetworkManager.Configuration.testing
            anonymous.userAgent = "python-requests/2.32"
            let network = NetworkManager(configuration: anonymous)
            let refused = CommonsProvider(endpoint: Self.endpoint(server), network: network, retryPolicy: .never)
            do throws(CommonsError) {
                _ = try await refused.search(.typed("kittens"), page: 1, perPage: 5)
                Issue.record("a client without a contact was answered")
            } catch {
                #expect(error.description.contains("HTTP 403") && error.description.contains("User-Agent"), "\(error.description)")
            }
            await network.shutdown()
        }
    }

    /// mwclient's first question: siteinfo and userinfo, in formatversion 1.
    @Test func siteInfoSaysMediaWikiAndNamesTheFileNamespace() async throws {
        try await withCommons { server, _, network in
            let url = try #require(URL(string: Self.endpoint(server).absoluteString
                + "?action=query&meta=siteinfo%7Cuserinfo&siprop=general%7Cnamespaces&format=json&continue="))
            let root = try #require(try JSONSerialization.jsonObject(with: try await network.get(url).body) as? [String: Any])
            let query = try #require(root["query"] as? [String: Any])
            let general = try #require(query["general"] as? [String: Any])
            #expect((general["generator"] as? String)?.hasPrefix("MediaWiki 1.") == true)
            let namespaces = try #require(query["namespaces"] as? [String: [String: Any]])
            #expect(namespaces["6"]?["*"] as? String == "File")
            #expect((query["userinfo"] as? [String: Any])?["anon"] as? String == "")
        }
    }
}
