import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking
import TestSupport

/// A licence id the built-in table does not know sends the app to Flickr's
/// licence list once, and the list is kept on disk for a week.
@Suite struct FlickrLicenseFetchTests {
    private static let page = #"""
        {"photos":{"page":1,"pages":1,"perpage":2,"total":2,"photo":[
        {"id":"1","owner":"1@N00","secret":"a","server":"1","title":"Known","license":"4","ownername":"ana"},
        {"id":"2","owner":"1@N00","secret":"b","server":"1","title":"New","license":"17","ownername":"ana"}]},"stat":"ok"}
        """#
    private static let list = #"""
        {"licenses":{"license":[{"id":4,"name":"CC BY 2.0","url":"https://creativecommons.org/licenses/by/2.0/"},
        {"id":17,"name":"CC BY 5.0","url":"https://creativecommons.org/licenses/by/5.0/"}]},"stat":"ok"}
        """#

    private static func answer(_ request: ReceivedRequest) -> ScriptedReply {
        request.parameters["method"] == "flickr.photos.licenses.getInfo" ? .text(list) : .text(page)
    }

    @Test func anUnknownIdIsNamedFromFlickrsListWhichIsKeptForAWeek() async throws {
        let folder = try TemporaryDirectory(prefix: "licences")
        let cache = folder.url.appendingPathComponent("flickr-licenses.json")
        try await LoopbackHTTPServer.with(Self.answer) { server in
            let network = NetworkManager()
            let provider = FlickrProvider(apiKey: "k", endpoint: server.baseURL, network: network, licenseCache: cache)
            let photos = try await provider.search(.typed("x"), page: 1, perPage: 2).photos
            #expect(photos.map { $0.credit?.license?.shortName } == ["CC BY 2.0", "CC BY 5.0"])
            #expect(photos[1].credit?.license?.url?.absoluteString == "https://creativecommons.org/licenses/by/5.0/")
            _ = try await provider.search(.typed("y"), page: 1, perPage: 2)
            #expect(server.requests.filter { $0.parameters["method"] == "flickr.photos.licenses.getInfo" }.count == 1,
                    "once a run")
            #expect(FileManager.default.fileExists(atPath: cache.path))

            // The next run reads the copy on disk, not Flickr.
            let next = FlickrProvider(apiKey: "k", endpoint: server.baseURL, network: network, licenseCache: cache)
            let again = try await next.search(.typed("x"), page: 1, perPage: 2).photos
            #expect(again[1].credit?.license?.shortName == "CC BY 5.0")
            #expect(server.requests.filter { $0.parameters["method"] == "flickr.photos.licenses.getInfo" }.count == 1)
            await network.shutdown()
        }
    }

    @Test func knownIdsCostNoCall() async throws {
        let known = Self.page.replacingOccurrences(of: #""license":"17""#, with: #""license":"9""#)
        try await LoopbackHTTPServer.with({ _ in .text(known) }) { server in
            let network = NetworkManager()
            let provider = FlickrProvider(apiKey: "k", endpoint: server.baseURL, network: network)
            let photos = try await provider.search(.typed("x"), page: 1, perPage: 2).photos
            #expect(photos[1].credit?.license?.shortName == "CC0 1.0")
            #expect(server.requests.count == 1)
            await network.shutdown()
        }
    }

    @Test func offlineTheBuiltInTableNamesWhatItCan() async throws {
        try await LoopbackHTTPServer.with({ request in
            request.parameters["method"] == "flickr.photos.licenses.getInfo" ? .text("{}", status: 500) : .text(Self.page)
        }) { server in
            let network = NetworkManager()
            var policy = RetryPolicy.never
            policy.maxAttempts = 1
            let provider = FlickrProvider(apiKey: "k", endpoint: server.baseURL, network: network, retryPolicy: policy)
            let photos = try await provider.search(.typed("x"), page: 1, perPage: 2).photos
            #expect(photos.map { $0.credit?.license?.shortName } == ["CC BY 2.0", "Licence 17"])
            await network.shutdown()
        }
    }
}
